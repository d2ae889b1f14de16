"""(internal) A password that code or a command line gives: a flag's value, an environment default, a hashed literal.

``sshpass -p ...``, ``redis-cli -a ...``, ``echo ... | sudo -S``, ``os.environ.get("DB_PASS", "...")``,
``setPassword("...")``, ``crypt('...', gen_salt('bf'))``, a call taking the password by its place
(``getConnection(url, "sa", "...")``), SQL (``CREATE USER ... WITH PASSWORD '...'``) and ``htpasswd -b`` name no
password by a label a sentence would use, yet the value is one; a variable or a placeholder in its place is not.
"""

from __future__ import annotations

import re

from tiermem.trust.secret_labels import a_property_value
from tiermem.trust.secret_passwords import PASSWORD_LABEL, shaped
from tiermem.trust.secret_placeholders import is_placeholder

__all__ = ["ATTRIBUTE_PAIR", "code_password"]

# The flag each command takes its password with: ``mysql -p...`` (joined: ``-p`` alone prompts), ``redis-cli -a``,
# ``ldapsearch -w`` (``-W`` prompts), ``sshpass -p``, ``smbclient -U user%...``.
_CLI = re.compile(
    r"(?:\bsshpass\s+-p\s*|\bmysql(?:dump|admin|import|check|show|slap)?\b[^\n]*?\s-p"
    r"|\b(?:docker|az)\s+login\b[^\n]*?\s-p\s+"
    r"|--pass(?:word|phrase)[\s=]|\bnet\s+use\b[^\n]*?/user:\S+\s+|\bredis-cli\b[^\n]*?\s-a\s+"
    r"|\bldap(?:search|modify|add|delete|passwd|compare|whoami|modrdn|exop)\b[^\n]*?\s-w\s+"
    r"|\b(?:smbclient|rpcclient|smbmap)\b[^\n]*?\s(?:-U\s*|--user[=\s])['\"]?[^\s%'\"]+%)['\"]?([^\s'\"/]+)"
)
# A password piped to a command that reads it from its input: ``echo ... | sudo -S``, ``| passwd --stdin``.
_PIPED = re.compile(
    r"\b(?:echo|printf)\s+(?:-[neE]+\s+)?(?P<q>['\"]?)(?P<value>[^\s'\"|]{4,})(?P=q)\s*\|\s*"
    r"(?:sudo\s+(?:-[A-Za-z]+\s+)*?-[A-Za-z]*S\b|passwd\s+--stdin|chpasswd|docker\s+login\b[^\n|]*--password-stdin)"
)
# A variable of the environment that a client reads its password from (``MYSQL_PWD=...``, ``REDISCLI_AUTH=...``);
# ``PWD`` and ``OLDPWD`` are the shell's folders.
_ENV_PASSWORD = re.compile(r"(?<![\w$])[A-Z][A-Z0-9]*_(?:PWD|PW|PASS|AUTH)=(?P<q>['\"]?)(?P<value>[^\s'\"]+)(?P=q)")


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


# A literal handed to a password's setter or builder (``setPassword("...")``, ``.password("...")``), or stored under a
# password's key (``props.put("password", "...")``): the literal is the password.
_SETTER = re.compile(
    r"(?i)(?:\bset_?|\bwith_?|\.)[A-Za-z]{0,12}?pass(?:word|wd|phrase)\s*\(\s*(?:\"([^\"\n]{4,})\"|'([^'\n]{4,})')\s*[,)]"
)
_UNDER_KEY = re.compile(
    r"(?i)\(\s*[\"'][\w.\-]*(?:password|passwd|pwd|passphrase)[\"']\s*,\s*(?:\"([^\"\n]{4,})\"|'([^'\n]{4,})')\s*[,)]"
)


# A password as a document or a build script gives it: an element of XML (``<password>...</password>`` in Maven's
# settings), or an argument written after its name with no brackets, as Groovy and Ruby allow (``storePassword '...'``).
_ELEMENT = re.compile(
    r"(?i)<(?P<tag>(?:[\w\-]+:)?[\w\-]*(?:password|passwd|passphrase))>\s*(?P<value>[^<\s]{4,})\s*</(?P=tag)>"
)
# A setting given as a key and a value in attributes, as .NET's config files write them (NuGet's
# ``<add key="ClearTextPassword" value="..." />``, ``appSettings``): the value of a key naming a password.
ATTRIBUTE_PAIR = re.compile(
    r"(?i)\bkey\s*=\s*(?P<q1>[\"'])(?P<key>[^\"'\n]{1,80})(?P=q1)\s+value\s*=\s*(?P<q2>[\"'])(?P<value>[^\"'\n]*)(?P=q2)"
)
_BRACKETLESS = re.compile(
    r"(?<![\w.$])(?:[a-z]\w*?(?:Password|Passphrase)|password|passphrase)[ \t]+"
    r"(?:\"(?P<dq>[^\"\s]{4,})\"|'(?P<sq>[^'\s]{4,})')"
)


