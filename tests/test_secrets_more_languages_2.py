"""Passwords, PINs and door codes named in thirty more languages (South and Southeast Asia, the Caucasus, Iran, East
Africa, the South Slavic and Baltic languages, Catalan, Icelandic), the English "password" said inside them,
credentials known by their shape or kept in markup, and store references and sealed values that are none."""

from __future__ import annotations

import pytest

from tiermem.trust.secrets import find_secrets


@pytest.mark.parametrize(
    "text",
    [
        "লাইব্রেরি অ্যাকাউন্টের পাসওয়ার্ড Tara#Nodi5521",
        "లైబ్రరీ ఖాతా పాస్\u200cవర్డ్: Vana!Puvvu318",
        "நூலக கணக்கின் கடவுச்சொல் Malai@Kadal742",
        "लायब्ररी खात्याचा संकेतशब्द Pune#Vada6621 आहे",
        "لائبریری اکاؤنٹ کا پاس ورڈ Chinar!Jheel407 ہے",
        "رمز عبور حساب کتابخانه: Sarv#Bagh2290",
        "Nenosiri la maktaba ni Mvua!Jua5530",
        "የቤተ መጻሕፍት የይለፍ ቃል: Abeba#Tsehay81",
        "Kata laluan perpustakaan saya: Hujan!Petang42",
        "Паролата за библиотеката \u0435 Bor#Reka6612",
        "Лозинка за библиотеку \u0458\u0435 Dunav!Sava772",
        "Lozinka za knjižnicu: Jadran#Otok519",
        "Geslo za knjižnico je Triglav!Soca48",
        "Bibliotekos slaptažodis: Nemunas#Giria71",
        "Bibliotēkas parole ir Daugava!Meza392",
        "Raamatukogu parool on Kuusk#Rannas55",
        "ბიბლიოთეკის პაროლი: Mtkvari!Gora84",
        "Գրադարանի գաղտնաբառը Sevan#Lich204 է",
        "Kutubxona paroli: Chinor!Bog8821",
        "Kompüterin şifrəsi Xəzər#Dəniz77-dir",
        "La contrasenya de la biblioteca és Olivera!Mar64",
        "Lykilorðið að bókasafninu er Fjall#Vatn902",
        "Номын сангийн нууц \u04af\u0433: Tuul!Gol5512",
        "පුස්තකාල මුරපදය Kandy#Gala4410",
        "គណនីបណ្ណាល័យ ពាក្យសម្ងាត់ Mekong!Tonle48",
        "စာကြည့်တိုက် စကားဝှက် Irrawaddy#92",
    ],
)
def test_a_password_after_its_label_in_thirty_more_languages_is_refused(text: str) -> None:
    assert "a password" in find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "Password ya kompyuta ya maktaba: Mbuyu!Kisiwa61",
        "Ang password ng laptop sa opisina ay Bundok#Ilog57",
        "Password untuk komputer pejabat ialah Kenari!Bukit93",
        "Laptop password \u1000 Ayeyar#River45",
    ],
)
def test_the_english_password_said_in_another_languages_sentence_is_refused(text: str) -> None:
    assert "a password" in find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "PIN ya kadi ya benki ni 4719",
        "PIN ng debit card ni lola: 8352",
        "Pangakaardi PIN2 on 90417",
        "ব্যাংক কার্ড পিন: 3846",
        "Koda za garažo je 57193",
        "El codi de l'alarma del magatzem és 482915",
        "Kod za ulaz zgrade: 60472",
        "Garden lockbox code for the cottage: 736194",
    ],
)
def test_a_pin_or_door_code_after_its_label_is_refused(text: str) -> None:
    assert "a PIN or access code" in find_secrets(text)


def test_a_block_of_recovery_codes_after_any_label_is_refused() -> None:
    text = "Cloud drive resguardo\u055d k3m9p-z7w2q b8n4t-r6y1x h2j5v-c9d3s p4f7g-m1k8w"
    assert "a recovery phrase, code or key file line" in find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "Router access for the guest room: keeper / Maple#Stone82",
        "server {\n  # kiosk login: display / Harbor!Light39\n}",
    ],
)
def test_a_login_and_its_strong_password_after_an_access_word_or_in_a_comment_is_refused(text: str) -> None:
    assert "a password" in find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        '{"auth": {"basic": [{"key": "username", "value": "ops"}, {"key": "password", "value": "Cedar!Pine74"}]}}',
        "<key>ProxyPassword</key>\n<string>Willow#Brook58</string>",
        '<string name="ftp_password">Quartz!Ridge63</string>',
        "INSERT INTO mailers (name, login, password) VALUES ('relay', 'bot', 'Falcon#Moor27');",
    ],
)
def test_a_password_kept_under_its_name_in_markup_is_refused(text: str) -> None:
    assert "a password" in find_secrets(text)


@pytest.mark.parametrize(
    ("key", "value"),
    [("nenosiri", "Mwezi#Pwani83"), ("парола", "Rila!Pirin47"), ("slaptazodis", "Vilnius#Upe12")],
)
def test_a_password_under_a_metadata_key_in_another_language_is_refused(key: str, value: str) -> None:
    assert "a password" in find_secrets(f"{key}: {value}")


@pytest.mark.parametrize(
    "text",
    [
        "app.mail.password=${vault:secret/data/mailer#password}",
        "service,store_path\nsearch,1password:Infra/Search\nqueue,vault:secret/queue",
        '<string name="hint_password">Enter your password</string>',
        "INSERT INTO users (name, password) VALUES ('ann', crypt($1, gen_salt('bf')));",
        "Build access notes: src / main",
        "Login step\n  uses: octo/login-step@v2",
        "Tickets: abcd-efgh ijkl-mnop qrst-uvwx yzab-cdef",
        "Lozinka za wifi je na hladnjaku.",
        "Reset the PIN on 2025-03-14 when the new card came.",
    ],
)
def test_a_store_reference_a_form_label_or_a_plain_list_is_no_credential(text: str) -> None:
    assert find_secrets(text) == ()


def test_a_sealed_secrets_encrypted_data_is_no_credential() -> None:
    sealed = "Ag" + "Qx7" * 40 + "=="
    text = (
        "apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nmetadata:\n  name: relay\nspec:\n"
        f"  encryptedData:\n    password: {sealed}\n    token: {sealed}\n"
    )
    assert find_secrets(text) == ()


def test_italian_keywords_after_parole_chiave_are_stored() -> None:
    # "parol" in Uzbek and Azerbaijani, "parole" in Latvian: none of them is the Italian word for words.
    assert find_secrets("Parole chiave: apprendimento-automatico, sanità-2030, reti") == ()
