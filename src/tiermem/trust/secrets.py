"""(internal) Credentials in text: what kind each one is, never the value.

Memory is searchable, exported and pasted into prompts, so a credential written to it leaks sooner or later;
the write path refuses text that holds one. Two families of detector name a kind each ("a GitHub token", "a
password"): formats a provider gives its tokens, known by prefix, alphabet and length (``secret_formats``, on
detect-secrets' plugins), and values known by their label or their randomness (``secret_values``, with the
passwords of ``secret_passwords`` and ``secret_code``). The write gate reads each field of a note alone, so a bare
token in a tag or a metadata value is found as well as one in a sentence.

Most text written to memory is prose with no token-shaped run and no credential word: a detector runs only on
text holding one of its words or a token-shaped run (``_HINTS``), so such prose costs a few substring tests.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from tiermem.errors import withhold_given
from tiermem.text_rules import hidden
from tiermem.trust.normalise import latin_lookalikes, scan_form
from tiermem.trust.secret_formats import FORMAT_DETECTORS
from tiermem.trust.secret_language_rows import CODE_HINTS, PASSWORD_HINTS
from tiermem.trust.secret_language_rows_asia import ASIA_CODE_HINTS, ASIA_PASSWORD_HINTS
from tiermem.trust.secret_language_rows_europe import EUROPE_CODE_HINTS, EUROPE_PASSWORD_HINTS
from tiermem.trust.secret_pins import PIN_HINTS
from tiermem.trust.secret_values import VALUE_DETECTORS

__all__ = ["SECRET_KINDS", "find_secrets"]

_DETECTORS = (*FORMAT_DETECTORS, *VALUE_DETECTORS)
SECRET_KINDS: tuple[str, ...] = tuple(dict.fromkeys(kind for kind, _ in _DETECTORS))
# Named only when nothing more specific was found: "token ghp_..." is a GitHub token, not also "a token".
_GENERIC = frozenset({"an API key or token", "a provider's prefixed token", "a high-entropy secret"})

# A detector runs only on text that holds one of its words (lower case); the others need a run of 16 token
# characters, which every token format has and most prose does not. Python's regular expressions try every
# alternative at every position, so these substring tests keep a write of ordinary prose cheap.
# A hint of several words (a tuple) holds when all of them are in the text.
_HINTS: dict[str, tuple[str | tuple[str, ...], ...]] = {
    "a private key": ("private key", "putty-user-key"),
    # every prefix an access key id begins with: a key written in groups has no long run of token characters
    "an AWS access key id": ("akia", "asia", "abia", "acca", "a3t"),
    "a connection string with a password": ("://", "jdbc:oracle"),
    "a password": (
        *("pass", "pw", "mdp", "contrase", "senha", "kennwort", "wachtwoord", "mysql", "docker", "net use"),
        *("memorable",),
        *("пароль", "lösenord", "salasana", "hasło", "haslo", "heslo", "şifre", "sifre", "jelsz", "adgangskode"),
        *("parola", "密码", "密碼", "口令", "パスワード", "暗証番号", "비밀번호", *PASSWORD_HINTS),
        *("キー", "パスフレーズ", "密钥", "密鑰", "키"),  # a network's key as routers label it in Asia
        *(*ASIA_PASSWORD_HINTS, *EUROPE_PASSWORD_HINTS),
        # a network's key in other languages (``secret_languages``)
        *("schl", "nyckel", "avain", "anahtar", "cle_", "cle:"),
        *("wifi", "wi-fi", "wlan", "wpa", "psk", "clave", "clé", "cle ", "chave", "chiave", "klucz", "sleutel"),
        *("login", "logon", "sign in", "sign-in", "signin", "credential", "creds", "redis", "ldap", "sudo", "smb"),
        *("rpcclient", "auth", "getconnection", "networkcredential", "mysqli", "pdo(", "identified", "@tcp", "@unix"),
        ("@", "/"),  # an account's address, a slash and its password ("ann@example.org / ...")
        # a login and its password after a word naming an access, or in a config file's comment
        *(("access", "/"), ("router", "/"), ("admin", "/"), ("#", "/")),
    ),
    "a recovery phrase, code or key file line": (
        *("phrase", "words", "codes", "wifi:", "private key", ":", "\u055d", "\uff1a"),
    ),
    "a PIN or access code": (
        *("pin", "puk", "暗証番号", "combo", "code", "combination", "código", "codigo", "codice", "kod"),
        *("geheimzahl", "disarm", "unlock", "unset", "deactivate", "şifre", "sifre"),
        # a lock opened by a code, and a code's name, in other languages (``secret_languages``)
        *("schloss", "slot", "lås", "las", "lukko", "kilit", "candado", "cadenas", "cadeado", "lucchetto", "kood"),
        *("combina", "combinaison", "codice", *CODE_HINTS, *ASIA_CODE_HINTS, *EUROPE_CODE_HINTS, *PIN_HINTS),
    ),
    "a card security code": ("cvv", "cvc", "cid", "security code"),
    "a bearer token": ("bearer",),
    "a basic-auth credential": ("basic", "auth", "-u", "--user"),
    "an API key or token": (
        *("key", "token", "secret", "seed", "schl", "clé", "clave", "chiave", "appid", "app_id", "api"),
        *("ntegr", "ntégr", "интеграц", "rout", "маршрут", "marsrut", "maršrut", "enrutamiento", "roteamento"),
        *("instradamento",),
    ),
}
_TOKEN_RUN = re.compile(r"[A-Za-z0-9+/=_\-.~:%]{16,}")
_LETTER_DIGIT_RUN = re.compile(r"[^\W_]{12,}")


def find_secrets(text: str) -> tuple[str, ...]:
    """The kinds of credential ``text`` holds, in a fixed order, each once (empty when there are none).

    A value stored under a name is read with its name before it (``"pin: 8264"``): the write gate reads metadata
    so, and a bare value that is no known format is then found by its label. The text is read as written and in
    its scanning form (``trust.normalise``): a key in full-width letters, or with zero-width characters or soft
    hyphens between its letters, is still the key to whoever reads it.
    """
    if not isinstance(text, str):
        return ()
    # A write's short fields repeat from write to write ("role: user", "speaker: Ann"): each is read once.
    return _short_kinds(text) if len(text) <= _SHORT else _all_kinds(text)


_SHORT = 200


@lru_cache(maxsize=4096)
def _short_kinds(text: str) -> tuple[str, ...]:
    return _all_kinds(text)


# Keys a provider publishes in its documentation or builds into a local emulator, the same for everyone: Stripe's
# documentation test key and the storage emulator's (Azurite's) well-known development account key. They open
# nothing private, so they are read as if absent; a real key beside them is still found.
_PUBLISHED = (
    "sk_test_4eC39HqLyjWDarjtT1zdp7dc",
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==",
)


# A Bitnami SealedSecret's ``encryptedData`` holds values sealed with the cluster's public key, made to be committed:
# only the controller's private key opens them. The section ends where its ``template`` begins, which may hold
# plain values.
_SEALED = re.compile(r"(?i)\bkind:\s*SealedSecret\b")
_ENCRYPTED_DATA = re.compile(r"\bencryptedData:(?P<section>.*?)(?=\btemplate:|$)", re.DOTALL)
_SEALED_VALUE = re.compile(r"(?<=:)(?P<gap>\s+)[\"']?[A-Za-z0-9+/]{60,}={0,2}[\"']?")


def _unsealed(text: str) -> str:
    """``text`` with a SealedSecret's sealed values taken out, its names left."""
    if not _SEALED.search(text):
        return text

    def section(m: re.Match[str]) -> str:
        return "encryptedData:" + _SEALED_VALUE.sub(lambda v: v["gap"] + '""', m["section"])

    return _ENCRYPTED_DATA.sub(section, text)


