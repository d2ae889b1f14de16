"""Passwords, Wi-Fi keys and codes named in Greek, Hindi, Arabic, Hebrew, Indonesian, Vietnamese, Thai, Korean,
Russian, Ukrainian, Hungarian, Romanian, Czech, Polish, Danish and Norwegian; tokens known by their shape or label
(Azure DevOps, Mercado Pago, New Relic, an API key labelled in French); and what only looks like one of them."""

from __future__ import annotations

import pytest

from tiermem.trust.secrets import find_secrets


@pytest.mark.parametrize(
    "text",
    [
        "Σημείωση: κωδικός πρόσβασης του λογαριασμού μου είναι Limani!4417",
        "पुस्तकालय खाते का पासवर्ड है Kitab#Ghar305",
        "كلمة المرور لحساب المكتبة هي Qamar#Sahra812",
        "הסיסמה למחשב של המשרד היא Tamar#Yam2091",
        "Kata sandi email kantor: Melati!Pagi730",
        "Mật khẩu máy tính ở văn phòng là Hoa#Sen4471",
        "รหัสผ่านอีเมลคือ Ruam@Mit5521",
        "Пароль от рабочей почты — Sosna!Les8820",
        "Пароль до поштової скриньки: Kalyna#Lviv907",
        "A jelszó a könyvtári fiókhoz: Kert#Alma552",
        "Parola pentru laptopul de serviciu este Tei!Cluj6610",
        "Heslo k účtu je Lipa#Brno4412",
        "Adgangskoden til kontoret er Bøgetræ#5521",
        "Passordet til e-posten er Granskog!730",
    ],
)
def test_a_password_after_a_label_in_another_script_or_language_is_refused(text: str) -> None:
    assert "a password" in find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "Forum: dragon_fan12 / hasło Skrzat#Las551",
        "사내 메일 비밀번호 Bada7!Sori33",
        "사무실 비번 mango4455tree 입니다",
    ],
)
def test_a_password_right_after_its_label_with_no_sign_between_is_refused(text: str) -> None:
    assert "a password" in find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "Wi-Fi στο σπίτι: δίκτυο Spiti_Net, κωδικός Elia!7741",
        "Internet i kolonihaven: netværk Havelyst, kode Rabarber!2290",
        "รหัสไวไฟบ้าน: Baan#Suan2024",
    ],
)
def test_a_word_naming_any_code_before_a_strong_password_is_refused(text: str) -> None:
    assert "a password" in find_secrets(text)


@pytest.mark.parametrize("text", ["Κωδικός προϊόντος: AB-1234", "Varens kode er 4411-22", "รหัสสินค้า: SKU-2291"])
def test_a_word_naming_any_code_before_a_product_code_is_stored(text: str) -> None:
    assert "a password" not in find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "كلمة المرور: Wadi#Nakhil77",
        "mat_khau: Tre!Xanh2024",
        "पासवर्ड: Neem#Ped204",
        "kata_sandi: Kopi!Susu88",
        "κωδικός: Elies#Kriti2025",
        "รหัสผ่าน: Khao#Niao771",
    ],
)
def test_a_metadata_key_naming_a_password_in_another_language_is_refused(text: str) -> None:
    assert "a password" in find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "PIN-koden til kortet mitt er 6083.",
        "Kód od brány do dvora je 4719#",
        "Codul de la interfon este 3862, etajul 2.",
        "nøkkelboks_kode: 5307",
    ],
)
def test_a_pin_or_door_code_in_a_nordic_or_central_european_language_is_refused(text: str) -> None:
    assert "a PIN or access code" in find_secrets(text)


def test_an_azure_devops_token_after_its_name_is_refused() -> None:
    token = "q7xk2m4pz5rw3nt6vb2ya7hc4ld5fg6js3ke2ou7ni4wm5tx6rz3"
    assert len(token) == 52
    assert find_secrets(f"PAT for the release pipeline: {token}")


def test_a_mercado_pago_access_token_is_refused() -> None:
    token = "APP_USR-7310552948130062-110934-3f9c0b2d8e7a41f6b5c2d9e0a7f3b1c4-902174553"
    assert find_secrets(f"token: {token}")
    assert find_secrets(token)


def test_a_new_relic_license_key_is_refused() -> None:
    assert find_secrets("license_key: 7d3c91a0be5f42e68c10da97f4b2e3a5c6d1NRAL")


def test_an_api_key_labelled_in_french_with_the_service_named_is_refused() -> None:
    assert find_secrets("Clé API Fournisseur pour le robot de tri : Kq8ZpL2mXv7RtY4wNc9BdF3sGh6JuE1a")


def test_an_indian_postal_pin_after_an_address_in_hindi_is_stored() -> None:
    assert "a PIN or access code" not in find_secrets("पता: सेक्टर 14, गुरुग्राम, PIN 122001")


def test_a_password_read_by_a_powershell_prompt_is_stored() -> None:
    text = '$secret = Read-Host -AsSecureString "Password for the backup share"'
    assert find_secrets(text) == ()


def test_a_key_read_from_a_build_config_constant_is_stored() -> None:
    assert find_secrets("val mapsKey = BuildConfig.PLACES_API_KEY") == ()
    assert find_secrets("api_key = settings.PLACES_API_KEY") == ()


def test_a_password_shaped_like_word_dot_word_in_capitals_is_still_refused() -> None:
    assert find_secrets("password = Lantern7.HARBOUR") != ()


@pytest.mark.parametrize(
    "text", ["Heslo k e-shopu musí mít aspoň deset znaků.", "hasło do e-Dziennika wygasło wczoraj"]
)
def test_a_word_with_a_dash_right_after_a_label_is_no_password(text: str) -> None:
    assert "a password" not in find_secrets(text)
