"""Credentials named with what they open between label and value, in password shorthand, or in a provider's newer
format are refused; notes that only look alike are stored."""

from __future__ import annotations

import pytest

from tiermem.trust.secrets import find_secrets


@pytest.mark.parametrize(
    "text",
    [
        "el PIN de mi cuenta corriente es 6093",
        "PIN der Kreditkarte lautet 7315",
        "le code PIN du coffre est 5862",
        "the PUK code for my spare phone: 30917264",
        "pincode van de spaarrekening: 8140",
        "銀行の暗証番号は 3927",
        "padlock combo is 1958",
        "código de la puerta del garaje: 7702",
    ],
)
def test_a_pin_named_with_what_it_opens_is_refused(text: str) -> None:
    assert "a PIN or access code" in find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "the pin for build 2024 was moved",
        "PIN of the map marker: Lisbon",
        "the pin of the lighthouse is 42 metres tall",
        "combo deal for 2 people",
    ],
)
def test_a_number_after_a_pin_named_with_no_code_is_stored(text: str) -> None:
    assert "a PIN or access code" not in find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "the staging password got changed to Heron7!lake",
        "camera login: user root, pass Qv7-lr83t",
        "mdp du NAS : Marmotte#58x",
        "lösenord till routern: Tallbacken91",
        "a senha do cofre da loja da esquina é pitanga2020",
        "wachtwoord Duinpad77!",
        "# password fallback: Wren!5-Cellar",
        "WLAN-Schlüssel: 5820 1934 6671 0298 4413",
    ],
)
def test_a_password_in_shorthand_or_after_what_it_opens_is_refused(text: str) -> None:
    assert "a password" in find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "the password policy changed to 12 characters",
        "password reset to the default",
        "boarding pass AB4821 for gate 12",
        "we bought a day pass yesterday",
        "season pass 2025-edition is sold out",
        "WLAN channel: 6 and 11",
    ],
)
def test_a_note_about_a_pass_or_a_policy_is_stored(text: str) -> None:
    assert "a password" not in find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "az login -u ops@example.org -p Tq8~vLr0pZx3",
        "dckr_pat_" + "Qm7_rT2kLpX9-vBn4WcZ8yHs1uA",
        "TOTP seed for the shared mailbox: " + "MFRGG2LQNBSW4ZLT" + "OJ3XI6DBMJRGK5DT",
        "secret_key_base: "
        + "614a87705055d916a88584b3874456e9e294de1ac27dd183a04e20f0b00faf79"
        + "c819a265ef1f68552bd78deac3a5737c5a547db45f10bffa45cb889743799de4",
        "access_token$sandbox$" + "k3j9q2m7x8p4w6zt" + "$" + "0a1b2c3d4e5f60718293a4b5c6d7e8f9",
    ],
)
def test_a_cli_login_a_prefixed_token_or_a_seed_after_its_label_is_refused(text: str) -> None:
    assert find_secrets(text)


def test_a_2fa_seed_label_with_a_plain_word_is_stored() -> None:
    assert not find_secrets("2FA seed: see the vault entry")
