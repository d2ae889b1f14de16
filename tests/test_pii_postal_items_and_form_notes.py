"""Numbers of post and forms that are no one's: a postal item's number, a Brazilian CEP, a form's note in brackets."""

from __future__ import annotations

import pytest

from tiermem.trust.pii import PiiMasker


@pytest.mark.parametrize(
    "text",
    [
        "The parcel RR 482 913 605 FI waits at the kiosk.",
        "Sendung CX 1029 3847 DE ist unterwegs.",
        "Mail it to CEP 04567-210, in the south zone.",
        "Password: [assigned by the administrator]",
        "password = (reception hands it over)",
    ],
)
def test_a_postal_item_a_cep_or_a_form_note_is_left_as_written(text: str) -> None:
    assert PiiMasker().mask(text) == text


@pytest.mark.parametrize(
    ("text", "masked"),
    [
        ("Ring me on 0701 234 567 after six.", "Ring me on [PHONE_1] after six."),
        ("Password: [Vq8#nRt2Lp]", "Password: [KEY_1]"),
    ],
)
def test_a_phone_or_a_password_in_brackets_is_still_masked(text: str, masked: str) -> None:
    assert PiiMasker().mask(text) == masked
