"""A Wi-Fi key after its security mode in place of a colon, and a metadata key or password word beside an entry
naming the network, are refused; a mode's settings and entries naming no network are stored."""

from __future__ import annotations

from typing import Any

import pytest

from tiermem import Memory, Scope
from tiermem.errors import SecretRefusedError
from tiermem.trust.secret_metadata import metadata_credentials
from tiermem.trust.secrets import find_secrets

BOB = Scope("acme", "bob")


@pytest.mark.parametrize(
    "text",
    [
        "Internet da loja: rede Padaria5G, chave WPA2 Bolo#Mel8812",
        "wifi de la cabaña, clave WPA2-PSK: Pino!Lago2290",
        "réseau de l'atelier, clé WPA3 Vent#Ouest4471",
        "WLAN im Keller, Schlüssel WEP 7Hq2xK91pz",
        "guest wifi key WPA2 Fern-Moss6638",
    ],
)
def test_a_wifi_key_after_its_security_mode_is_found(text: str) -> None:
    assert find_secrets(text) == ("a password",)


@pytest.mark.parametrize(
    "text",
    [
        "the wifi key WPA2 uses AES-CCMP now",
        "wifi chave WPA2 settings-page",
        "clave WPA2 Bolo#Mel8812",  # no network named anywhere
        "the router moved from WEP to WPA2 in 2019",
    ],
)
def test_a_security_mode_followed_by_a_setting_or_naming_no_network_is_not_a_key(text: str) -> None:
    assert find_secrets(text) == ()


@pytest.mark.parametrize(
    "metadata",
    [
        {"ssid": "Cabin_North", "clave": "Trucha!Rio5521"},
        {"rede": "Padaria5G", "chave": "Bolo#Mel8812"},
        {"réseau": "Atelier-2", "clé": "Vent#Ouest4471"},
        {"Netzwerk": "Keller", "Schlüssel": "7Hq2xK91pz"},
        {"network_name": "Studio", "psk": "Loom-Weft3307"},
    ],
)
def test_a_key_word_entry_beside_an_entry_naming_the_network_is_refused(mem: Memory, metadata: dict[str, Any]) -> None:
    with pytest.raises(SecretRefusedError) as refused:
        mem.remember(BOB, "notes for the holiday flat", metadata=metadata)
    assert refused.value.field.startswith("metadata.")
    assert mem.store.count(BOB) == 0


@pytest.mark.parametrize(
    "metadata",
    [
        {"clave": "Trucha!Rio5521"},  # no sibling names a network
        {"box": "B-12", "key": "shelf-3a"},
        {"ssid": "Cabin_North", "key": "see-fridge"},  # a pointer in words, no key
        {"ssid": "Cabin_North", "band": "5GHz-2"},
    ],
)
def test_entries_naming_no_network_or_holding_no_key_are_stored(mem: Memory, metadata: dict[str, Any]) -> None:
    mem.remember(BOB, "notes for the holiday flat", metadata=metadata)
    assert mem.store.count(BOB) == 1


def test_metadata_read_together_names_each_kind_once() -> None:
    found = metadata_credentials(
        "the padlock on the shed", [("ssid", "Cabin_North"), ("clave", "Trucha!Rio5521"), ("code", "5093")]
    )
    assert found == [("clave", "a password"), ("code", "a PIN or access code")]