def _all_kinds(text: str) -> tuple[str, ...]:
    for published in _PUBLISHED:
        if published in text:
            text = text.replace(published, "")
    text = _unsealed(text)
    if text.isascii() and " " not in text:
        return _kinds(text)
    found = [kind for form in _read_forms(text) for kind in _kinds(form)]
    return tuple(dict.fromkeys(found))


def _read_forms(text: str) -> dict[str, None]:
    """``text`` as written, in its scan form, and bare: every mark taken off, hidden characters and fillers
    dropped (not read as gaps: a filler inside a key joins it), look-alikes in letter-and-digit runs mapped."""
    forms = dict.fromkeys((text, scan_form(text)))
    if not text.isascii():
        decomposed = unicodedata.normalize("NFKD", text)
        bare = "".join(c for c in decomposed if not unicodedata.category(c).startswith("M") and not hidden(c))
        forms[_latin_runs(scan_form(bare))] = None
    return forms


def _latin_runs(text: str) -> str:
    """``text`` with each run of letters and digits that is wholly look-alikes of ASCII (a key typed in Cyrillic
    inside a Russian sentence, which scanning leaves as it is) mapped to ASCII."""
    table = latin_lookalikes()

    def run(match: re.Match[str]) -> str:
        found = match.group(0)
        if found.isascii() or not any(c.isdigit() for c in found):
            return found
        mapped = "".join(table.get(c, c) for c in found)
        return mapped if mapped.isascii() else found

    return _LETTER_DIGIT_RUN.sub(run, text)


def _holds(hint: str | tuple[str, ...], lower: str) -> bool:
    return hint in lower if isinstance(hint, str) else all(word in lower for word in hint)


def _kinds(text: str) -> tuple[str, ...]:
    lower, run = text.lower(), bool(_TOKEN_RUN.search(text))
    ready = [
        (kind, find)
        for kind, find in _DETECTORS
        if (any(_holds(hint, lower) for hint in _HINTS[kind]) if kind in _HINTS else run)
    ]
    kinds = [kind for kind, find in ready if kind not in _GENERIC and find(text)]
    if not kinds:
        kinds = [kind for kind, find in ready if kind in _GENERIC and find(text)]
    return tuple(dict.fromkeys(kinds))


# Errors sit below this module: installed here, they withhold any value given to them that holds a credential.
withhold_given(lambda text: bool(find_secrets(text)))
