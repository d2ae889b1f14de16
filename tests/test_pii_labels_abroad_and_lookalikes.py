"""Identifiers, passports, birth dates and phones as other languages and formats write them, and numbers that only
look like phones or addresses: coordinates, netmasks, drawn numbers, item numbers."""

from __future__ import annotations

import json

import pytest

from tiermem.trust.pii import PiiMasker

COLON = "\uff1a"  # the full-width colon Japanese and Chinese text writes after a label


def _wide(text: str) -> str:
    """``text`` with its digits, colons and hyphens in their full-width forms."""
    return text.translate({ord(c): ord(c) + 0xFEE0 for c in "0123456789:-"})


# -- national identifiers after their label ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "PESEL 87021503840",
        "my NIF is 246813571",
        "CURP MAPL790318MJCRNS03",
        "CURP MAPL790318MJCRNS07",  # its check digit mistyped
        "DNI 31415926A",  # its check letter mistyped (L is right)
    ],
)
def test_a_national_id_after_its_label_is_masked(text: str) -> None:
    assert "[ID_1]" in PiiMasker().mask(text)


def test_a_dni_under_its_json_key_is_masked() -> None:
    text = json.dumps({"holder": "someone", "dni": "31415926A"})
    assert json.loads(PiiMasker().mask(text))["dni"] == "[ID_1]"


@pytest.mark.parametrize("text", ["PESEL 87023503841", "NIF 246813572", "room 31415926A"])
def test_a_number_that_fails_its_check_or_has_no_label_stays(text: str) -> None:
    assert PiiMasker().mask(text) == text


# -- passports and birth dates after labels in other languages ---------------------------------------------------


@pytest.mark.parametrize(
    "label",
    ["número de pasaporte:", "paspoortnummer", "numer paszportu", "旅券番号", "パスポート番号" + COLON, "护照号码"],
)
def test_a_passport_number_after_a_label_in_another_language_is_masked(label: str) -> None:
    assert PiiMasker().mask(f"{label} RT5520871") == f"{label} [PASSPORT_1]"


def test_a_passport_number_inside_japanese_text_is_masked() -> None:
    assert PiiMasker().mask("私の旅券番号はRT5520871です") == "私の旅券番号は[PASSPORT_1]です"


@pytest.mark.parametrize(
    ("label", "date"),
    [
        ("data urodzenia:", "1988-02-29"),
        ("data de nascimento:", "03/11/1979"),
        ("生年月日" + COLON, "1986年7月23日"),
        ("誕生日は", "2001年12月5日"),
    ],
)
def test_a_birth_date_after_a_label_in_another_language_is_masked(label: str, date: str) -> None:
    assert PiiMasker().mask(f"{label} {date}") == f"{label} [DOB_1]"


# -- phones right after a colon, in full-width digits, in a CSV cell ---------------------------------------------


@pytest.mark.parametrize(
    ("text", "masked"),
    [
        ("携帯" + COLON + "070-1357-2468", "携帯" + COLON + "[PHONE_1]"),
        ("電話" + _wide(":080-2468-1357"), "電話" + COLON + "[PHONE_1]"),
        ("Tel:+14155550123", "Tel:[PHONE_1]"),
    ],
)
def test_a_phone_right_after_a_colon_behind_a_phone_word_is_masked(text: str, masked: str) -> None:
    assert PiiMasker().mask(text) == masked


def test_a_phone_in_a_csv_cell_is_masked() -> None:
    text = "who,mail,tel\nKei Mori,kei.mori@example.org,080-2468-1357"
    assert PiiMasker().mask(text) == "who,mail,tel\nKei Mori,[EMAIL_1],[PHONE_1]"


@pytest.mark.parametrize("text", ["1,080,2468", "id:07013572468", "sums 12,07013572468"])
def test_digits_after_a_comma_or_colon_in_a_list_or_an_id_stay(text: str) -> None:
    assert PiiMasker().mask(text) == text


# -- numbers that only look like phones or addresses -------------------------------------------------------------


def test_a_json_coordinate_is_no_phone_and_the_json_stays_as_written() -> None:
    text = '{"lat": 48.858370, "lon": 2.294481}'
    masker = PiiMasker()
    assert masker.mask(text) == text


@pytest.mark.parametrize("mask", ["255.255.0.0", "255.255.255.192", "255.255.255.255"])
def test_a_netmask_or_the_broadcast_address_is_no_ip(mask: str) -> None:
    text = f"set the netmask to {mask} on eth0"
    assert PiiMasker().mask(text) == text


@pytest.mark.parametrize(
    "text",
    [
        "this week's draw: 03 09 18 27 36 44",
        "Artikelnummer 0171 9876 5432",
        "Bestellnr. 0171 9876 5432",
        "klantnummer 0171 9876 5432",
    ],
)
def test_drawn_numbers_or_an_item_number_in_a_compound_word_are_no_phone(text: str) -> None:
    assert PiiMasker().mask(text) == text


@pytest.mark.parametrize(
    ("text", "masked"),
    [
        ("Handynummer 0171 9876 5432", "Handynummer [PHONE_1]"),
        ("appelez le 06 24 68 13 57", "appelez le [PHONE_1]"),
        ("+33 6 24 68 13 57", "[PHONE_1]"),
        ("the server at 81.2.69.160", "the server at [IP_1]"),
    ],
)
def test_phones_in_pairs_and_host_addresses_are_still_masked(text: str, masked: str) -> None:
    assert PiiMasker().mask(text) == masked
