"""(internal) Credentials in text: what kind each one is, never the value.

Memory is searchable, exported and pasted into prompts, so a credential written to it leaks sooner or later;
the write path refuses text that holds one. Two families of detector name a kind each ("a GitHub token", "a
password"): formats a provider gives its tokens, known by prefix, alphabet and length (``secret_formats``, on
detect-secrets' plugins), and values known by their label or their randomness (``secret_values``). Each field
of a note is read alone, so a bare token in a tag or a metadata value is found as well as one in a sentence;
``find_secrets_in_fields`` reads a note's fields and lets a metadata key label its value (``{"pin": "4821"}``).

Most text written to memory is prose with no token-shaped run and no credential word: a detector runs only on
text holding one of its words or a token-shaped run (``_HINTS``), so such prose costs a few substring tests.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from tiermem.trust.secret_formats import FORMAT_DETECTORS
from tiermem.trust.secret_values import VALUE_DETECTORS

__all__ = ["SECRET_KINDS", "find_secrets", "find_secrets_in_fields"]

_DETECTORS = (*FORMAT_DETECTORS, *VALUE_DETECTORS)
SECRET_KINDS: tuple[str, ...] = tuple(dict.fromkeys(kind for kind, _ in _DETECTORS))
# Named only when nothing more specific was found: "token ghp_..." is a GitHub token, not also "a token".
_GENERIC = frozenset({"an API key or token", "a high-entropy secret"})

# A detector runs only on text that holds one of its words (lower case); the others need a run of 16 token
# characters, which every token format has and most prose does not. Python's regular expressions try every
# alternative at every position, so these substring tests keep a write of ordinary prose cheap.
_HINTS: dict[str, tuple[str, ...]] = {
    "a private key": ("private key", "putty-user-key"),
    "a connection string with a password": ("://",),
    "a password": ("pass", "pw", "contrase", "senha", "kennwort", "wachtwoord", "mysql", "docker"),
    "a PIN or access code": ("pin", "code", "combination"),
    "a card security code": ("cvv", "cvc", "cid", "security code"),
    "a bearer token": ("bearer",),
    "a basic-auth credential": ("basic", "auth", "-u", "--user"),
    "an API key or token": ("key", "token", "secret", "seed"),
}
_TOKEN_RUN = re.compile(r"[A-Za-z0-9+/=_\-.~:%]{16,}")


def find_secrets(text: str, *, label: str = "") -> tuple[str, ...]:
    """The kinds of credential ``text`` holds, in a fixed order, each once (empty when there are none).

    ``label`` is the name the text is stored under (a metadata key such as ``password``): it is read as if
    written before the value, so ``"8264"`` under ``pin`` is a PIN.
    """
    if not isinstance(text, str):
        return ()
    if label:
        text = f"{label}: {text}"
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


def find_secrets_in_fields(
    content: str = "",
    *,
    metadata: Mapping[str, object] | None = None,
    tags: Iterable[str] = (),
    source: str = "",
) -> dict[str, tuple[str, ...]]:
    """The credentials in each field of a note, by field (``content``, ``metadata.<key>``, ``tags[<i>]``,
    ``source``); a field with none is left out, so an empty result means the note holds none.

    A metadata value is read under its key (``{"password": "Hunter7&rain"}`` is a password); numbers are read as
    their text (a PIN stored as an int), booleans and ``None`` are not read.
    """
    found: dict[str, tuple[str, ...]] = {}
    if kinds := find_secrets(content):
        found["content"] = kinds
    for key, value in (metadata or {}).items():
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            continue
        if kinds := find_secrets(str(value), label=str(key)):
            found[f"metadata.{key}"] = kinds
    for i, tag in enumerate(tags):
        if kinds := find_secrets(tag):
            found[f"tags[{i}]"] = kinds
    if kinds := find_secrets(source):
        found["source"] = kinds
    return found
