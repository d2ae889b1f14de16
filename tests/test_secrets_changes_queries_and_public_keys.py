"""Passwords told after a change or a possessive, keys in a URL's query or named for an admin, codes and recovery keys
in more languages, credentials as tags; and values shaped like credentials that are none (a template's slot in
German, a bcrypt hash, a request id, a public key in a JWK or a DKIM record, a command, a policy)."""

from __future__ import annotations

import pytest

from tiermem import Memory, Scope, SecretRefusedError
from tiermem.trust.secrets import find_secrets


@pytest.mark.parametrize(
    "text",
    [
        "Ojo: la contraseña del wifi de la oficina nueva la puse el lunes, ahora es Pimienta_5521k.",
        "The router password changed last week, now it is Harbor#8820 for everyone.",
        "Das Passwort vom Laptop habe ich geändert, jetzt ist es Dachs7!Moor",
        "Le mot de passe de la box chez tonton, c'est Noisette$4410, ne le perds pas.",
        "La password dell'account della palestra di Marco è Ciliegia_58Roma, segnatela.",
    ],
)
def test_a_password_told_after_a_change_or_a_possessive_is_refused(text: str) -> None:
    assert "a password" in find_secrets(text)


def test_an_app_password_in_four_groups_as_a_login_argument_is_refused() -> None:
    assert "a password" in find_secrets('smtp.login("shop.orders@example.org", "wvkd prtn zqhc jmsl")')


def test_an_admin_key_by_its_name_is_refused_and_an_app_id_is_not() -> None:
    assert "an API key or token" in find_secrets("SEARCHCO_ADMIN_KEY=4e0f9a71c2d84b6e9f13a5c7d2e8b064")
    assert find_secrets("SEARCHCO_APP_ID=K2PZ8QW4LM") == ()


@pytest.mark.parametrize(
    "text",
    [
        "https://api.example.org/v1/forecast?city=Lyon&appid=7c1e94b02fd83a6e51c9d0b4a2f7e386",
        "https://maps.example.net/tiles?z=4&api_key=Qm7xTb2LpV9rKw4NzHs8",
        "web:https://feeds.example.com/rss?token=Jd83kQpL2mXv7RtB9wZc",
    ],
)
def test_a_key_in_a_urls_query_is_refused(text: str) -> None:
    assert "an API key or token" in find_secrets(text)


def test_words_joined_in_a_urls_query_key_are_no_key() -> None:
    assert find_secrets("https://cache.example.org/get?key=user-profile-v2-2024") == ()


def test_a_key_in_a_web_sources_query_is_refused_on_write() -> None:
    with Memory.open(":memory:", embedder="hash") as memory, pytest.raises(SecretRefusedError):
        memory.remember(
            Scope("t", "u"),
            "forecast panel on the home page",
            source="web:https://api.example.org/v1/now?q=Lyon&appid=7c1e94b02fd83a6e51c9d0b4a2f7e386",
        )


@pytest.mark.parametrize(
    "text",
    [
        "El PIN de la tarjeta de mi madre es 6183, no lo compartas.",
        "Banka kart\u0131 şifresi: 7264 (annemin kart\u0131)",
        "Kod do bramy na podwórko przy garażu: 5816",
        "Portkoden till gården: kod 8273",
        "Kodlåset på förrådet: 9147",
        "keypad code 4826#",
    ],
)
def test_a_pin_or_code_said_abroad_or_keyed_with_a_hash_is_refused(text: str) -> None:
    assert "a PIN or access code" in find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "WLAN-Schlüssel Router Keller: 3318 7702 5591 0846 2273",
        "Code wifi de la maison de vacances : Falaise22!vent",
    ],
)
def test_a_wifi_key_with_words_between_label_and_colon_is_refused(text: str) -> None:
    assert "a password" in find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "Wiederherstellungscodes für das Spielkonto: R4TZ-W8KP-2MNX-Q7LD-V3HS",
        "Recovery key for the laptop drive: 412038-551199-027346-668140-319502-774481",
    ],
)
def test_a_recovery_key_in_dash_joined_groups_is_refused(text: str) -> None:
    assert "a recovery phrase, code or key file line" in find_secrets(text)


@pytest.mark.parametrize(
    "tags",
    [["shed", "code 5184#"], ["router", "psk=Tulpe77!Feld"], ["nas", "pw: Krokus4!Blau"]],
)
def test_a_credential_in_a_tag_read_alone_is_refused(tags: list[str]) -> None:
    with Memory.open(":memory:", embedder="hash") as memory, pytest.raises(SecretRefusedError):
        memory.remember(Scope("t", "u"), "things at the cottage", tags=tags)


@pytest.mark.parametrize(
    "text",
    [
        'Im Beispiel steht kennwort = "HIER_EINTRAGEN", jeder trägt sein eigenes ein.',
        'mot_de_passe = "VOTRE_MOT_DE_PASSE_ICI"',
        "row: id=7, password_hash=$2b$10$Xk2pQ9.vL7mR4zW8bN1cY6hJ5gF0sD3aE7uI2oK8lM4pN9qV1rT6wYz (bcrypt)",
        "x-amz-id-2: Tn4kP8vQ2mZ7xR1bW5yC9dF3hJ6gL0sA+eU2iO8lK4pN7qV1rT6wY5zX0cB3/vG7hJ2kL8m",
        '{"kty": "RSA", "e": "AQAB", "n": "tL3x9Qk2Vp7mR4zW8bN1cY6hJ5gF0sD3aE7uI2oK8lM4pN9qV1rT6wY5zX0cB3vG7hJ2kL"}',
        "selector1._domainkey TXT v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAt4Lx9Qk2Vp7"
        "mR4zW8bN1cY6hJ5gF0sD3aE7uI2oK8lM4pN9qV1rT6wY5zX0cB3vG7hJ2kL8mN4pQ9sR1tU6vW3",
        '[mail]\nuser = "ann"\npassword_command = "gopass show mail/ann"',
        "password_policy:\n  min_length: 14\n  require_symbol: true\n  max_age_days: 90",
    ],
)
def test_a_value_shaped_like_a_credential_that_is_none_is_stored(text: str) -> None:
    assert find_secrets(text) == ()
    with Memory.open(":memory:", embedder="hash") as memory:
        memory.remember(Scope("t", "u"), text)


def test_a_private_member_of_a_jwk_is_still_refused() -> None:
    jwk = '{"kty": "RSA", "e": "AQAB", "d": "Q7vLm2Xk9PzR4tW8yB1nC5hJ6gF0sD3aE7uI2oK8lM4pN9qV1rT6wY5zX0cB3vG7hJ2kL8m"}'
    assert find_secrets(jwk) != ()


def test_a_password_after_a_command_label_that_is_no_command_is_refused() -> None:
    assert "a password" in find_secrets('password_command = "Tr4m!line88"')


def test_an_address_then_a_slash_and_a_strong_password_is_refused() -> None:
    assert "a password" in find_secrets("Streaming: kim.lee@example.org / Lantern#Sky77")


@pytest.mark.parametrize("text", ["mail ann@example.org / Q3-2024 report", "ann@example.org / bob@example.org"])
def test_an_address_then_a_slash_and_no_password_is_stored(text: str) -> None:
    assert find_secrets(text) == ()
