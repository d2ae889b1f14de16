"""Passwords, Wi-Fi keys and door codes told in a sentence of another language are refused as the English ones are;
a sentence about a password that gives none is stored."""

from __future__ import annotations

import pytest

from tiermem import Memory, Scope
from tiermem.errors import SecretRefusedError
from tiermem.trust.secrets import find_secrets

NOOR = Scope("acme", "noor")


@pytest.mark.parametrize(
    "text",
    [
        "la contraseña es Gato!7Azul",
        "La contraseña del router es lunaverde",
        "contraseña: mandarina82",
        "Mi contraseña nueva es Olivo2023, no la compartas",
        "het wachtwoord is Tulp#4821",
        "Het wachtwoord van de kluis is zeemeeuw.",
        "a senha é Caju@2024",
        "A senha do wifi é bananeira",
        "hasło to Kot!2025zima",
        "Hasło do poczty to sikorka",
        "hasło: jablko42",
        "das Passwort lautet Wald#Berg7",
        "Das Passwort lautet Sonnenblume",
        "Das Kennwort für den Drucker lautet regenbogen.",
        "Kennwort ist Ahorn-2291",
        "le mot de passe est Fromage!91",
        "Le mot de passe du wifi est papillon",
        "la password è Pizza#Napoli8",
        "La password del portale è girasole",
    ],
)
def test_a_password_told_in_a_sentence_of_another_language_is_refused(text: str) -> None:
    assert "a password" in find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "la contraseña es demasiado corta",
        "La contraseña es obligatoria.",
        "das Passwort lautet wie immer",
        "Das Passwort ist abgelaufen.",
        "Das Kennwort lautet anders als gestern",
        "het wachtwoord is verlopen",
        "a senha é obrigatória",
        "hasło to podstawa bezpieczeństwa",
        "Hasło jest nieprawidłowe.",
        "le mot de passe est trop court",
        "Le mot de passe est incorrect.",
        "la password è scaduta",
        "La password è sbagliata",
        "the password is stored in the vault",
        "La contraseña es personal.",
        "Kennwort: Standard",
        "contraseña: ninguna",
        "Kennwort (Verwaltung): KeePassXC",
    ],
)
def test_a_sentence_about_a_password_in_another_language_is_stored(text: str) -> None:
    assert find_secrets(text) == ()


@pytest.mark.parametrize(
    "text",
    [
        "the wifi key is Meadow-7731",
        "The Wi-Fi key is lanternfish.",
        "WiFi key: Kiwi2024home",
        "WLAN-Schlüssel: Birke4455Tal",
        "Der WLAN-Schlüssel lautet Hummel#21",
        "wifi password otter-river-92",
        "WPA2 key = Heron!5510",
        'network={ ssid="cabin" psk="Juniper#2208" }',
        "la clave del wifi es Palmera-3390",
        "wifi_key: sunrise-glade-88",
    ],
)
def test_a_wifi_key_in_a_sentence_or_a_field_is_refused(text: str) -> None:
    assert "a password" in find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "the wifi key is on the router sticker",
        "the wifi key is printed under the modem",
        "WLAN-Schlüssel: siehe Rückseite",
        "wifi_key: see the card in the drawer",
        "the wifi password is required to join",
    ],
)
def test_a_sentence_about_a_wifi_key_is_stored(text: str) -> None:
    assert find_secrets(text) == ()


def test_a_wifi_key_in_metadata_is_refused_by_its_key(mem: Memory) -> None:
    with pytest.raises(SecretRefusedError) as refused:
        mem.remember(NOOR, "the cabin network", metadata={"wifi_key": "lanternfish"})
    assert refused.value.field == "metadata.wifi_key" and mem.store.count(NOOR) == 0


@pytest.mark.parametrize(
    "text",
    [
        "código de la puerta: 4821",
        "El código de acceso es 6170",
        "Türcode 7302",
        "Der Türcode lautet 1946",
        "PIN-Code lautet 6638",
        "Der PIN lautet 2907",
        "code de la porte : 5519",
        "le digicode est 3085",
        "codice del cancello: 3390",
        "deurcode 8845",
        "kod do drzwi: 6071",
        "código do portão é 7716",
    ],
)
def test_a_pin_or_door_code_in_another_language_is_refused(text: str) -> None:
    assert "a PIN or access code" in find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "PIN 3 of the connector is ground",
        "the library is pinned to 4.2.1",
        "Rule 3 of the building's code of conduct covers noise after 22:00",
        "código postal: 28013",
        "Der Code 2024 wurde im Handbuch erklärt",
        "le code de la route 2019",
    ],
)
def test_a_number_near_pin_or_code_that_opens_nothing_is_stored(text: str) -> None:
    assert find_secrets(text) == ()
