"""A password handed over after "here it is", a router's key labelled in Catalan, Japanese, Chinese or Korean,
``htpasswd``'s batch password, Bitrix24's webhook and Midtrans' server key are refused; a password manager named
where the password is kept, and an environment file's empty entry before the next one, are stored."""

from __future__ import annotations

import pytest

from tiermem.trust.secrets import find_secrets


@pytest.mark.parametrize(
    "text",
    [
        "The password for the lab printer is odd, but here it is: Wq3!rTz8Lp",
        "Мій пароль від бібліотеки задовгий, але ось він: Kx7#pLm2qR",
        "Пароль от дачного роутера, вот он: Vb5$nHq9Ws",
        "Le mot de passe du NAS, le voici : Zt6%kWm3Qa",
    ],
)
def test_a_password_handed_over_after_here_it_is_is_refused(text: str) -> None:
    assert "a password" in find_secrets(text)


@pytest.mark.parametrize(
    "text",
    ["The password is in the safe, here it is: see the safe", "Here it is: Wq3!rTz8Lp, the new printer's model"],
)
def test_here_it_is_without_a_password_value_or_label_is_stored(text: str) -> None:
    assert "a password" not in find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "Clau del wifi de la masia: Pi#77Lluna",
        "Clau de la xarxa: Pi77Lluna",
        "Wifi de la botiga. Clau: Pi#77Lluna",
        "暗号化キー: Tq8&mWz3Lp",
        "ネットワークキーは Tq8mWz3Lp です",
        "WPA密钥\uff1aTq8mWz3Lp",
        "보안 키: Tq8mWz3Lp",
    ],
)
def test_a_routers_key_labelled_in_catalan_or_an_asian_language_is_refused(text: str) -> None:
    assert "a password" in find_secrets(text)


@pytest.mark.parametrize("text", ["La clau del cotxe és al calaix", "暗号化キー: AES-256", "公钥: Tq8mWz3Lp"])
def test_a_key_of_a_car_or_an_algorithm_or_a_public_key_is_stored(text: str) -> None:
    assert "a password" not in find_secrets(text)


@pytest.mark.parametrize(
    "text",
    ["htpasswd -b -c /srv/web/.users alice 9&pQwErT2x", "sudo htpasswd -cb /srv/web/.users bob Kw7&zQ2m"],
)
def test_an_htpasswd_batch_password_with_an_ampersand_is_refused(text: str) -> None:
    assert "a password" in find_secrets(text)


def test_an_htpasswd_command_followed_by_another_is_read_to_its_end() -> None:
    assert find_secrets("htpasswd -b /srv/web/.users alice $PW && echo ok") == ()


@pytest.mark.parametrize(
    "text",
    [
        "hook: https://acme.bitrix24.de/rest/5/x7k2m9p4q1w8e3r6/tasks.task.add",
        "https://crm.acme.example/rest/12/x7k2m9p4q1w8e3r6/user.get.json",
    ],
)
def test_a_bitrix24_inbound_webhook_is_refused(text: str) -> None:
    assert "a webhook URL" in find_secrets(text)


def test_a_rest_api_path_with_a_version_is_stored() -> None:
    assert find_secrets("see https://tracker.acme.example/rest/api/2/issue/ABC-12 for the bug") == ()


@pytest.mark.parametrize(
    "text",
    [
        "PAYMENT_SERVER_KEY=Mid-server-aB3dE5fG7hJ9kL1mN3pQ5rS7",
        "sandbox: SB-Mid-server-aB3dE5fG7hJ9kL1mN3pQ5rS7",
        "old key VT-server-aB3dE5fG7hJ9kL1mN3pQ5rS7",
    ],
)
def test_a_midtrans_server_key_is_refused(text: str) -> None:
    assert "a service API token" in find_secrets(text)


def test_a_midtrans_client_key_is_stored() -> None:
    assert find_secrets("checkout widget client key Mid-client-aB3dE5fG7hJ9kL1m") == ()


@pytest.mark.parametrize(
    "text",
    [
        "Das Passwort liegt in 1Password unter 'Router', nicht hier.",
        "Lösenordet finns i 1Password under Banken",
        "Wachtwoord staat in 1Password onder 'Thuis'",
    ],
)
def test_a_password_kept_in_a_password_manager_is_stored(text: str) -> None:
    assert find_secrets(text) == ()


@pytest.mark.parametrize(
    "text",
    [
        "# sample env\nPAYMENT_SECRET_KEY=\nMAIL_API_KEY=put-your-mail-key-here",
        "# sample env PAYMENT_SECRET_KEY= MAIL_API_KEY=put-your-mail-key-here",  # its lines joined, as stored
    ],
)
def test_an_empty_env_entry_before_the_next_one_is_stored(text: str) -> None:
    assert find_secrets(text) == ()


@pytest.mark.parametrize("text", ["API_KEY= SECRET_KEY=Ab12Cd34Ef56Gh78", "API_KEY=\nSECRET_KEY=Ab12Cd34Ef56Gh78"])
def test_a_key_after_an_empty_env_entry_is_refused(text: str) -> None:
    assert "an API key or token" in find_secrets(text)


@pytest.mark.parametrize(
    "text", ["codice della cassetta di sicurezza in banca: 640218", "codice cassetta di sicurezza 640218"]
)
def test_an_italian_safe_deposit_box_code_is_refused(text: str) -> None:
    assert "a PIN or access code" in find_secrets(text)
