"""(internal) Credentials with a format of their own: recovery words and codes, one-time seeds, key file lines.

A wallet's recovery phrase, a block of account recovery codes, a recovery key in dash-joined groups, a one-time
password's base32 seed, a ``.pgpass`` line, a Wi-Fi QR code's payload and a hex private key are each known by their
label and their shape, in English and in the owner's language.
"""

from __future__ import annotations

import re

from tiermem.trust.secret_formats import looks_filled
from tiermem.trust.secret_placeholders import is_placeholder

__all__ = ["file_formats"]

# A wallet's recovery words (BIP-39: 12 to 24 of them), a .pgpass line (host:port:database:user:password), a Wi-Fi
# QR code's payload, a block of account recovery codes, a hex private key after its label.
# The words may be of another language's list ("frase semilla": Spanish words, some accented); under a bare key
# (``backup: ...``) they must be all the value, 12 to 24 of them, as a wallet gives them.
_SEED = re.compile(
    r"(?i)(?:\b(?:seed|recovery|mnemonic|secret)[\s_\-]+(?:phrase|words)|\bfrase\s+(?:semilla|de\s+recuperaci[óo]n)"
    r"|\bpalabras\s+(?:semilla|de\s+recuperaci[óo]n)|\bphrase\s+de\s+r[ée]cup[ée]ration)\b[^:\n]{0,40}:\s*"
    r"((?:[^\W\d_]{3,8}\s+){11,23}[^\W\d_]{3,8})\b"
)
_SEED_KEY = re.compile(
    r"(?i)^(?:backup|seed|mnemonic|recovery|wallet)(?:[_\-](?:phrase|words|seed|backup))?:\s*"
    r"((?:[a-z]{3,8} ){11}(?:(?:[a-z]{3,8} ){3}){0,4}[a-z]{3,8})$"
)
_PGPASS = re.compile(r"(?m)(?:^|\s)[\w.\-*]+:(?:\d{2,5}|\*):[^:\s]+:[^:\s]+:([^\s:]{6,})$")
_WIFI = re.compile(r"\bWIFI:(?:[^;\n]*;)*?P:([^;\n]{4,});")
# A block of recovery codes, each maybe written in two halves ("4821 0937"), set off by spaces or commas.
_RECOVERY_CODES = re.compile(
    r"(?i)(?:\b(?:recovery|backup)[\s_\-]codes?\b|\bc[óo]digos?\s+de\s+(?:recuperaci[óo]n|respaldo|recupera[çc][ãa]o|backup)"
    r"|wiederherstellungscodes|backup-?codes|\bcodes?\s+de\s+(?:r[ée]cup[ée]ration|secours)|\bcodici\s+di\s+(?:recupero|backup)"
    # and in Estonian, Latvian, Lithuanian, Russian, Bulgarian and Croatian
    r"|(?:taaste|varu)koodid|rezerves\s+kodi|atsarginiai\s+kodai|резервн\w+\s+код\w*|код\w*\s+за\s+възстановяване"
    r"|rezervni\s+kodovi)"
    # what they are for after the label, up to a colon, a closing bracket or the line's end ("... (account: ann)")
    r"[^\n]{0,60}?(?::|\)|\n)\s*"
    r"((?:[a-z0-9]{4,6}[\-\s]?[a-z0-9]{4,6}[,;]?\s+){3,}[a-z0-9]{4,6}[\-\s]?[a-z0-9]{4,6})"
)
# One recovery key or code in dash-joined groups, named in any of several languages ("Wiederherstellungscodes für
# ...:", "recovery key:", "clé de récupération :").
_RECOVERY_KEY = re.compile(
    r"(?i)(?:\b(?:recovery|backup)[\s_\-]|wiederherstellungs|\bherstel|\bgendannelses|[åa]terst[äa]llnings"
    r"|(?:de|di)\s+(?:r[ée]cup[ée]ration|recuperaci[óo]n|recupera[çc][ãa]o|recupero|secours)\b)"
    r"[^:\n]{0,50}:\s*((?-i:[A-Z0-9]{4,6}(?:-[A-Z0-9]{4,6}){3,}))(?![\w\-])"
)
# A one-time password's seed (base32), often written in groups of four: "TOTP secret: JBSW Y3DP EHPK 3PXP".
# The label in the owner's language may put the seed's word first ("Semilla 2FA", "clé TOTP", "clave de
# autenticación") or join it ("TOTP-Schlüssel").
_SEED_WORD = (
    r"(?:seed|secret|key|semilla|secreto|clave|cl[ée]|graine|chave|semente|segredo|chiave|segreto|seme"
    r"|schl(?:ü|u|ue)ssel|geheimnis|sleutel|geheim|nyckel|hemlighet)"
)
_OTP_WORD = (
    r"(?:2fa|mfa|otp|totp|hotp|authenticator|autenticaci[óo]n|authentification|autentica[çc][ãa]o|autenticazione)"
)
_OTP_SEED = re.compile(
    r"(?i)(?<![^\W\d_])(?:"
    + _OTP_WORD
    + r"[\s_\-]?"
    + _SEED_WORD
    + r"|"
    + _SEED_WORD
    + r"\s+(?:(?:de|del|du|da|do|di|für|van|för)\s+)?(?:(?:la|el|le|l['\u2019]|o|a)\s*)?"
    + _OTP_WORD
    + r")(?![^\W\d_])[^:\n]{0,60}:\s*"
    r"((?-i:[A-Z2-7]{4}(?: [A-Z2-7]{4}){3,}))(?![A-Za-z0-9])"
)
# Four or more recovery codes in two dash-joined halves after a colon, whatever the label before it names them by
# (Armenian sets a label off with its own comma, Chinese and Japanese with a full-width colon).
_CODES = re.compile(
    r"[:\u055d\uff1a]\s*(?P<codes>(?:[a-z0-9]{4,6}-[a-z0-9]{4,6}[,;]?\s+){3,}[a-z0-9]{4,6}-[a-z0-9]{4,6})(?![\w\-])",
    re.IGNORECASE,
)
_HEX_KEY = re.compile(r"(?i)\bprivate\s+key\b[^:\n]{0,60}:\s*(?:0x)?([a-f0-9]{64})\b")


def _coded_block(text: str) -> bool:
    """Whether a block of codes follows a label: three or more mixing letters and digits, none repeated."""
    for m in _CODES.finditer(text):
        codes = m["codes"].replace(",", " ").replace(";", " ").split()
        mixed = [c for c in codes if re.search(r"\d", c) and re.search(r"[A-Za-z]", c)]
        if len(mixed) >= 3 and len(set(codes)) == len(codes):
            return True
    return False


def file_formats(text: str) -> bool:
    """Whether ``text`` holds a recovery phrase, recovery codes or a key, or a line of a file that keeps a password."""
    patterns = (_SEED, _SEED_KEY, _PGPASS, _WIFI, _RECOVERY_CODES, _RECOVERY_KEY, _OTP_SEED, _HEX_KEY)
    found = (p.search(text) for p in patterns)
    return _coded_block(text) or any(
        m is not None and not is_placeholder(m.group(1)) and looks_filled(m.group(1)) for m in found
    )
