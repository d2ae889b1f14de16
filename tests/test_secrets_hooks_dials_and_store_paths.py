"""A known service's webhook without its scheme, an integration key labelled in another language, HubSpot's app
token, an Oracle JDBC login, a safe's dial combination, a bank's memorable information, a BitLocker recovery key and a
key box's code under a metadata key are refused; a secret store's bare path after a password's name is stored."""

from __future__ import annotations

import pytest

from tiermem import Memory, Scope, SecretRefusedError
from tiermem.trust.secrets import find_secrets


@pytest.mark.parametrize(
    "text",
    [
        "hooks.zapier.com/hooks/catch/7730215/b3q8zw1",
        "new lead hook: hooks.zapier.com/hooks/catch/1200934/uv72kq9",
        "discord.com/api/webhooks/5566778899001/Qw3rTy_Ui9oPaS-dF4gHjK6lZx8cVbN1mQ",
        "hooks.slack.com/services/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",
    ],
)
def test_a_known_services_webhook_without_its_scheme_is_refused(text: str) -> None:
    assert "a webhook URL" in find_secrets(text)


@pytest.mark.parametrize(
    "text",
    ["see zapier.com/hooks for how catch hooks work", "docs at example.org/hooks/catch/setup"],
)
def test_a_page_about_hooks_without_a_hooks_key_is_stored(text: str) -> None:
    assert find_secrets(text) == ()


@pytest.mark.parametrize(
    "text",
    [
        "Opsgenie integracijos raktas: 7c2e91ab04d35f68e1a9c0b7d4f25e83",
        "Alertmanager Integrationsschlüssel: 9f0a1b2c3d4e5f60718293a4b5c6d7e8",
        "clé d'intégration du service : a81f3c09d2e74b65c0f19e8d7a6b5c43",
        "ключ интеграции: 3b8d0f1e2c4a59687e1d0c9b8a7f6e52",
    ],
)
def test_an_integration_key_labelled_in_another_language_is_refused(text: str) -> None:
    assert "an API key or token" in find_secrets(text)


def test_a_hash_with_no_key_label_is_stored() -> None:
    assert find_secrets("build checksum: 7c2e91ab04d35f68e1a9c0b7d4f25e83") == ()


@pytest.mark.parametrize(
    "text",
    ["crm token pat-na1-1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b", "pat-eu1-0a9b8c7d-6e5f-4a3b-9c2d-1e0f9a8b7c6d"],
)
def test_a_hubspot_private_app_token_is_refused(text: str) -> None:
    assert "a service API token" in find_secrets(text)


def test_an_oracle_jdbc_url_with_a_login_is_refused() -> None:
    found = find_secrets("url=jdbc:oracle:thin:ledger/Wm4p!Zr82q@//db-host:1521/LEDGER")
    assert "a connection string with a password" in found


def test_an_oracle_jdbc_url_without_a_password_is_stored() -> None:
    assert find_secrets("url=jdbc:oracle:thin:@//db-host:1521/LEDGER") == ()


@pytest.mark.parametrize(
    "text",
    ["Combination for the office safe: 21-07-45", "Kod do sejfu w piwnicy: 17-52-08", "key box code: 09-33-61"],
)
def test_a_safes_dial_combination_after_its_label_is_refused(text: str) -> None:
    assert "a PIN or access code" in find_secrets(text)


@pytest.mark.parametrize("text", ["Office safe delivered: 21-07-45", "Meeting about the code: 12-05-24"])
def test_dash_joined_numbers_without_a_safes_code_label_are_stored(text: str) -> None:
    assert find_secrets(text) == ()


@pytest.mark.parametrize(
    "text", ["Lloyds memorable information: Ravenscar77", "memorable_info=Thornfield42", "Memorable word: dovecote"]
)
def test_a_banks_memorable_information_is_refused(text: str) -> None:
    assert "a password" in find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "BitLocker key for the laptop: 203753-490105-176286-514734-088583-301367-622908-451638",
        "203753-490105-176286-514734-088583-301367-622908-451638",
    ],
)
def test_a_bitlocker_recovery_key_is_refused_with_or_without_a_label(text: str) -> None:
    assert "a BitLocker recovery key" in find_secrets(text)


def test_seven_groups_of_six_digits_are_stored() -> None:
    assert find_secrets("batch 203753-490105-176286-514734-088583-301367-622908") == ()


@pytest.mark.parametrize("metadata", [{"avainboksin koodi": "6172"}, {"key box code": "6172"}, {"sejf kod": "6172"}])
def test_a_code_under_a_metadata_key_naming_a_box_and_a_code_is_refused(metadata: dict[str, str]) -> None:
    with Memory.open(":memory:", embedder="hash") as memory, pytest.raises(SecretRefusedError):
        memory.remember(Scope("t", "u"), "Cabin by the lake, west side.", metadata=metadata)


def test_a_number_under_a_metadata_key_naming_a_box_without_a_code_is_stored() -> None:
    with Memory.open(":memory:", embedder="hash") as memory:
        memory.remember(Scope("t", "u"), "Cabin by the lake, west side.", metadata={"key box count": "6172"})


@pytest.mark.parametrize(
    "text",
    [
        "db_password_ref: vault:kv/data/billing#password",
        "password_from: ssm:/prod/api/db_pass",
        "smtp_password: vault:secret/mail#smtp_password",
    ],
)
def test_a_secret_stores_bare_path_after_a_passwords_name_is_stored(text: str) -> None:
    assert find_secrets(text) == ()
