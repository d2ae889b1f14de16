"""(internal) Credentials that a metadata entry holds only when read with its siblings and the note.

A write's metadata is read entry by entry (``key: value``), and some entries name what they hold only together: a
short number under ``code`` is a safe's code in a note that names the safe (``secret_pins.code_of_a_named_safe``),
and a value under a bare key or password word (``clave``, ``Schlüssel``, ``psk``) is a Wi-Fi key beside an entry
that names the network (``ssid``, ``red``, ``réseau``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from tiermem.trust.secret_languages import KEY_WORDS, NETWORK_WORDS
from tiermem.trust.secret_passwords import shaped
from tiermem.trust.secret_pins import code_of_a_named_safe
from tiermem.trust.secrets import find_secrets

__all__ = ["metadata_credentials"]

_SAFE_CODE = "a PIN or access code"
_WIFI_KEY = "a password"

# A key that is only a key's or a password's name, in the languages the language table reads.
_KEY_NAME = re.compile(
    r"(?i)(?:wifi|wi-fi|wlan|wpa[23]?)?[\s_\-]?(?:"
    + "|".join(KEY_WORDS)
    + r"|key|pass|passwd|password|passphrase|pw|pwd|psk|senha|contrase[ñn]a|passwort|kennwort|wachtwoord|mdp)"
)
# A sibling key that names the network the key opens.
_NETWORK_NAME = re.compile(
    r"(?i)e?ssid|(?:wifi|wi-fi|wlan)?[\s_\-]?(?:"
    + "|".join(w for w in NETWORK_WORDS if w != "box")  # a box alone names a parcel or a crate as often
    + r"|network)(?:[\s_\-]?(?:name|id))?"
)


def metadata_credentials(note: str, metadata: Iterable[tuple[object, object]]) -> list[tuple[str, str]]:
    """Each metadata key whose value is a credential only when read with the note and the other entries, with its
    kind; an entry already found on its own is left to that reading."""
    entries = list(metadata)
    keys = [key.strip(" _-") for key, _ in entries if isinstance(key, str)]
    network = any(_NETWORK_NAME.fullmatch(key) for key in keys)
    found: list[tuple[str, str]] = []
    for key, value in entries:
        if not isinstance(key, str) or find_secrets(f"{key}: {value}"):
            continue
        if code_of_a_named_safe(note, key, value):
            found.append((key, _SAFE_CODE))
        elif network and isinstance(value, str) and _KEY_NAME.fullmatch(key.strip(" _-")) and _keyed(value.strip()):
            found.append((key, _WIFI_KEY))
    return found


def _keyed(value: str) -> bool:
    """Whether a value with no label of its own is made like a key: a pointer in words ("see-fridge") is not."""
    return shaped(value) and re.search(r"\d", value) is not None
