"""(internal) What a password's label is followed by when it labels no password.

A password's name also names things about the password, and what follows it is then no password: a property
(``password_status: expired``, ``passwordManager: Bitwarden``, ``Kennwortmanager: ...``), a state that ends what
is said (``Password: Locked``), or in code a variable that repeats the name (``pwd = form.new_password``). Each
is shaped like no password: a value of letters with digits or signs (``Password123``, ``hunter2!``) is never read
so, after a property's label neither (``secret_passwords``).
"""

from __future__ import annotations

import re

__all__ = ["a_property_value", "a_state", "names_a_property", "names_a_variable", "runs_a_command"]

# The words a password is named by: a variable holding one (``hashed_password``, ``form.new_passwd``) repeats one.
_LABEL_WORDS = frozenset(
    {"password", "passwd", "pwd", "pass", "passphrase", "passcode", "pw", "passe", "passwort", "kennwort", "senha"}
    | {"contrasena", "wachtwoord", "haslo", "heslo", "losenord", "salasana", "sifre", "adgangskode", "passord"}
)


def names_a_variable(value: str) -> bool:
    """Whether ``value`` is an identifier written as code writes one (``snake_case``, ``dotted.name``, ``camelCase``)
    with a password's name as one of its parts: a variable or column holding the password, not the password.
    A digit or a sign makes it a value ("Password123"); one run of letters may be a password ("mypassword")."""
    # Code writes a name in lower case first (``new_password``, ``passwordHash``), dotted, or all in capitals
    # (``DB_PASSWORD``); a capital then small letters joined by ``_`` is how a passphrase is written.
    code_cased = value[0].islower() or "." in value or value.isupper()
    # a member's name may end in one digit as code numbers its fields (``req.body.password2``)
    numbered = "." in value and re.fullmatch(r"[A-Za-z_][A-Za-z_.]*[A-Za-z]\d", value)
    if not (code_cased and (numbered or re.fullmatch(r"[A-Za-z_][A-Za-z_.]*", value))):
        return False
    parts = [p.lower() for p in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", value)]
    return len(parts) >= 2 and any(p in _LABEL_WORDS for p in parts)


# What a property of a password is told by: an algorithm and its parameters (``PBKDF2-SHA256``, ``AES-256-GCM``,
# ``argon2id``), a count or a ratio (``3-of-4``), the manager named with a digit (``1Password``). A password made of
# these words alone is none anyone would choose.
_ALGORITHM_PARTS = frozenset(
    "argon2 argon2i argon2d argon2id bcrypt scrypt yescrypt pbkdf2 pbkdf sha sha1 sha2 sha224 sha256 sha384 sha512 "
    "sha3 md5 md4 ntlm hmac scram aes des 3des blowfish twofish chacha20 poly1305 gcm cbc ctr ecb xts siv ccm rsa "
    "oaep pss kdf hkdf crypt 1password of in per bit bits".split()
)


# What a regular expression is written with and a password seldom is: a class, a group, an escape, a repeat, an end.
_REGEX_SYNTAX = re.compile(r"[\[\\]|\(\?|\.[*+?{]|\{\d|\$$")


def a_property_value(value: str) -> bool:
    """Whether ``value`` tells how a password is kept or measured: an algorithm's name with its parameters, a
    count, a ratio, a path, rather than a password (``password_hasher: PBKDF2-SHA256``)."""
    if value.startswith("^") and _REGEX_SYNTAX.search(value):
        return True  # a pattern passwords must match (``password_regex: ^(?=.*\d).{12,}$``)
    value = value.strip("\"'.,;()")
    if re.fullmatch(r"[/~][\w.\-]*/[\w./\-]+", value):
        return True  # a file holding the password, not the password (``password_file: /run/secrets/db``)
    parts = [p for p in re.split(r"[-_/:+ ]+", value.lower()) if p]
    return bool(parts) and all(p.isdigit() or p in _ALGORITHM_PARTS for p in parts)


# A label that is a password's name joined to another noun names a property of the password, and the value after
# it is that property: ``password_status: expired``, ``passwordManager: Bitwarden``, ``Kennwortmanager: ...``.
_COMPOUND_LABEL = re.compile(
    r"(?i)^(?:password|passwd|passphrase|passcode|passwort|kennwort|wachtwoord|contrase[ñn]a|senha|пароль|lösenord|"
    r"salasana|has[łl]o|heslo|[şs]ifre|jelsz[óo]|adgangskode|passord)(?P<rest>\w+)$"
)
# Nouns of what is known about a password other than the password itself. A suffix that may name the password
# (``password_new``, ``password_admin``, ``password_reset``) is not one of them; a hint never is the password, and
# one shaped like a password is refused after any property label all the same.
_PROPERTIES = frozenset(
    "status state manager managers vault store storage provider backend policy policies rule rules requirement "
    "requirements complexity strength score length len min max minimum maximum age expiry expires expiration "
    "expired expire rotation rotate rotated lockout attempts attempt tries retries failures failed count history "
    "hash hashed hasher hashing digest salt algorithm algo scheme encoder encoding type kind format mode method "
    "version field column col input prompt label widget form error errors message msg at date time timestamp "
    "updated changed change last set required enabled disabled protected less strategy url link page file path "
    "hint hints reminder encryption encrypter cipher generator regex pattern timeout ttl location place whereabouts "
    "require requires symbol symbols digit digits uppercase lowercase special chars characters "
    "richtlinie richtlinien beheerder".split()
)


def names_a_property(label: str, remark: str = "") -> bool:
    """Whether ``label`` names a property of a password (its status, manager, policy, hash, field), not one; a
    ``remark`` in brackets after a password's label may name it instead (``Password (last rotated): ...``)."""
    if any(word.lower() in _PROPERTIES for word in re.findall(r"[^\W\d_]+", remark)):
        return True
    compound = _COMPOUND_LABEL.match(label)
    if compound is None:
        return False
    words = re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[^\W\d_A-Za-z]+", compound.group("rest"))
    return any(word.lower() in _PROPERTIES for word in words)


# A label naming the command that prints a password (``password_command``, ``passwordeval``, ``pass_cmd``): a mail
# or database client runs the command and reads the password from its output.
_COMMAND_LABEL = re.compile(
    r"(?i)^(?:password|passwd|passphrase|pass|pwd|pw)[_\-.]?(?:command|cmd|eval|exec|helper|script|program|prog)$"
)


def runs_a_command(label: str, value: str) -> bool:
    """Whether ``value`` after a label naming a command is a command line (a program, then its arguments)."""
    return (
        _COMMAND_LABEL.match(label) is not None
        and re.fullmatch(r"[A-Za-z][\w.\-]*(?:\s+\S+)+", value.strip()) is not None
    )


# What a password's state is said to be, not a password: "password: expired", "Password: Locked".
_STATES = frozenset(
    "expired expiring pending required optional unset set reset changed updated missing invalid valid incorrect "
    "wrong correct weak strong medium locked unlocked enabled disabled active inactive unknown true false yes no ok "
    "okay none null protected unprotected encrypted hashed hidden masked verified unverified temporary permanent "
    "mandatory forgotten compromised rotated revoked blank empty accepted rejected denied granted failed never "
    "strict lenient".split()
)


# What may tell a new password after a state word ("changed to ...", "reset, use ..."): the state then excuses nothing.
_NAMING_ON = re.compile(r"(?i)(?:\b(?:to|is|was|now|use|new|into)\b|[:=]|->|\u2192)")


def a_state(value: str, after: str) -> bool:
    """``label: value`` where the value is one state word, ending what is said or told more of on its line with no
    password there (``Password: Locked (3 failed attempts)``, ``Password: Changed 2024-05-01``): "correct horse
    battery" goes on with words a state is not told by."""
    raw, value = value, value.rstrip(".!?)")
    if not (value.isalpha() and value.lower() in _STATES):
        return False
    if re.match(r"\s*(?:[\"'.,;!?)\]}]|$)", after) is not None:
        return True
    if re.fullmatch(r"[A-Za-z]+[.!?]", raw) and re.match(r"\s", after):
        return True  # the state ends its sentence ("Password: expired. Call the helpdesk."); what follows is read after
    rest = after.split("\n", 1)[0]
    words = re.findall(r"[^\s()\[\],;]+", rest)
    return not _NAMING_ON.search(rest) and all(_told_of_a_state(word) for word in words)


# Words that tell more of a state: when, how often, how strong, why ("Locked out", "reset required").
_STATE_DETAILS = frozenset(
    "out in required needed pending soon ago day days week weeks month months year years hour hours minute "
    "minutes time times attempt attempts failed tries retries by admin administrator it support helpdesk user "
    "link sent via reset until since on at after before for expiry expires policy rotation the a an and or "
    "email mail sms wait try again later".split()
)


def _told_of_a_state(word: str) -> bool:
    """Whether ``word`` after a state word tells more of the state: a number, a date, a detail word, a score."""
    bare = word.strip(".!?\"'")
    return (
        not bare
        or not re.search(r"[A-Za-z]", bare)
        or bare.lower() in _STATE_DETAILS
        or bool(re.fullmatch(r"[A-Za-z]+", bare) and bare.isupper() and len(bare) <= 5)
        or bare.lower() in _STATES
    )
