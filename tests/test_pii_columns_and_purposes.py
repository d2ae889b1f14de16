"""Values under a table's column header, after a label with a remark or a purpose before its colon, and passport
labels abroad; the numbers of articles, orders and references that stay as written."""

from __future__ import annotations

import pytest

from tiermem.trust.pii import PiiMasker
from tiermem.trust.pii_columns import column_cells

# -- a column's header labels its cells ------------------------------------------------------------------------


def test_birth_dates_in_a_csv_column_headed_dob_are_masked() -> None:
    text = "member,dob,team\nIrma Lind,2012-06-14,Falcons\nOskar Pell,2011-09-02,Falcons"
    masked = PiiMasker().mask(text)
    assert "2012-06-14" not in masked
    assert "2011-09-02" not in masked
    assert masked.startswith("member,dob,team\nIrma Lind,[DOB_1],Falcons")


def test_passports_in_a_markdown_column_headed_passport_are_masked() -> None:
    text = "| guest | passport | room |\n|---|---|---|\n| Vera | RT4410962 | 12 |\n| Tom | ZK8830157 | 14 |"
    masked = PiiMasker().mask(text)
    assert "RT4410962" not in masked
    assert "ZK8830157" not in masked
    assert "| 12 |" in masked


def test_dates_in_a_column_not_named_a_birth_date_stay() -> None:
    text = "task;due;owner\nfence;2025-04-03;Lea\nroof;2025-05-11;Max"
    assert PiiMasker().mask(text) == text


def test_a_cell_is_read_under_its_own_header_only() -> None:
    text = "city,dob\nOslo,2001-01-30\n"
    cells = list(column_cells(text))
    assert [(text[s:e], header) for s, e, header in cells] == [("Oslo", "city"), ("2001-01-30", "dob")]


def test_a_line_of_prose_with_commas_and_no_rows_below_it_is_no_table() -> None:
    assert list(column_cells("Dear Ana, thanks, see you\non Monday at the station.")) == []


# -- a label, a remark or a purpose, a colon, the value ---------------------------------------------------------


def test_a_french_nir_in_groups_after_its_label_and_a_remark_in_brackets_is_masked() -> None:
    masked = PiiMasker().mask("Num. de sécurité sociale (assuré principal) : 2 88 11 75 114 007 12")
    assert masked.endswith(": [ID_1]")


def test_a_curp_after_its_label_and_a_long_purpose_phrase_is_masked() -> None:
    masked = PiiMasker().mask("CURP para el registro en el club de ajedrez: PERJ920315HJCLZN08")
    assert masked.endswith(": [ID_1]")


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Passaporto n. KB2071635, scade nel 2031.", "KB2071635"),
        ("Pasaport numarası: P71028365", "P71028365"),  # noqa: RUF001 (Turkish is written so)
    ],
)
def test_a_passport_after_an_italian_or_turkish_number_label_is_masked(text: str, value: str) -> None:
    masked = PiiMasker().mask(text)
    assert value not in masked
    assert "[PASSPORT_1]" in masked


# -- numbers of things ------------------------------------------------------------------------------------------


def test_a_number_grouped_like_an_article_number_beside_it_is_left_alone() -> None:
    text = "Artikelnummer 0170 5512 3340 fehlt im Lager, Ersatz: 0170 5512 3341."
    assert PiiMasker().mask(text) == text


def test_an_order_number_after_a_plain_number_word_and_the_order_word_is_left_alone() -> None:
    text = "Número do pedido: 2024112209381, enviado hoje."
    assert PiiMasker().mask(text) == text


def test_a_phone_after_a_plain_number_word_naming_a_phone_is_still_masked() -> None:
    assert "[PHONE_1]" in PiiMasker().mask("Número de telefone: 0170 5512 3341")


@pytest.mark.parametrize(
    "text",
    [
        "Referensnummer 4410-8823-07 gäller din ansökan.",
        "Referenznummer 4410-8823-07 bitte angeben.",
        "Fakturanummer 4410 8823 07 betalas senast fredag.",
    ],
)
def test_a_nordic_or_german_reference_number_is_left_alone(text: str) -> None:
    assert PiiMasker().mask(text) == text
