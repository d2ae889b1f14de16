"""National ids after their own labels whose check digit is wrong or absent, dates of other calendars, and more."""

# ruff: noqa: RUF001  (the labels are written in the scripts they match)

from __future__ import annotations

import pytest

from tiermem.trust.pii import PiiMasker


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("ЕГН на пациента 7502114321", "7502114321"),
        ("JMBG 1503985715123", "1503985715123"),
        ("EMŠO 2207984505123", "2207984505123"),
        ("Asmens kodas 48503150123", "48503150123"),
        ("Isikukood 48503150123", "48503150123"),
        ("Personas kods 150385-10234", "150385-10234"),
        ("ИИН 920315400987", "920315400987"),
    ],
)
def test_a_national_id_right_after_its_own_label_is_masked_though_its_check_digit_is_wrong(
    text: str, value: str
) -> None:
    assert value not in PiiMasker().mask(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("এনআইডি নম্বর 5512398760 ফর্মে", "5512398760"),
        ("Nambari ya kitambulisho 31425364 kwa benki", "31425364"),
        ("नागरिकता नं. 31-02-75-08812 बैंकका लागि", "31-02-75-08812"),
        ("မှတ်ပုံတင် 9/မရန(နိုင်)045123", "9/မရန(နိုင်)045123"),
        ("Регистрийн дугаар ЧД95031512", "ЧД95031512"),
        ("NIC 198524503921", "198524503921"),
        ("NIC 851234567V", "851234567V"),
        ("davčna številka 31000002", "31000002"),
    ],
)
def test_a_national_id_with_no_check_digit_is_masked_by_its_label_and_shape(text: str, value: str) -> None:
    assert value not in PiiMasker().mask(text)


@pytest.mark.parametrize(
    "text",
    [
        "ЕГН 7513114321",  # no thirteenth month
        "ИИН 921315400987",
        "Регистрийн дугаар ЧД95133112",
        "NIC 198540003921",  # no four-hundredth day
        "nic 198524503921",  # a network card, in lower case
    ],
)
def test_a_number_after_an_id_label_whose_date_is_impossible_stays(text: str) -> None:
    assert PiiMasker().mask(text) == text


def test_a_solar_hijri_birth_date_after_its_label_is_masked() -> None:
    assert PiiMasker().mask("تاریخ تولد: 1370/11/05") == "تاریخ تولد: [DOB_1]"


def test_a_pan_after_its_marathi_label_is_masked() -> None:
    assert PiiMasker().mask("पॅन BXKPM7719Q") == "पॅन [ID_1]"


def test_a_passport_after_its_armenian_label_with_its_number_word_is_masked() -> None:
    assert PiiMasker().mask("Անձնագրի համար՝ AP7730142") == "Անձնագրի համար՝ [PASSPORT_1]"


def test_a_serbian_payment_reference_is_no_phone() -> None:
    text = "Уплатница: позив на број 11 55004321, износ по рачуну"
    assert PiiMasker().mask(text) == text
