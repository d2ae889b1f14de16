"""(internal) Passwords known by their shape whatever the language around them, and passwords in markup.

A login and its password after a word naming a login or in a config file's comment (``admin / <password>``), and a
password stored under a name in markup: a Postman collection's ``{"key": "password", "value": ...}``, a property
list's ``<key>...Password</key>``, an Android resource's ``<string name="..._password">`` and the password column
of an SQL ``INSERT``.
"""

from __future__ import annotations

import re

from tiermem.trust.secret_labels import names_a_property
from tiermem.trust.secret_passwords import shaped
from tiermem.trust.secret_placeholders import is_placeholder

__all__ = ["shaped_credential"]

# A login and its password after a word naming a login, an access or a router before a colon, or in a comment of a
# config file, set off by a slash with spaces around it, as a path or an action's name (``owner/repo@v3``) is not;
# the password must be made like a strong one, as a path's parts ("src / main") are not.
_PAIR = re.compile(
    r"(?i)(?:(?<![^\W\d_])(?:log[\s\-]?in|logon|sign[\s\-]?in|access|router|admin|credentials?|creds)(?![^\W\d_])"
    r"[^\n:=]{0,40}?|(?:^|\s)(?:#|//)\s[^\n:=]{0,60}?)[:=]\s*"
    r"(?P<user>[A-Za-z][\w.@\-]{0,39})\s+/\s+(?P<password>\S{8,})"
)
_STRONG = re.compile(r"(?=.*[A-Za-z])(?=.*\d)(?=.*[!#$%&*+?@^~_\-]).{8,}")
# A name that holds a password's: ``password``, ``ServerPassword``, ``mqtt_password``, ``db_pass``, ``pwd``.
_PASSWORD_NAME = re.compile(r"(?i)(?:^|[\W_]|(?<=[a-z])(?=[A-Z]))(?:pass(?:word|wd|phrase|code)?|pwd)$")
_POSTMAN = (
    re.compile(r'"key"\s*:\s*"(?P<name>[^"\n]{1,60})"\s*,\s*"value"\s*:\s*"(?P<value>[^"\n]*)"'),
    re.compile(r'"value"\s*:\s*"(?P<value>[^"\n]*)"\s*,\s*"key"\s*:\s*"(?P<name>[^"\n]{1,60})"'),
)
_PLIST = re.compile(r"<key>\s*(?P<name>[^<\n]{1,60}?)\s*</key>\s*<string>(?P<value>[^<\n]*)</string>")
_ANDROID = re.compile(r"<string\s+name=\"(?P<name>[^\"\n]{1,60})\"[^>\n]*>(?P<value>[^<\n]*)</string>")
_INSERT = re.compile(r"(?i)\binsert\s+into\s+[\w.\"`\[\]]+\s*\((?P<columns>[^()]{1,400})\)\s*values\s*\(")
# One value of a VALUES list: a quoted string, or anything else up to a comma or the closing bracket (a number, a
# call with its own brackets, a query's parameter).
_SQL_VALUE = re.compile(r"\s*(?:'(?P<quoted>(?:[^'\n]|'')*)'|(?P<other>[^,()'\n]*(?:\([^()\n]*\))?))\s*(?P<end>[,)])")


def _named_value(name: str, value: str) -> bool:
    """Whether ``value`` is a password kept under ``name``: a name ending in a password's, naming no property of
    it, and a value shaped like a password with no space in it (a form's label or message is none)."""
    name = name.strip()
    if not _PASSWORD_NAME.search(name) or names_a_property(name):
        return False
    return shaped(value) and not re.search(r"\s", value) and not is_placeholder(value)


def _insert_values(text: str, start: int, count: int) -> list[str | None]:
    """The values of one VALUES list from ``start``, each a quoted string or None for anything else."""
    values: list[str | None] = []
    at = start
    while len(values) < count:
        m = _SQL_VALUE.match(text, at)
        if m is None:
            break
        values.append(m["quoted"].replace("''", "'") if m["quoted"] is not None else None)
        at = m.end()
        if m["end"] == ")":
            break
    return values


def _inserted_password(text: str) -> bool:
    for m in _INSERT.finditer(text):
        columns = [c.strip().strip('"`[]') for c in m["columns"].split(",")]
        values = _insert_values(text, m.end(), len(columns))
        for column, value in zip(columns, values, strict=False):
            if value is not None and _named_value(column, value):
                return True
    return False


def shaped_credential(text: str) -> bool:
    """Whether ``text`` holds a login with its password, or a password kept under a name in markup."""
    for m in _PAIR.finditer(text):
        user, password = m["user"], m["password"].rstrip(".,;)")
        if not ("." in user and "@" not in user) and _STRONG.fullmatch(password) and not is_placeholder(password):
            return True
    markup = (*_POSTMAN, _PLIST, _ANDROID)
    if any(_named_value(m["name"], m["value"]) for p in markup for m in p.finditer(text)):
        return True
    return _inserted_password(text)
