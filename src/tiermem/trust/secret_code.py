"""(internal) A password that code or a command line gives: a flag's value, an environment default, a hashed literal.

``sshpass -p ...``, ``mysql -p...``, ``os.environ.get("DB_PASS", "...")`` and ``crypt('...', gen_salt('bf'))`` name
no password by a label a sentence would use, yet the value is one; a variable or a placeholder in its place is not.
"""

from __future__ import annotations

import re

from tiermem.trust.secret_labels import a_property_value
from tiermem.trust.secret_passwords import PASSWORD_LABEL, shaped
from tiermem.trust.secret_placeholders import is_placeholder

__all__ = ["code_password"]

_CLI = re.compile(
    r"(?:\bsshpass\s+-p\s*|\bmysql\b[^\n]*?\s-p|\bdocker\s+login\b[^\n]*?\s-p\s+|--pass(?:word|phrase)[\s=]|"
    r"\bnet\s+use\b[^\n]*?/user:\S+\s+)['\"]?([^\s'\"/]+)"
)


# A password's variable read from the environment with a default: the default is the password
# (``os.environ.get('DB_PASS', '...')``, ``env.str('DB_PASSWORD', default='...')``, ``ENV.fetch("PW", "...")``).
_NAMES_A_PASSWORD = re.compile(r"(?i)pass(?!port)|pwd|(?<![a-z])pw(?![a-z])")
_ENV_DEFAULT = re.compile(
    r"(?i)\b(?:getenv|get_env|environ\.get|env(?:\.\w+)?|ENV\.fetch)\(\s*[\"']([^\"'\n]+)[\"']\s*,\s*"
    r"(?:default\s*=\s*)?[\"']([^\"'\n]{4,})[\"']"
)
# A literal handed to a password-hashing call: what is hashed is the password (``crypt('...', gen_salt('bf'))``,
# ``sha256(...)``), unless it names the algorithm (``hash('sha256', $pw)``) or is a variable.
_HASHED = re.compile(
    r"(?i)\b(?:crypt|bcrypt|scrypt|hashpw|password_hash|make_password|generate_password_hash|hash_password|md5|"
    r"sha|sha1|sha2|sha224|sha256|sha384|sha512|hash)\s*\(\s*(?:b?\"([^\"\n]{4,})\"|b?'([^'\n]{4,})'|([^\s,()'\"]{6,}))"
)


def _bare_literal(value: str) -> bool:
    """Whether an unquoted argument is a literal shaped like a password: a query's placeholder (``$1::text``), a
    keyword argument (``size=20``) and a name holding a password (``new_pw2``) are code."""
    code = not value[0].isalnum() or "=" in value or re.search(r"(?i)pass|pwd|pw\b", value) is not None
    return not code and shaped(value)


def _code_literals(text: str) -> bool:
    """Whether code in ``text`` gives a password as a literal: an environment variable's default, or the argument
    of a hashing call where a password is named."""
    for m in _ENV_DEFAULT.finditer(text):
        if _NAMES_A_PASSWORD.search(m.group(1)) and not is_placeholder(m.group(2)):
            return True
    if not re.search(PASSWORD_LABEL, text, re.IGNORECASE):
        return False
    for m in _HASHED.finditer(text):
        quoted = m.group(1) if m.group(1) is not None else m.group(2)
        if quoted is not None and not (is_placeholder(quoted) or a_property_value(quoted)):
            return True
        if m.group(3) is not None and _bare_literal(m.group(3)):
            return True
    return False


def code_password(text: str) -> bool:
    """Whether code or a command line in ``text`` gives a password as a literal."""
    if _code_literals(text):
        return True
    return any(len(m.group(1)) >= 4 and not is_placeholder(m.group(1)) for m in _CLI.finditer(text))
