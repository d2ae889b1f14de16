"""Passwords said in more languages and build files, codes given in groups, keys named for what they are for, and
values that only look like credentials (a policy, a file's path, an id, a public key, a resource's name)."""

from __future__ import annotations

import pytest

from tiermem.trust.secrets import find_secrets

# A session token as a cloud issues it: base64 with a run of "/" inside.
_SESSION = "FQoGZXIvYXdzEPz//////////wEaDK7nQ2vLp9TzXwR4sCKsAbN3mVqYt8HjWf1uE6oRxG0iPz5LkD2cS7aJ"


@pytest.mark.parametrize(
    "text",
    [
        "A senha da impressora do escritório mudou, agora é Ameixa77#Porto.",
        "wachtwoord NAS van de zaak: Gracht5!Molen",
        "Lösenordet till garagets dator är Älgen4471Skog, säg inget.",
        "Kasa makinesinin şifresi Deniz4482!Kum, kimseye söyleme.",
        "Adgangskoden til kontorets printer er Mågeskrig82!, husk det.",
        "Heslo k domácí síti je Kvetina#Praha31, neříkej to nikomu.",
        "the router's fine now and the password's Gecko#7714river",
        "New hire onboarded; initial password issued: Qm4#tR8vLz2w (change on first use).",
        "acceso al portal: usuario tesorera88 / clave Mimosa!4420Faro",
        "BASE_MOT_DE_PASSE=Vx91!kLmQpRz",
        "mot_de_passe: Ardoise552&Pluie",
        "passphrase for ~/.ssh/deploy_rsa on the build box: pLq7-Xw2Rz-9vNm",
    ],
)
def test_a_password_said_in_another_language_or_after_more_words_is_refused(text: str) -> None:
    assert "a password" in find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "<repository>\n  <username>deployer</username>\n  <password>Hv72kPw0Qz19Lm</password>\n</repository>",
        "signingConfigs {\n  upload {\n    storePassword 'Tq8vNw2LmZ4r'\n  }\n}",
    ],
)
def test_a_password_in_an_xml_element_or_a_build_script_argument_is_refused(text: str) -> None:
    assert "a password" in find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "Die Geheimzahl für das Sparbuch ist 7392.",
        "Torcode Lager Nord: 5174, bitte nicht weitergeben.",
        "le code de la porte d'accès est 41A93, au fond de la cour.",
        "Il codice di sblocco del tablet di zia è 613827.",
        "alarm: disarm with 8316 before going in",
    ],
)
def test_a_code_named_abroad_or_by_what_it_does_is_refused(text: str) -> None:
    assert "a PIN or access code" in find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "WLAN-Schlüssel der Box im Keller: 3381 9920 4415 7762",
        "Backup codes for the mail account: 4417 2290, 8831 0057, 6613 4429, 1185 9902",
        "recovery_codes: a81f03c2 77bd19e4 c03a58f1 e9d2264b 5f17ab90",
        "TOTP secret for the build robot: QX4R M2TA 7KLP W3ZB HN5C",
        "frase semilla de la cartera: tigre nube lápiz río campo verde sol mesa luna faro piedra ola",
        "backup: absorb velvet harbor cactus ripple meadow tunnel giraffe pencil orbit lumber shiver",
    ],
)
def test_codes_and_seed_words_given_in_groups_are_refused(text: str) -> None:
    assert find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        f"AWS_SESSION_TOKEN={_SESSION}",
        "Opsgenie integration key (read only) for the pager bot: h+4_Q9W2LmsTZxKd7R8V",
        "app.secret_key = b'7f3e91c0aa42d8b6e5f1c09d2b7a4e8fQx3Lm9Zk'",
        "API-Schlüssel für das Lagerportal: Hq7ZtR2mWx9LpV4nK8sB3dF6gJ1cY5eA",
    ],
)
def test_a_key_named_for_what_it_is_for_or_in_a_byte_literal_is_refused(text: str) -> None:
    assert find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "password_min_length: 12\npassword_require_digit: true\npassword_max_age_days: 90",
        "password_min_length: 12 password_require_digit: true password_max_age_days: 90",
        "secrets:\n  app_password:\n    file: ./secrets/app_password.txt",
        "secrets: app_password: file: ./secrets/app_password.txt",
        "ARM_TENANT_ID=3f2a9c1e-7b4d-4e8a-9c0f-1d2e3f4a5b6c\nARM_SUBSCRIPTION_ID=9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
        "NEXT_PUBLIC_STRIPE_KEY=pk_test_51Hx8QwErTy2UiOpAsDfGhJkLzXcVbNm1234QwErTyUiOpAsDfGhJkLzXcVbNm",
        "map.token = 'pk.eyJ1IjoiZXhhbXBsZSIsImEiOiJjbGZ4OHEycXcwMDAxM3BvNnZ0YjVxZ3d4In0.Zr8Qm2LpXv7Tk9NwBy4Hc1';",
        "def test_login_fails_for_a_bad_password(client):\n    r = post('/auth', json={'password': 'wrong-password'})",
        "secret_arn: arn:aws:secretsmanager:eu-west-1:123456789012:secret:staging/app/api-Xy7Zq1",
        "Lösenordet är utgånget, jag får be IT om ett nytt.",
        "Adgangskoden er blokeret efter tre forsøg.",
        "Dans config.yml, mettez mot_de_passe: TON_MOT_DE_PASSE avant de lancer.",
        "the password's gone from the sticky note",
    ],
)
def test_a_policy_a_path_an_id_a_public_key_or_a_resource_name_is_stored(text: str) -> None:
    assert find_secrets(text) == ()
