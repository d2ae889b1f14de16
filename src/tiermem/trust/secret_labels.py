"""(internal) What a password's label is followed by when it labels no password.

A password's name also names things about the password, and what follows it is then no password: a property
(``password_status: expired``, ``passwordManager: Bitwarden``, ``Kennwortmanager: ...``), a state that ends what
is said (``Password: Locked``), or in code a variable that repeats the name (``pwd = form.new_password``). Each
is shaped like no password: a value of letters with digits or signs (``Password123``, ``hunter2!``) is never read
so, after a property's label neither (``secret_values``).
"""

from __future__ import annotations

import re

__all__ = ["a_state", "names_a_property", "names_a_variable"]

# The words a password is named by: a variable holding one (``hashed_password``, ``form.new_passwd``) repeats one.
_LABEL_WORDS = frozenset({"password", "passwd", "pwd", "pass", "passphrase", "passcode", "pw"})


def names_a_variable(value: str) -> bool:
    """Whether ``value`` is an identifier written as code writes one (``snake_case``, ``dotted.name``, ``camelCase``)
    with a password's name as one of its parts: a variable or column holding the password, not the password.
    A digit or a sign makes it a value ("Password123"); one run of letters may be a password ("mypassword")."""
    # Code writes a name in lower case first (``new_password``, ``passwordHash``), dotted, or all in capitals
    # (``DB_PASSWORD``); a capital then small letters joined by ``_`` is how a passphrase is written.
    code_cased = value[0].islower() or "." in value or value.isupper()
    if not (code_cased and re.fullmatch(r"[A-Za-z_][A-Za-z_.]*", value)):
        return False
    parts = [p.lower() for p in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", value)]
    return len(parts) >= 2 and any(p in _LABEL_WORDS for p in parts)


# A label that is a password's name joined to another noun names a property of the password, and the value after
# it is that property: ``password_status: expired``, ``passwordManager: Bitwarden``, ``Kennwortmanager: ...``.
_COMPOUND_LABEL = re.compile(
    r"(?i)^(?:password|passwd|passphrase|passcode|passwort|kennwort|wachtwoord|contrase[ñn]a|senha|пароль|lösenord|"
    r"salasana|has[łl]o|heslo|[şs]ifre|jelsz[óo]|adgangskode|passord)(?P<rest>\w+)$"
)
# Nouns of what is known about a password other than the password itself. A suffix that may name the password
# (``password_new``, ``password_admin``, ``password_reset``, ``password_hint``) is not one of them.
_PROPERTIES = frozenset(
    "status state manager managers vault store storage provider backend policy policies rule rules requirement "
    "requirements complexity strength score length len min max minimum maximum age expiry expires expiration "
    "expired expire rotation rotate rotated lockout attempts attempt tries retries failures failed count history "
    "hash hashed hasher hashing digest salt algorithm algo scheme encoder encoding type kind format mode method "
    "version field column col input prompt label widget form error errors message msg at date time timestamp "
    "updated changed change last set required enabled disabled protected less strategy url link page file path "
    "richtlinie richtlinien beheerder".split()
)


def names_a_property(label: str) -> bool:
    """Whether ``label`` names a property of a password (its status, manager, policy, hash, field), not one."""
    compound = _COMPOUND_LABEL.match(label)
    if compound is None:
        return False
    words = re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[^\W\d_A-Za-z]+", compound.group("rest"))
    return any(word.lower() in _PROPERTIES for word in words)


# What a password's state is said to be, not a password: "password: expired", "Password: Locked".
_STATES = frozenset(
    "expired expiring pending required optional unset set reset changed updated missing invalid valid incorrect "
    "wrong correct weak strong medium locked unlocked enabled disabled active inactive unknown true false yes no ok "
    "okay none null protected unprotected encrypted hashed hidden masked verified unverified temporary permanent "
    "mandatory forgotten compromised rotated revoked blank empty accepted rejected denied granted failed never "
    "strict lenient".split()
)


def a_state(value: str, after: str) -> bool:
    """``label: value`` where the value is one state word ending what is said: "correct horse battery" goes on."""
    value = value.rstrip(".!?)")
    return value.isalpha() and value.lower() in _STATES and re.match(r"\s*(?:[\"'.,;!?)\]}]|$)", after) is not None
