"""A PIN named in a sentence of another language with words before its number, a password's label followed by a
command's option or a store's path, and a test's value that says it is none."""

from __future__ import annotations

import pytest

from tiermem.trust.secrets import find_secrets


@pytest.mark.parametrize(
    "text",
    [
        "PIN wangu wa benki ni 5183, nimeandika hapa",
        "Banko kortelės PIN kodas 6492 — tėčio",
        "ПИН за картата на дядо: 2718. Само за банкомат.",
        "Пин-коды картасының 5067, атамның",
        "საბანკო PIN კოდი — 3156",
        "Bankan\u0131n PIN kodu 9274-dür",  # the dotless i, escaped
        "MPIN ko sa wallet: 618205",
        "Wallet MPIN 3904 हो",
        "ब्यांक कार्डको पिन 4815",
        "ካርድ ፒን 281946 ነው",
        "UPI பின் 6152",
    ],
)
def test_a_pin_with_words_before_its_number_is_refused(text: str) -> None:
    assert "a PIN or access code" in find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "PIN changed on 2023-11-04 at the branch",
        "PIN reset in 2021, nothing since",
        "the PIN pad was replaced last week",
        "Ofisi ya Pune, PIN code 411014",
        "पिन कोड ४११०२७ लिहा, नाहीतर पत्र परत येईल",
        "நாங்கள் ஒரு மணி நேரம் பின் வந்தோம், 2 பேர்",
        "PIN attempts left: 3",
        "the bank sets a PIN of its own, we were told 000000",
        "the PIN reset fee is 1800 a time",
        "PIN check failed, see the log near 5521",
        "PIN code for the Mysuru branch: 570012",
        "пин-код не пришёл, перезвоните 8800",
        "PIN unlock landed in release 3310 of the app",
    ],
)
def test_a_pin_word_without_a_pin_is_not_refused(text: str) -> None:
    assert "a PIN or access code" not in find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "Lozinka se čita iz trezora:\nvault kv get -field=value kv/app --name app-lozinka --output json",
        "Parole tiek lasīta no glabātuves: kv/prod/app#parole",
        '# ainult testideks\nDB_PASSWORD = "fake-password-for-tests"',
    ],
)
def test_a_password_label_before_an_option_a_store_path_or_a_test_value_is_not_refused(text: str) -> None:
    assert find_secrets(text) == ()


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("லேப்டாப் பாஸ்வேர்டு Kurinji@508Vaan", "a password"),
        ("जिमचा पासवर्ड नाही, जिमच्या लॉकरचा कोड 3#2851", "a PIN or access code"),
        ("رمز دوم کارت بانک 730164 است", "a PIN or access code"),
        ("የኢሜይል ይለፍ ቃል፦ Tsion4419#AA", "a password"),
        ("Kod pintu stor belakang kedai: 8146#", "a PIN or access code"),
        ("Pood varukoodid: 6152 0843, 2291 7730, 4408 1196, 8853 2067", "a recovery phrase, code or key file line"),
        ("Տան դռան կոդը 6284 է", "a PIN or access code"),
        ("Hliðskóði við sveitabæinn: 7340#", "a PIN or access code"),
    ],
)
def test_a_door_code_card_password_or_recovery_codes_named_in_the_language_are_refused(text: str, kind: str) -> None:
    assert kind in find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "Kod pintu rumah itu ditukar pada: 2019",
        "Kod pintu belakang sudah rosak sejak minggu lepas",
        "Шкафчето в залата: 2024 г.",  # noqa: RUF001 (Bulgarian is written so)
    ],
)
def test_a_door_code_word_before_a_year_or_no_number_is_not_refused(text: str) -> None:
    assert find_secrets(text) == ()


def test_a_pin_settings_number_with_a_unit_after_it_is_stored() -> None:
    assert find_secrets("PIN screen timeout: 4500 ms on the kiosk") == ()
    assert find_secrets("PIN screen: 4517") != ()
