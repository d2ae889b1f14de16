"""Passwords, network keys and door codes named in other languages (one table of words per language), and what
only looks like a credential: placeholders written as instructions, go.sum hashes, a named public key, the JWT
documentation's sample token, values a test says are not real, a reference to where a secret lives."""

from __future__ import annotations

import pytest

from tiermem import Memory, Scope, SecretRefusedError
from tiermem.trust.secrets import find_secrets

# The sample JWT the documentation prints: its claims are the documented ones, its signature any.
_SAMPLE_JWT = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ"
    ".Qm9ndXNTaWduYXR1cmVGb3JBVGVzdE9ubHlfX3gxMjM0NTY3"
)


@pytest.mark.parametrize(
    "text",
    [
        "Contraseña de la impresora (nueva): Gato-Verde_551",
        "Sähköpostin salasana on Mänty-Kivi_8830.",
        "Wifi-wachtwoord thuis: Zonne8!bloem",
        "Wachtwoord van de nas bij tante: Rivier-22_oost",
    ],
)
def test_a_password_after_a_label_in_its_language_is_refused(text: str) -> None:
    assert "a password" in find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "WLAN-Router im Keller, Netzwerkschlüssel: 5521 8830 1179 4402",
        "Wifi de la maison — clé : Pomme_Verte_42",
        "cle_wifi: Pivoine77!ab",
        "wifi:Limon_4471!q",
    ],
)
def test_a_network_key_in_another_language_or_after_wifi_is_refused(text: str) -> None:
    assert "a password" in find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "Banka kart\u0131m\u0131n PIN'i 5821.",
        "Kellertür, Zahlenschloss: 7193",
        "kod till grinden 4720",
        "Bodega: candado de combinación 6613",
        "Ovikoodi 4471",
    ],
)
def test_a_door_code_or_pin_after_a_code_word_in_its_language_is_refused(text: str) -> None:
    assert "a PIN or access code" in find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "Postal code: 75001",
        "code: 4417 for the SKU",
        "Zahlenschloss am Fahrrad ist kaputt",
        "Der Schlüssel liegt unter der Matte",
        "salasana on vaihdettava pian",
        "wifi: Home-5G",
        "clé : voir le carnet",
    ],
)
def test_a_number_or_word_after_no_code_word_is_no_credential(text: str) -> None:
    assert find_secrets(text) == ()


def test_a_network_key_in_a_metadata_value_is_refused_by_the_write_gate() -> None:
    with Memory.open(":memory:", embedder="hash") as memory, pytest.raises(SecretRefusedError):
        memory.remember(Scope("t", "u"), "Set up the printer.", metadata={"clave_wifi": "Limonero_88!x"})


@pytest.mark.parametrize(
    "text",
    [
        'kennwort = "BITTE_AENDERN"\nbenutzer = "BITTE_AUSFUELLEN"',
        "API_SECRET=change-me-before-you-ship",
        "WEBHOOK_SECRET=your-signing-secret-goes-here",
        "SESSION_SECRET=replace_me_with_random_bytes",
    ],
)
def test_a_placeholder_written_as_an_instruction_is_no_credential(text: str) -> None:
    assert find_secrets(text) == ()


def test_a_go_sum_hash_is_no_credential() -> None:
    line = "example.org/lib/widgets v0.4.2 h1:Zk3pQ0r9LmNa8sTb7UvWx2Yc4De5Fg6Hi7Jk8Lm9No0="
    assert find_secrets(line) == ()


def test_a_key_named_a_public_key_for_a_purpose_is_no_credential() -> None:
    value = "BKq3z9Lm2Np4Qr6St8Uv0Wx1Yz3Ab5Cd7Ef9Gh2Ij4Kl6Mn8Op0Qr2St4Uv6Wx8Yz1Ab3Cd5Ef7Gh9Ij1Kl3Mn5Op"
    assert find_secrets(f"Server public key for push messages: {value}") == ()


def test_the_documentations_sample_jwt_is_no_credential() -> None:
    assert find_secrets(f"The tutorial decodes this token: {_SAMPLE_JWT}") == ()


@pytest.mark.parametrize(
    "text",
    [
        "client.post('/signin', json={'user': 'bo', 'password': 'not-the-real-one'})",
        '{"login": "fixture_user", "password": "fixture-password-not-real"}',
    ],
)
def test_a_value_a_test_says_is_not_real_is_no_password(text: str) -> None:
    assert find_secrets(text) == ()


def test_where_a_password_lives_named_under_its_source_is_no_password() -> None:
    assert find_secrets("password_source: env:APP_DB_PASSWORD") == ()


def test_a_warning_that_a_password_on_a_command_line_is_insecure_is_no_password() -> None:
    assert find_secrets("Note: a password on the command line is insecure, use an option file.") == ()


def test_a_password_given_as_a_documentation_example_never_deployed_is_no_password() -> None:
    text = "The vendor's example config uses password `9c4e1a7b22f0` - shown as an illustration, never deployed."
    assert find_secrets(text) == ()


def test_a_password_said_only_to_be_an_example_is_still_refused() -> None:
    assert "a password" in find_secrets("For example, the staging password is Harbor-91_kite.")
