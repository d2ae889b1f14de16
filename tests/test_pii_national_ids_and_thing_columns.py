"""Turkish and Finnish identity numbers and a PESEL after their labels, and a card under a "card" column, are
masked; numbers of things (parts, cost centres, call records, orders written in Japanese) are left."""

from __future__ import annotations

import pytest

from tiermem.trust.pii import PiiMasker


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Booking form: TCKN 12345678950, arriving Friday.", "12345678950"),
        ("T.C. Kimlik No: 12345678950", "12345678950"),
        ("Kimlik numaram 12345678950, lütfen kaydedin.", "12345678950"),
        ("Henkilötunnus: 131052-308T", "131052-308T"),
        ("hetu 131052-308T for the clinic form", "131052-308T"),
        ("Numer PESEL to 85010212342.", "85010212342"),
    ],
)
def test_a_national_id_after_its_label_is_masked(text: str, value: str) -> None:
    assert value not in PiiMasker().mask(text)


def test_a_card_number_in_a_card_column_is_masked() -> None:
    text = "when,shop,card,total\n2025-03-02,Bakery,4539148803436715,9.40\n"
    assert "4539148803436715" not in PiiMasker().mask(text)


@pytest.mark.parametrize(
    "text",
    [
        "part_number,name,count\n321-0457-02,bolt set,40\n321-0458-02,washer pack,12\n",
        "Cost centre 5120-330 pays for the offsite.",
        "Protocolo de atendimento: 20251117-331904",
        "注文番号: 503-2291847-7719",
    ],
)
def test_a_number_naming_a_thing_is_left(text: str) -> None:
    assert PiiMasker().mask(text) == text
