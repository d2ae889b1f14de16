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
