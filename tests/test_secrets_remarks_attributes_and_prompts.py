"""A foreign password label with a device and a remark, a password in an XML element or a key and value attribute
pair, a Discord bot token of any generation, a one-time seed named in another language and a door code said with
"is" are refused; a placeholder in another language, a prompt and a public key said to be public are stored."""

from __future__ import annotations

import pytest

from tiermem.trust.secrets import find_secrets


def test_a_foreign_password_label_with_a_device_and_a_remark_is_refused() -> None:
    assert find_secrets("Wachtwoord router (zolder, oud): Tk5#wq82Lmz")
    assert find_secrets("Passwort Drucker (2. Stock): Hv7!pa39Qrt")


def test_a_password_element_starting_with_a_caret_is_refused() -> None:
    assert find_secrets("<server>\n  <password>^Wm4kLq8#zTr</password>\n</server>")


def test_a_pattern_starting_with_a_caret_is_still_a_property() -> None:
    assert not find_secrets("password_regex: ^(?=.*[A-Z])(?=.*\\d).{10,}$")


def test_a_password_in_a_key_and_value_attribute_pair_is_refused() -> None:
    assert find_secrets('<add key="SmtpPassword" value="Rk3$mw9Lq2" />')
    assert find_secrets("<add key='ServiceApiToken' value='q8Zr2LmXw7Tk4VbN9pYc3Hs6' />")


def test_a_key_and_value_attribute_pair_naming_no_secret_is_stored() -> None:
    assert not find_secrets('<add key="Username" value="builder" />')
    assert not find_secrets('<add key="PasswordMinLength" value="12" />')


def test_a_discord_bot_token_of_a_newer_generation_is_refused() -> None:
    token = "Xq7Lm2Pz9Rk4Tw8Vb3Nc6Hd1J." + "aB3-xZ" + "." + "Tk9mQ2wL7pR4zX8vN3cB6hJ1dF5gY0sK"
    assert find_secrets(f"bot.run('{token}')")


def test_three_dotted_words_of_one_case_are_no_discord_token() -> None:
    assert not find_secrets("see module.section.subsection_of_the_manual_pages_here for more")


@pytest.mark.parametrize(
    "text",
    [
        "Semilla TOTP del banco: MFRG GZDF MZTW Q2LK NNXW C3DP",
        "Clave de autenticación de la tienda: MFRG GZDF MZTW Q2LK NNXW C3DP",
        "TOTP-Schlüssel (Laptop): MFRG GZDF MZTW Q2LK NNXW C3DP",
        "2FA secret for the forum: MFRG GZDF MZTW Q2LK NNXW C3DP",
    ],
)
def test_a_one_time_seed_named_in_any_word_order_is_refused(text: str) -> None:
    assert find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "Dörrkoden till förrådet på Ringvägen 9 är 4826",
        "Der Türcode vom Hinterhaus in der Lindenstraße ist 5192",
        "De deurcode van het atelier is 3847",
        "Le digicode de l'immeuble est 7294",
    ],
)
def test_a_door_code_then_words_then_is_then_digits_is_refused(text: str) -> None:
    assert find_secrets(text)


def test_a_door_code_word_without_a_number_after_is_is_stored() -> None:
    assert not find_secrets("Dörrkoden till förrådet är trasig igen")


@pytest.mark.parametrize("text", ["wachtwoord: VUL_HIER_IN", "lösenord: FYLL_I_HÄR", "wachtwoord: hier-invullen"])
def test_a_placeholder_in_another_language_is_stored(text: str) -> None:
    assert not find_secrets(text)


def test_a_prompt_string_and_the_variable_it_fills_are_stored() -> None:
    text = 'read -r -s -p "Backup password: " BACKUP_PW\nrestic backup ~/docs --password-command "echo $BACKUP_PW"'
    assert not find_secrets(text)
    assert not find_secrets(" ".join(text.split()))


def test_a_quoted_password_key_is_no_prompt() -> None:
    assert find_secrets('settings "password": "Rk3$mw9Lq2"')


def test_a_public_key_with_a_remark_saying_so_is_stored() -> None:
    key = "BPx3kQ9mLw2Tz8Vr4Nc7Hd1Jf5Gy0Sa6Ub3Xe9Wq2Lm7Rk4Tz8Vp1Nc5Hd3Jf7Gy2Sa8Ub4Xe6Wq9Lm1Rk3Tz5Vp0Nc"
    assert not find_secrets(f"Web push public key (served to every browser, public by design): {key}")
    assert find_secrets(f"Web push key (the private half, keep it off the client): {key}")