# Calls that take a password as a positional argument, and its position: ``auth=("admin", "...")``,
# ``DriverManager.getConnection(url, "sa", "...")``, ``new NetworkCredential("svc", "...")``,
# ``smtp.PlainAuth("", "ann@example.org", "...", host)``, ``server.login("ann", "...")``,
# ``new mysqli(host, "app", "...")``, ``new PDO(dsn, "app", "...")``.
_POSITIONS = {
    "auth": 1,
    "httpbasicauth": 1,
    "httpdigestauth": 1,
    "networkcredential": 1,
    "login": 1,
    "getconnection": 2,
    "mysqli": 2,
    "mysqli_connect": 2,
    "pdo": 2,
    "plainauth": 2,
}
_CALL = re.compile(
    r"(?i)(?:(?<![\w.])(?P<kw>auth)\s*=\s*|(?<![\w])(?P<call>HTTPBasicAuth|HTTPDigestAuth|NetworkCredential|"
    r"getConnection|mysqli(?:_connect)?|PDO|PlainAuth)\s*|\.(?P<method>login)\s*)\((?P<args>[^()\n]{0,300})\)"
)
_ARGUMENT = re.compile(r"\s*(?:\"(?P<dq>[^\"\n]*)\"|'(?P<sq>[^'\n]*)'|(?P<other>[^,]*?))\s*(?:,|$)")
# A data source name as Go's SQL drivers take it, with no scheme before it: ``user:password@tcp(host:3306)/db``.
_DSN = re.compile(r"(?<![\w.\-])[\w.\-]+:(?P<value>[^\s@\"'`/:]+)@(?:tcp6?|udp|unix)\(")
# SQL that sets a user's password: ``CREATE USER app WITH PASSWORD '...'``, ``ALTER USER ... IDENTIFIED BY '...'``.
_SQL = re.compile(r"(?i)\b(?:with\s+(?:encrypted\s+)?password|identified\s+(?:with\s+\w+\s+)?by)\s+'([^'\n]{4,})'")
# ``htpasswd -b FILE USER PASSWORD`` (``-n``: no file), ``-cb``, ``-bB``...: the last word is the password. An "&"
# inside a word, with no space after it, is read as the password's sign, as whoever noted the command meant it.
_WORD = r"(?:[^\s|;&]|&(?![&\s]|$))+"
_HTPASSWD = re.compile(r"\bhtpasswd\s+(?P<flags>(?:-[A-Za-z]+\s+)+)(?P<words>(?:" + _WORD + r"\s+){1,2}" + _WORD + ")")


def _positional(text: str) -> bool:
    """Whether a call that takes a password by its position is given a literal there."""
    for m in _CALL.finditer(text):
        name = (m["kw"] or m["call"] or m["method"]).lower()
        args = [a for a in _ARGUMENT.finditer(m["args"]) if a.group(0)]
        place = _POSITIONS[name]
        if len(args) <= place:
            continue
        value = args[place]["dq"] if args[place]["dq"] is not None else args[place]["sq"]
        if value is not None and len(value) >= 4 and _literal(value):
            return True
    return False


def _command_passwords(text: str) -> bool:
    """Whether SQL, a driver's data source name or ``htpasswd -b`` in ``text`` gives a password as a literal."""
    if any(_literal(m.group(1)) for m in _SQL.finditer(text)):
        return True
    if any(len(m["value"]) >= 4 and _literal(m["value"]) for m in _DSN.finditer(text)):
        return True
    for m in _HTPASSWD.finditer(text):
        flags, words = m["flags"], m["words"].split()
        if "b" in flags and len(words) == (2 if "n" in flags else 3) and _literal(words[-1].strip("'\"")):
            return True
    return False


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


# An app password as a provider shows it, four groups of four small letters ("abcd efgh ijkl mnop"): the spaces are
# its print, not words.
_APP_PASSWORD = re.compile(r"[a-z]{4}(?: [a-z]{4}){3}")


def _literal(value: str) -> bool:
    """Whether a literal in a password's place is one: no placeholder, no algorithm's name, no words of a sentence."""
    if _APP_PASSWORD.fullmatch(value.strip()):
        return len(set(value.replace(" ", ""))) >= 8
    return " " not in value.strip() and not (is_placeholder(value) or a_property_value(value))


def code_password(text: str) -> bool:
    """Whether code or a command line in ``text`` gives a password as a literal."""
    if _code_literals(text) or _positional(text) or _command_passwords(text):
        return True
    if any(_literal(m.group(1) or m.group(2)) for p in (_SETTER, _UNDER_KEY) for m in p.finditer(text)):
        return True
    if any(_literal(m["value"]) for m in _ELEMENT.finditer(text)):
        return True
    for m in ATTRIBUTE_PAIR.finditer(text):
        if _NAMES_A_PASSWORD.search(m["key"]) and len(m["value"]) >= 4 and _literal(m["value"]):
            return True
    if any(_literal(m["dq"] or m["sq"]) for m in _BRACKETLESS.finditer(text)):
        return True
    if any(len(m["value"]) >= 4 and not is_placeholder(m["value"]) for m in _PIPED.finditer(text)):
        return True
    if any(shaped(m["value"]) for m in _ENV_PASSWORD.finditer(text)):
        return True
    return any(len(m.group(1)) >= 4 and not is_placeholder(m.group(1)) for m in _CLI.finditer(text))
