"""Numbers of things after their words, and personal values after their labels, in thirty more languages."""

# ruff: noqa: RUF001  (the examples are written in the scripts they test)

from __future__ import annotations

import pytest

from tiermem.trust.pii import PiiKind, PiiMasker, find_pii


def _found(text: str) -> list[tuple[str, PiiKind]]:
    return [(text[s.start : s.end], s.kind) for s in find_pii(text)]


def test_an_address_in_single_quotes_of_an_sql_insert_is_masked() -> None:
    text = "INSERT INTO members (mail, tel) VALUES ('tomas.k@example.org', '+370 612 34567');"
    assert PiiMasker().mask(text) == "INSERT INTO members (mail, tel) VALUES ('[EMAIL_1]', '[PHONE_1]');"


@pytest.mark.parametrize(
    "text",
    [
        "Nambari ya ankara: 0733-1190-22 imelipwa.",
        "Zásielka č. 0905 112 334 je na ceste.",
        "Sąskaitos nr. 0612 34567 apmokėta.",
        "Tellimuse number 5123 4567 on teel.",
        "Pieteikuma numurs 2912 3456 saņemts.",
        "Sifariş nömrəsi: 050 123 45 67",
        "Buyurtma raqami: 90 123 45 67",
        "Siparişi numarası 0532 123 4567",
        "आवेदन क्रमांक 98230 12345",
    ],
)
def test_a_number_after_a_things_word_in_more_languages_is_not_a_phone(text: str) -> None:
    assert find_pii(text) == []


def test_a_phone_after_a_subscriber_number_label_is_still_masked() -> None:
    assert _found("Абонатен номер: 0888 123 456") == [("0888 123 456", PiiKind.PHONE)]
    assert _found("Abonent raqami: 90 123 45 67") == [("90 123 45 67", PiiKind.PHONE)]


def test_a_year_a_slash_and_a_number_is_a_document_not_a_phone() -> None:
    assert find_pii("file 2025/0981 is open") == []


def test_a_day_joined_to_a_counter_is_a_case_number_not_a_phone() -> None:
    assert find_pii("logged as 20250611-42 yesterday") == []


def test_a_barcode_word_and_what_it_is_of_in_tagalog_keep_a_card_shaped_number() -> None:
    assert _found("the number 4006381333932") == [("4006381333932", PiiKind.CARD)]
    assert find_pii("Barcode ng sabon: 4006381333932") == []


def test_a_phone_after_a_phone_word_in_more_languages_is_still_masked() -> None:
    assert _found("Simu: +255 754 123 456") == [("+255 754 123 456", PiiKind.PHONE)]
    assert _found("Telefon: 0532 123 4567") == [("0532 123 4567", PiiKind.PHONE)]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Datum rođenja: 02.07.1979", "02.07.1979"),
        ("Дата на раждане: 02.07.1979", "02.07.1979"),
        ("Gimimo data: 1979-07-02", "1979-07-02"),
        ("Tug'ilgan sana: 02.07.1979", "02.07.1979"),
        ("Tarehe ya kuzaliwa: 02/07/1979", "02/07/1979"),
        ("জন্ম তারিখ: 02/07/1979", "02/07/1979"),
        ("تاریخ تولد: 1979/07/02", "1979/07/02"),
        ("Ծննդյան ամսաթիվ՝ 02.07.1979", "02.07.1979"),
    ],
)
def test_a_birth_date_after_its_label_in_more_languages_is_masked(text: str, value: str) -> None:
    assert _found(text) == [(value, PiiKind.BIRTH_DATE)]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Broj putovnice: HR7740219", "HR7740219"),
        ("Pases numurs: LV4410987", "LV4410987"),
        ("Pasport raqami: FA2231190", "FA2231190"),
        ("Nombor pasport: K41177203", "K41177203"),
        ("পাসপোর্ট নম্বর: EB5531902", "EB5531902"),
        ("Անձնագիր՝ AN0912273", "AN0912273"),
    ],
)
def test_a_passport_number_after_its_label_in_more_languages_is_masked(text: str, value: str) -> None:
    assert _found(text) == [(value, PiiKind.PASSPORT)]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("EMŠO: 0101006500006", "0101006500006"),
        ("personas kods: 161175-19997", "161175-19997"),
        ("MyKad: 770305-13-5221", "770305-13-5221"),
        ("CNIC: 34201-0891231-8", "34201-0891231-8"),
    ],
)
def test_a_personal_code_after_its_label_is_masked_as_an_identifier(text: str, value: str) -> None:
    assert _found(text) == [(value, PiiKind.NATIONAL_ID)]


def test_a_customer_word_names_a_things_number_only_with_a_number_word_after_it() -> None:
    assert _found("ग्राहक: 98230 12345") == [("98230 12345", PiiKind.PHONE)]
    assert find_pii("ग्राहक क्रमांक 98230 12345") == []
