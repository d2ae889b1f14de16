"""A tax id after its label's long name in brackets is masked; a version after Japanese "version is", opening hours
and a customs tariff code stay as written."""

from __future__ import annotations

import pytest

from tiermem.trust.pii import PiiMasker


def test_a_steuer_id_after_a_long_bracketed_remark_is_masked() -> None:
    masked = PiiMasker().mask("Steuer-ID (neue Identifikationsnummer ab 2024): 15 429 863 972")
    assert "15 429 863 972" not in masked


@pytest.mark.parametrize(
    "text",
    [
        "ファームウェアのバージョンは 4.1.0.12 になりました。",
        "当前版本是 2.3.10.7",
        "Butiken har öppet 09.30\u201318.00, lördag 10.00\u201314.00.",
        "Desk hours 8:15-16:45 on weekdays.",
        "HS code 8471.30.00.00 on the invoice for the laptops.",
        "Commodity code: 9403.60.10.00 for the shelves.",
    ],
)
def test_versions_opening_hours_and_tariff_codes_stay_as_written(text: str) -> None:
    assert PiiMasker().mask(text) == text


def test_an_address_in_japanese_prose_is_still_masked() -> None:
    assert "10.20.30.40" not in PiiMasker().mask("サーバーのアドレスは 10.20.30.40 です。")
