"""Passwords in a table's password column, a driver's data source name, a passphrase told as chosen and a password
said where it is used; and what only looks like one: a URL after a password's word, a secret read by a call, a
provider's documented example key, a JSON boolean under "pass"."""

from __future__ import annotations

import pytest

from tiermem import Memory, Scope, SecretRefusedError
from tiermem.trust.secrets import find_secrets

_LOGINS = "site,login,password,owner\nGarden club,mo.k@example.org,Tulip-88x!,Mo\nLibrary,mo.k@example.org,,Mo"


def test_a_password_under_a_pass_key_in_nested_json_is_refused() -> None:
    assert "a password" in find_secrets(
        '{"sftp": {"host": "files.example.net", "user": "drop", "pass": "Tq7!meadow31"}}'
    )


def test_a_json_boolean_under_a_pass_key_is_no_password() -> None:
    assert find_secrets('{"step": "lint", "pass": true, "errors": 0}') == ()


def test_a_password_in_a_csv_column_headed_password_is_refused() -> None:
    assert "a password" in find_secrets(_LOGINS)


def test_a_password_in_a_csv_column_is_refused_by_the_write_gate_whose_lines_are_joined() -> None:
    with Memory.open(":memory:", embedder="hash") as memory, pytest.raises(SecretRefusedError):
        memory.remember(Scope("t", "u"), _LOGINS)


@pytest.mark.parametrize(
    "text",
    [
        "site,login,password,owner\nGarden club,mo.k@example.org,,Mo\nLibrary,mo.k@example.org,,Mo",
        "site,login,password,owner Garden club,mo.k@example.org,,Mo Library,mo.k@example.org,,Mo",
        "account,password_changed,owner\nshop,2025-02-03,Mo\nbank,2025-03-09,Mo",
    ],
)
def test_empty_cells_or_a_property_column_hold_no_password(text: str) -> None:
    assert find_secrets(text) == ()


def test_a_password_in_a_go_data_source_name_is_refused() -> None:
    assert "a password" in find_secrets('conn, err := sql.Open("mysql", "stock:Wr3n-hill77@tcp(10.0.0.9:3306)/stock")')


def test_a_slot_in_a_go_data_source_name_is_no_password() -> None:
    assert find_secrets('dsn := "stock:${STOCK_PW}@tcp(db:3306)/stock"') == ()


def test_a_passphrase_told_as_the_one_chosen_is_refused() -> None:
    assert "a password" in find_secrets(
        "gpg asked me for a passphrase and I picked: Lantern#Pike_904 for the backup key"
    )


def test_a_password_said_where_it_is_used_in_swedish_is_refused() -> None:
    assert "a password" in find_secrets("Lösenordet på kontoret är Hallonberg!62, skriv inte ner det.")


def test_a_url_after_the_word_password_in_a_user_pair_is_no_password() -> None:
    assert find_secrets("curl -u tester:password http://127.0.0.1:9000/health  # local sandbox only") == ()


def test_a_secret_read_by_a_call_and_its_subscripts_is_no_key() -> None:
    assert find_secrets("secret = store.kv.read_secret(path='team/api')['data']['data']['token']") == ()


@pytest.mark.parametrize(
    "text",
    [
        "The docs show AKIAIOSFODNN7EXAMPLE as the key id.",
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    ],
)
def test_a_providers_documented_example_key_is_no_key(text: str) -> None:
    assert find_secrets(text) == ()
