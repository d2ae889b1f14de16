"""A short number under a metadata key that only names a code is a safe's code when the note names a safe, a key
safe or a padlock; beside any other note, or as a word, it is stored."""

from __future__ import annotations

from typing import Any

import pytest

from tiermem import Memory, Scope
from tiermem.errors import SecretRefusedError
from tiermem.trust.secret_pins import code_of_a_named_safe

BOB = Scope("acme", "bob")


@pytest.mark.parametrize(
    ("note", "metadata"),
    [
        ("codice della cassetta di sicurezza, albergo al mare", {"codice": "640218", "stanza": "31"}),
        ("Ferienwohnung: Schlüsselkasten neben der Garage", {"Code": 2731}),
        ("the in-room safe at the lake lodge", {"combination": "8155"}),
        ("caja fuerte del despacho", {"código": "47120"}),
    ],
)
def test_a_code_under_a_code_key_beside_a_note_naming_a_safe_is_refused(
    mem: Memory, note: str, metadata: dict[str, Any]
) -> None:
    with pytest.raises(SecretRefusedError) as refused:
        mem.remember(BOB, note, metadata=metadata)
    assert "a PIN or access code" in str(refused.value) and refused.value.field.startswith("metadata.")
    assert mem.store.count(BOB) == 0


@pytest.mark.parametrize(
    ("note", "metadata"),
    [
        ("ordered a new front door for the flat", {"code": "58213"}),  # a door: an order's code as well
        ("the hotel safe was broken again", {"code": "blue"}),
        ("the hotel safe was broken again", {"code": "777777"}),
        ("keep the receipts safe this year", {"code": "4417"}),  # "safe" as a quality, no safe named
        ("codice della cassetta di sicurezza", {"codice_cliente": "640218"}),
    ],
)
def test_a_code_beside_a_note_naming_no_safe_or_not_a_number_is_stored(
    mem: Memory, note: str, metadata: dict[str, Any]
) -> None:
    mem.remember(BOB, note, metadata=metadata)
    assert mem.store.count(BOB) == 1


def test_a_safes_code_is_named_by_its_key_alone() -> None:
    assert code_of_a_named_safe("padlock on the shed", " pin ", 5093)
    assert not code_of_a_named_safe("padlock on the shed", "pin", True)


def test_a_safes_code_in_a_write_with_a_malformed_field_is_refused_as_a_credential(mem: Memory) -> None:
    with pytest.raises(SecretRefusedError) as refused:
        mem.remember(BOB, "lockbox by the back door", metadata={"code": "3094", "colours": ["teal"]})
    assert refused.value.field == "metadata.code"
