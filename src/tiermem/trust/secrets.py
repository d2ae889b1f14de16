"""(internal) Credentials in text: what kind each one is, never the value.

Memory is searchable, exported and pasted into prompts, so a credential written to it leaks sooner or later;
the write path refuses text that holds one. Two families of detector name a kind each ("a GitHub token", "a
password"): formats a provider gives its tokens, known by prefix, alphabet and length (``secret_formats``, on
detect-secrets' plugins), and values known by their label or their randomness (``secret_values``). The write
gate reads each field of a note alone, so a bare token in a tag or a metadata value is found as well as one in a
sentence.

Most text written to memory is prose with no token-shaped run and no credential word: a detector runs only on
text holding one of its words or a token-shaped run (``_HINTS``), so such prose costs a few substring tests.
"""

from __future__ import annotations

import re

from tiermem.trust.normalise import scan_form
from tiermem.trust.secret_formats import FORMAT_DETECTORS
from tiermem.trust.secret_values import VALUE_DETECTORS

__all__ = ["SECRET_KINDS", "find_secrets"]

_DETECTORS = (*FORMAT_DETECTORS, *VALUE_DETECTORS)
SECRET_KINDS: tuple[str, ...] = tuple(dict.fromkeys(kind for kind, _ in _DETECTORS))
# Named only when nothing more specific was found: "token ghp_..." is a GitHub token, not also "a token".
_GENERIC = frozenset({"an API key or token", "a provider's prefixed token", "a high-entropy secret"})

# A detector runs only on text that holds one of its words (lower case); the others need a run of 16 token
# characters, which every token format has and most prose does not. Python's regular expressions try every
# alternative at every position, so these substring tests keep a write of ordinary prose cheap.
_HINTS: dict[str, tuple[str, ...]] = {
    "a private key": ("private key", "putty-user-key"),
    "a connection string with a password": ("://",),
    "a password": (
        *("pass", "pw", "contrase", "senha", "kennwort", "wachtwoord", "mysql", "docker", "net use", "memorable"),
    ),
    "a recovery phrase, code or key file line": ("phrase", "words", "codes", "wifi:", "private key", ":"),
    "a PIN or access code": ("pin", "code", "combination"),
    "a card security code": ("cvv", "cvc", "cid", "security code"),
    "a bearer token": ("bearer",),
    "a basic-auth credential": ("basic", "auth", "-u", "--user"),
    "an API key or token": ("key", "token", "secret", "seed"),
}
_TOKEN_RUN = re.compile(r"[A-Za-z0-9+/=_\-.~:%]{16,}")


def find_secrets(text: str) -> tuple[str, ...]:
    """The kinds of credential ``text`` holds, in a fixed order, each once (empty when there are none).

    A value stored under a name is read with its name before it (``"pin: 8264"``): the write gate reads metadata
    so, and a bare value that is no known format is then found by its label. The text is read as written and in
    its scanning form (``trust.normalise``): a key in full-width letters, or with zero-width characters or soft
    hyphens between its letters, is still the key to whoever reads it.
    """
    if not isinstance(text, str):
        return ()
    kinds = _kinds(text)
    form = scan_form(text) if not text.isascii() or " " in text else text
    if form == text:
        return kinds
    return tuple(dict.fromkeys((*kinds, *_kinds(form))))


def _kinds(text: str) -> tuple[str, ...]:
    lower, run = text.lower(), bool(_TOKEN_RUN.search(text))
    ready = [
        (kind, find)
        for kind, find in _DETECTORS
        if (any(hint in lower for hint in _HINTS[kind]) if kind in _HINTS else run)
    ]
    kinds = [kind for kind, find in ready if kind not in _GENERIC and find(text)]
    if not kinds:
        kinds = [kind for kind, find in ready if kind in _GENERIC and find(text)]
    return tuple(dict.fromkeys(kinds))
