"""(internal) A password known by its label: "the password for the router is ...", ``Passwort: ...``, ``pwd=...``.

detect-secrets' keyword plugin is written for source files (the value must be quoted in most file types, and
in config files it runs to the end of the line), so prose is read here. What counts is the value: a placeholder
(``<your password>``, ``${TOKEN}``, ``********``, a variable such as ``form.new_password``), a word that continues
a sentence ("the password is on the fridge", "... is required") or a state ("Password: Locked") is not a
credential, nor is what follows a label naming a property of a password (``password_status``, ``passwordManager``;
both in ``secret_labels``); a value that merely begins like one ("Secretariat#77", "testPilot9") is.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime

from tiermem.trust.secret_labels import a_property_value, a_state, names_a_property, runs_a_command
from tiermem.trust.secret_placeholders import is_placeholder
from tiermem.trust.secret_prose import foreign_prose_value, prose_value

__all__ = ["PASSWORD_LABEL", "labelled_password", "shaped"]

# A bank's "memorable word" or "memorable information" is its second secret, asked after the password.
# A Wi-Fi network's key is its password ("wifi key", ``wpa2_key``, ``psk="..."`` in a supplicant's file). "pass" is a
# password's label only as a key (``pass: ...``, ``"pass": "..."`` in JSON).
PASSWORD_LABEL = (
    r"(?:(?:password|passwd|passphrase|passcode)\w*"
    r"|\bpwd|\bpw|(?<![A-Za-z])pass(?=[\"']?\s*[:=])|\bpass\s+word|memorable[\s_\-](?:word|info(?:rmation)?)(?![A-Za-z])"
    r"|(?<![A-Za-z])(?:wi-?fi|wlan|wpa[23]?)[\s_\-]?(?:key|code)(?![A-Za-z])|(?<![A-Za-z])(?:wpa[23]?[_\-]?)?psk(?![A-Za-z]))"
)
# A keyword code writes before the expression it assigns (``await bcrypt.hash(...)``): the expression is the value.
PASSWORD_LABEL_RE = re.compile(PASSWORD_LABEL, re.IGNORECASE)
_KEYWORD = r"(?:(?:await|new|yield)\s+(?=[A-Za-z_$@]))?"
# A remark in brackets between a label and its value: ``Password (old): ...``, ``Kennwort (Router): ...``.
_REMARK = r"(?:\s*\((?P<remark>[^()\n]{1,24})\))?"
# A word after the label that names where the value is typed, not a property of it: ``password field: ...``.
_FIELD = r"(?:[\s_\-](?:field|value|entry|box|input)(?![A-Za-z]))?"
_ASSIGNED = re.compile(
    r"(?i)(?P<label>"
    + PASSWORD_LABEL
    + r")"
    + _FIELD
    + _REMARK
    + r"(?:\s+(?:issued|generated|assigned|provided))?"
    + r"(?:\s+(?:for|of|to|on|at)(?:\s+[\w'\u2019.\-~/]+){1,6}?)?[\"'\]]?\s*(?P<sep>:=|=>|[:=]|\s-\s)"
    r"\s*" + _KEYWORD + r"(?:\"(?P<dq>[^\"\n]+)\"|'(?P<sq>[^'\n]+)'|(?P<bare>[^\s\"'&;,]+))"
)
_SAID = re.compile(
    r"(?i)(?P<label>"
    + PASSWORD_LABEL
    + r")(?:\s+(?:for|of|to|on)(?:\s+[\w'\u2019.\-]+){1,5}?)?(?:\s+(?:is|was|will\s+be|are)|(?P<s>['\u2019]s))"
    r"(?:\s+now|\s+still|\s+just)?\s*:?\s+[\"'“]?(?P<value>[^\s\"'”]+?)[\"'”]?(?=[.,;!?)]?(?:\s|$))"
)
# A label then the value with no sign between (``pw Lumen4471x``): a word with letters and digits, no path, flag or
# URL. A label after a user's name and a colon is itself the value, a placeholder (``curl -u admin:password URL``).
_BARE_AFTER_LABEL = re.compile(
    r"(?i)(?<!\w:)\b(?:password|passwd|passwort|kennwort|wachtwoord|contrase[ñn]a|senha|l[öo]senord|mdp|pw|heslo|adgangskode"
    r"|[şs]ifre(?:si|m|miz|niz)?)\s+"
    r"([^\s\"'/~\-][^\s\"']{5,})(?=\s|$)"
)
# "pass" then the value, as a list of logins writes it (``user admin, pass Kx9-mw42z``): "pass" names a ticket or a
# permit too, so the value must mix small letters, capitals and digits as few of their numbers do.
_PASS_THEN_VALUE = re.compile(
    r"(?<![A-Za-z])(?:[Pp]ass|PASS)\s+((?=\S*[a-z])(?=\S*\d)(?=\S*[A-Z])[^\s\"'/~\-][^\s\"']{7,}?)"
    r"[.,;]?(?=\s|$)"
)
# A password said to be changed to a new one ("the vpn password changed to ..."): the new one, shaped like one.
_CHANGED_TO = re.compile(
    r"(?i)(?P<label>" + PASSWORD_LABEL + r")(?:\s+(?:for|of|on)(?:\s+[\w'\u2019.\-]+){1,4}?)?"
    r"\s+(?:was\s+|has\s+been\s+|got\s+|is\s+)?(?:changed|reset|set|updated|rotated)"
    r"\s+to\s+[\"'\u201c]?([^\s\"'\u201d]+)"
)
# A Wi-Fi key some routers print as groups of digits ("WLAN-Schlüssel: 4711 ...").
_WIFI_DIGITS = re.compile(
    r"(?i)(?<![A-Za-z])(?:wi-?fi|wlan)[\s\-]?(?:schl(?:ü|u|ue)ssel|sleutel|klucz|nyckel|n[øo]gle|key|code)"
    r"(?:(?:\s+(?:der|des|of|for|van|de|du|del|för|dla))?(?:\s+[\w\-]+){1,3}?)?"
    r"\s*[:=]\s*\d{4,}(?:[ \-]\d{4,}){2,}(?![\d\-])"
)
# A label in another language, or the value after an arrow, a dash or another language's "is" ("пароль от почты:",
# "la password è", "password → ..."): what follows counts when it is shaped like a password (``shaped``), and a
# plain word after a colon or an "is" only where the sentence stops on a word telling no state of the password
# (``secret_prose``): "Das Passwort ist abgelaufen" and "Hasło: Razem możemy" stay. A Wi-Fi network's key is named
# by its own words ("WLAN-Schlüssel", "la clave del wifi").
_ANY_LABEL = (
    r"(?:" + PASSWORD_LABEL + r"|(?:passwort|kennwort|wachtwoord|contrase[ñn]a|senha|пароль|l[öo]senord|salasana|"
    r"has[łl]o|heslo|[şs]ifre|jelsz[óo]|adgangskode|passord)\w*|(?<![A-Za-z])mot[\s_\-]+de[\s_\-]+passe|\bparola\s+(?:d['\u2019]ordine|chiave)"
    r"|\bmdp(?![A-Za-z])|(?<![A-Za-z])(?:wi-?fi|wlan)[\s\-]?(?:schl(?:ü|u|ue)ssel|sleutel|klucz|nyckel|n[øo]gle)"
    r"|\b(?:clave|cl[ée]|chave|chiave|clau|klucz|sleutel)\s+(?:(?:de|del|du|do|da|della|dla|van)\s+)?(?:la\s+|l['\u2019]|o\s+)?"
    r"(?:wi-?fi|wlan|red|r[ée]seau|rede|xarxa)\b|\bcode\s+(?:du\s+|de\s+la\s+|d['\u2019])?(?:wi-?fi|wlan|r[ée]seau)\b)"
)
# Words of other languages: "for" (la contraseña *del* router), "new" or "old" (Mi contraseña *nueva*), "is"; "in" or
# "at" names where the password is used as "for" does ("lösenordet i stugan", "la clave en la oficina").
_FOREIGN_FOR = (
    r"от|для|de|del|de\s+la|du|des|da|do|dos|das|della|dello|di|dla|do|für|zum|zur|vom|van|per|para|pour|voor|"
    r"till|för|til|k|ke|ku|pro|na|i|på|hos|en|im|w"
)
_FOREIGN_NEW = (
    r"nueva|nuevo|antigua|actual|nova|antiga|atual|nuova|vecchia|attuale|nouveau|ancien|actuel|neue|neues|alte|"
)
_FOREIGN_NEW += r"aktuelle|nieuwe|oude|huidige|nowe|stare|obecne"
# and in English after the label, which names a password kept in reserve ("password fallback: ...")
_FOREIGN_NEW += r"|fallback|temporary|initial"
_FOREIGN_IS = r"est|es|ist|è|é|era|war|är|er|jest|je|lautet|luidt|brzmi|to|sera|será|sarà|wird|wordt|c['\u2019]est"
_ANY_SAID = re.compile(
    r"(?i)(?P<label>"
    + _ANY_LABEL
    + r")"
    + _REMARK
    + r"(?:\s+(?:"
    + _FOREIGN_NEW
    + r"))?"
    # a name may come before "for" ("Passwort Router für ..."), and the sentence may go on a little before its "is"
    # ("la senha do wifi mudou, agora é ...")
    + r"(?:(?:\s+[^\W\d_][\w\-]*)?(?:\s+(?:for|of|to|on|at|"
    + _FOREIGN_FOR
    + r")(?:\s+[\w'\u2019.\-]+,?){1,6}?"
    # Italian and French join "of the" to the next word ("la password dell'home banking")
    + r"|\s+(?:dell|dall|all|sull|nell|d)['\u2019][\w\-]+,?(?:\s+[\w'\u2019.\-]+,?){0,5}?))?"
    r"[\"'\]]?\s*(?P<sep>:=|=>|->|[:=\u2192]|\s(?:-{1,2}|[\u2013\u2014])\s|\s(?:is|was|" + _FOREIGN_IS + r")\s)"
    r"\s*" + _KEYWORD + r"[\"'\u201c\u00ab]?\s*(?P<value>[^\s\"'\u201d\u00bb]+)"
)
# A password said to be changed, then what it is now, in one sentence ("la contraseña ... la cambié, ahora es ...").
_NOW_IS = re.compile(
    r"(?i)(?P<label>" + _ANY_LABEL + r")(?P<gap>[^.!?\n]{0,80}?)\b(?:ahora|now|maintenant|d[ée]sormais|jetzt|nun"
    r"|adesso|ora|agora|nu|teraz)(?:\s+(?:es|(?:it\s+)?is|it['\u2019]s|c['\u2019]est|est|ist(?:\s+es)?|lautet|è|é|e|jest|är|er|to))?"
    r"\s*:?\s+[\"'\u201c\u00ab]?(?P<value>[^\s\"'\u201d\u00bb]+)"
)
# A password told by what its owner chose when asked for one ("asked for a passphrase, I used: ..."): the value after
# "I used", shaped like a password.
_CHOSE = re.compile(
    r"(?i)(?P<label>"
    + PASSWORD_LABEL
    + r")[^.!?\n]{0,40}?\b(?:I|we)\s+(?:used|chose|picked|typed|entered|set|went\s+with)"
    r"\s*:?\s+[\"'\u201c]?(?P<value>[^\s\"'\u201d]+)"
)
# A password named, then handed over in the same sentence with "here it is" and a colon ("... but here it is: ...",
# "але ось він: ...", "mais le voici : ...").
_HERE_IT_IS = re.compile(
    r"(?i)(?P<label>" + _ANY_LABEL + r")[^.!?\n]{0,80}?(?<![^\W\d_])(?:here\s+it\s+is|here\s+you\s+go"
    r"|ось\s+(?:він|вона)|вот\s+(?:он|она)|hier\s+ist\s+es|(?:le|la)\s+voici|aqu[íi]\s+(?:est[áa]|la\s+tienes)|eccol[ao]|aqui\s+est[áa])"
    r"\s*:\s*[\"'\u201c\u00ab]?(?P<value>[^\s\"'\u201d\u00bb]+)"
)
# A password named in Chinese, Japanese or Korean, which write no space before "is" (是, は, 는): the value is the
# run of Latin letters, digits and signs after it, shaped like a password. A router labels its network's key so too
# (an encryption, network, security or pre-shared key; a key, "密钥", in Chinese).
_CJK_SAID = re.compile(
    r"(?:密码|密碼|口令|パスワード|暗証番号|비밀번호|(?:暗号化|暗号|ネットワーク|セキュリティ|事前共有)キー|パスフレーズ|密钥|密鑰"
    r"|(?:암호화|네트워크|보안)\s?키)\s*(?:是|為|为|は|는|은|:|=)\s*[\"'\u201c\u300c]?([!-~]{6,})"
)


def _latin_letter(c: str) -> bool:
    """Whether ``c`` is a Latin letter with a mark ("å", "ğ"), as a password in Swedish or Turkish may hold."""
    return c.isalpha() and unicodedata.name(c, "").startswith("LATIN")


def shaped(value: str) -> bool:
    """Whether ``value`` looks like a password whatever the language around it: Latin letters with digits or signs."""
    value = value.rstrip(".,;!?)")
    return (
        len(value) >= 6
        and all(c.isascii() or _latin_letter(c) for c in value)
        and not is_placeholder(value)
        and bool(re.search(r"[A-Za-z]", value))
        and bool(re.search(r"\d|[!#$%&*+=?@^~_\-]", value))
    )


# Words a description is made of and a passphrase of random words is not ("pwd: shows you the current folder").
_FUNCTION_WORDS = frozenset(
    "a an the of for to in on at by as from with and or but not is are was were be been can could should must will "
    "would may might you your it its this that these which who what when where how often always never usually use "
    "uses used do does make makes via over through check ask see".split()
)


def _described(value: str, after: str, sep: str = ":") -> bool:
    """``label: value`` that is a description going on ("Strong passwords: most teams rotate them..."), not a
    value: a plain word, followed on its line by words a sentence is made of, or by any word after a dash, which in
    prose sets a remark off ("reuse one password everywhere - never again")."""
    if not (value.isalpha() and value[1:].islower()):
        return False
    if sep.strip() == "-" and value.islower() and re.match(r"[ \t]+[a-z]+\b", after):
        return True
    following = re.findall(r"[A-Za-z']+", after.split("\n", 1)[0])[:8]
    return any(word.lower() in _FUNCTION_WORDS for word in [value, *following])


def _a_property(label: str, value: str, remark: str | None = None) -> bool:
    """Whether ``label: value`` tells a property of a password (``password_status: expired``): a label (or its
    remark) naming one, and a value not shaped like a password, which a property label never excuses
    (``passwordManager: Tr0ub4dor&3``)."""
    if runs_a_command(label, value):
        return True
    named = names_a_property(label, remark or "")
    return named and (not shaped(value) or _a_moment(value) or a_property_value(value))


def _a_moment(value: str) -> bool:
    """Whether ``value`` is a date or a time in ISO form (``password_changed_at: 2025-03-14T09:00:00Z``)."""
    try:
        datetime.fromisoformat(value.strip("\"'.,;"))
    except ValueError:
        return False
    return True


# The next entry of a file of entries (``DB_USER=app``, ``user: app``) at the start of a line, and the next
# assignment (``DB_USER=app``), which the stored form of a note, its whitespace joined, brings onto the line.
_ENTRY = re.compile(r"[A-Za-z_][\w.\-]*[ \t]*(?::=|=|:(?:\s|$))")
_ASSIGNMENT = re.compile(r"(?:[A-Z][A-Z0-9_]*|[a-z][a-z0-9_.]*)=[^=]")


def _next_entry(text: str, m: re.Match[str], group: str) -> bool:
    """Whether what is read as a label's value is the next entry of a file, the label's own left empty
    (``DB_PASSWORD=`` then ``DB_USER=app``): a value on a later line after ``=``, an entry on a later line, or an
    assignment after ``=`` and a space."""
    gap, start, sep = text[m.end("sep") : m.start(group)], m.start(group), m["sep"].strip()
    if "\n" in gap and (sep in {"=", ":="} or _ENTRY.match(text, start) is not None):
        return True
    return sep == "=" and gap.isspace() and _ASSIGNMENT.match(text, start) is not None


def _a_path(value: str) -> bool:
    """Whether ``value`` is a file's path (``/run/secrets/db``, ``./db-pass.txt``): the file holds the password."""
    return value.startswith(("/", "~", "./", "../"))


# A fallback after a password's variable in code, a default, or the next name a chained assignment gives the value:
# the literal is the password (``form.password or 'Hunter7&x'``, ``default='Hunter7&x'``, ``pwd = new_pw = '...'``).
_FALLBACK = re.compile(
    r"(?:\bor\b|\|\||\?\?|\?:|:-|^\s*=(?!=)|\bdefault\s*[=:])\s*(?:[\"']([^\"'\n]{4,})[\"']|([^\s\"'()\[\]]{6,}))"
)
# A word that names the password anew after a state or a remark: "reset to ...", "expired, now ...", "use ...".
_NAMED_ON = re.compile(r"(?i)\b(?:to|now|use|is|was)\b\s*[:\"'\u201c]?\s*([^\s\"'\u201d]{6,})")
_STATEMENT = 160  # characters after an excused value read as the rest of its statement
_COMMENT_LINE = re.compile(r"\n[ \t]*(?:#|//|--)[^\n]*")
# A word no code, ticket, version or product name is made like: letters, a digit and a sign that is no joiner.
_STRONG = re.compile(r"(?=[^=()\[\]{}<>.,:;'\"`/\\]*$)(?=.*[A-Za-z])(?=.*\d)(?=.*[!#$%&*+?@^~]).{8,}")


def _password_after(text: str) -> bool:
    """Whether what follows an excused value on its statement holds a password anyway: a fallback after ``or``,
    or a word made like a strong password on the line or in a comment line under it (``# was Tr0ub4dor&3``)."""
    line, _, below = text.partition("\n")
    line = line[:_STATEMENT]  # a statement, not the rest of a paragraph written without line breaks
    comment = _COMMENT_LINE.match("\n" + below)
    said = line + (comment.group(0) if comment else "")
    for m in _FALLBACK.finditer(said):
        quoted, bare = m.groups()
        # Unquoted, only a word with a digit or a sign no compound word has ("or low-cost" is prose).
        if (quoted is not None and not is_placeholder(quoted)) or (bare is not None and _named_anew(bare)):
            return True
    if any(_named_anew(m.group(1)) for m in _NAMED_ON.finditer(line)):
        return True
    return any(_STRONG.fullmatch(w.strip("\"'`()[]{},;.")) for w in said.split())


def _named_anew(word: str) -> bool:
    """Whether ``word`` after "to", "now" or "use" is a password: shaped like one, with a digit or a sign that no
    identifier (``per_user``), e-mail address or path (``ann@example.org``, ``/etc/pw``) is made with."""
    address = "/" in word or re.search(r"@[\w\-]+\.", word) is not None
    return shaped(word) and not address and re.search(r"\d|[!#$%&*+=?@^~]", word) is not None


# A type a password's field is declared with (``password: SecretStr = Field(...)``, ``password: Optional[str]``).
_TYPE_NAMES = frozenset("str string bytes bytearray text any secretstr secretbytes secret charsequence".split())


def _a_type(value: str, after: str) -> bool:
    """Whether ``value`` after ``label:`` is a type annotation: a type's name, or a class's name that the line goes
    on to give a default (``= Field(...)``) or a union (``| None``)."""
    bare = value.rstrip(",;)")
    if bare.lower() in _TYPE_NAMES or re.fullmatch(r"(?:Optional|Union|Annotated|Secret\w*)\[.*", bare):
        return True
    return re.fullmatch(r"[A-Z][A-Za-z]+", bare) is not None and re.match(r"\s*(?:=(?!=)|\|)", after) is not None


def _foreign_plain_word(m: re.Match[str], value: str, after: str) -> bool:
    """Whether a plain word after a label in another language, or another language's "is", is the password: after a
    colon or an "is", where the sentence stops on it (``secret_prose``)."""
    if PASSWORD_LABEL_RE.fullmatch(m["label"]) and m["sep"].strip().lower() in {"is", "was", ":"}:
        return False  # English, read by the English rules
    if m["sep"].strip() not in {":", "="} and not m["sep"].startswith(" "):
        return False  # an arrow or a dash: a menu's path or a list, not a sentence
    if m["sep"] in {"=", ":="} or _a_property(m["label"], value, m["remark"]):
        return False
    if re.match(r"(?i)parola\s+chiave", m["label"]):
        return False  # in most Italian text a keyword, and one plain word after it is the keyword
    neuter = re.match(r"(?i)has[łl]o", m["label"]) is not None
    word = value.rstrip(".,;!?)")
    return foreign_prose_value(word, value[len(word) :] + after, neuter=neuter)


# A user name and a password after a login's name: "login is admin / Fjord#5512", "credentials: ops/Kestrel-41".
_LOGIN_PAIR = re.compile(
    r"(?i)\b(?:log[\s\-]?in|logon|sign[\s\-]?in|credentials?|creds)(?:\s+(?:is|are|was))?\s*:?\s+"
    r"(?P<user>[^\s/:]{1,40}?)\s*/\s*(?P<password>[^\s/]{4,}?)[.,;!?)]?(?=\s|$)"
)


# An e-mail address then a slash and a password, as a list of accounts writes one ("Shop: ann@example.org / ...");
# with no login's name, only a value made like a strong password counts.
_ADDRESS_PAIR = re.compile(r"[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+\s*/\s*(\S{8,}?)[.,;!?)]?(?=\s|$)")


def _login_pair(m: re.Match[str]) -> bool:
    """Whether a user and password pair is one: a password shaped like one, after a user name that is no host's
    name (``example.org/Account2024`` is a path)."""
    user, password = m["user"], m["password"]
    host = "." in user and "@" not in user
    return not host and shaped(password)


# Things a password's label names besides a password ("the password manager is now ..."): what comes after "now"
# is then that thing.
_OTHER_THINGS = frozenset(
    "manager managers vault store storage provider backend policy policies rule rules requirement requirements "
    "complexity strength hint hints reminder field form page prompt flow length format hash algorithm".split()
)


def _of_a_property(gap: str) -> bool:
    """Whether the words between a password's label and "now" name a thing other than the password."""
    return any(word.lower() in _OTHER_THINGS for word in re.findall(r"[^\W\d_]+", gap))


# A sum of money (``monthly pass: $156.00``): what a pass or a plan costs, never its password.
_AMOUNT = re.compile(r"[$€£¥]\d[\d,]*(?:\.\d+)?")


# A key of a mapping where a value was looked for (``db_password: file: ...`` joined on one line): the label's value
# is the mapping under it, not a password.
_DEFINED = re.compile(r"\b(?:def|function|func|fn|sub)\s+\w*$")
_A_KEY = re.compile(r"[A-Za-z_][\w.\-]*:")
# A user then a key in another language, as a login is handed on ("usuario ana.r / clave ...", "utente X, chiave Y").
_USER_THEN_KEY = re.compile(
    r"(?i)\b(?:usuario|usu[áa]rio|utente|utilizador|utilisateur|identifiant|benutzer(?:name)?|gebruiker(?:snaam)?)"
    r"\s*[:=]?\s+\S+\s*[/,;|]\s*(?:clave|chave|chiave|cl[ée]|code)\s*[:=]?\s+([^\s\"']+)"
)


_ENV_NAME = re.compile(r"(?<![\w$])[A-Z][A-Z0-9_]*$")
_COMMAND_AFTER = re.compile(r"[ \t]+[a-z][a-z_.-]*[0-9]?[ \t]+\S")


def _emptied(text: str, m: re.Match[str]) -> bool:
    """A shell variable set to nothing for one command (``PGPASSWORD= pg_dump ...``): what follows is the command,
    a plain lower-case name with arguments after it (``DB_PASSWORD= s3cr3t`` is a value, not a command)."""
    eq = m.start("sep")
    return (
        m["sep"] == "="
        and _COMMAND_AFTER.match(text, eq + 1) is not None
        and _ENV_NAME.search(text, max(0, eq - 40), eq) is not None
    )


def _a_prompt(text: str, m: re.Match[str]) -> bool:
    """Whether the label and its colon are the inside of a quoted prompt (``read -p "Vault password: " VAR``): the
    quote after the colon closes one opened before the label on its line, and what follows is no value."""
    after = text[m.end("sep") : m.end("sep") + 3].lstrip(" \t")
    if not after or after[0] not in "\"'":
        return False
    line = text[text.rfind("\n", 0, m.start()) + 1 : m.start("sep")]
    return line.count(after[0]) % 2 == 1


def _a_store(text: str, m: re.Match[str]) -> bool:
    """Whether the label is the end of the password manager's name ("1password:Vault/Item"), where a secret lives."""
    return text[max(0, m.start() - 1) : m.start()] == "1" and m["label"][:8].lower() == "password"


def labelled_password(text: str) -> bool:
    """Whether ``text`` gives a password after a label naming one, in prose, a form, a config or code."""
    for m in _ASSIGNED.finditer(text):
        if _emptied(text, m) or _a_prompt(text, m) or _a_store(text, m):
            continue
        value = m["dq"] or m["sq"] or m["bare"]
        after = text[m.end() :]
        if _DEFINED.search(text, 0, m.start()):
            continue  # a function's name and its parameters (``def test_wrong_password(client):``), then its body
        if _next_entry(text, m, next(g for g in ("dq", "sq", "bare") if m[g] is not None)):
            continue
        if (
            len(value) < 4
            or is_placeholder(value)
            or (m["bare"] is not None and _A_KEY.fullmatch(value) is not None)
            or (m["sep"] == ":" and m["bare"] is not None and _a_type(value, after))
            or _a_path(value)
            or _AMOUNT.fullmatch(value.rstrip(".,;"))
            or _a_property(m["label"], value, m["remark"])
        ):
            if _password_after(after):
                return True
            continue
        if not (_described(value, after, m["sep"]) or a_state(value, after)):
            return True
        if _password_after(after):
            return True
    for m in _SAID.finditer(text):
        value = m["value"]
        if m["s"] and not re.search(r"\d|[^\w]", value.rstrip(".,;!?")):
            continue  # "the password's" then a plain word: "the password's gone", a state more than a password
        if len(value) >= 4 and prose_value(value.rstrip(".,;!?"), text[m.end() :]) and not _a_property(m[1], value):
            return True
        if _password_after(text[m.end() :]):
            return True
    for m in _BARE_AFTER_LABEL.finditer(text):
        value = m.group(1)
        if "://" in value:
            continue  # a URL: where the password is used, or the label was a value itself
        if re.search(r"\d", value) and re.search(r"[A-Za-z]", value) and not is_placeholder(value):
            return True
    for m in _ANY_SAID.finditer(text):
        value, after = m.group("value"), text[m.end() :]
        if _next_entry(text, m, "value") or _emptied(text, m) or _a_prompt(text, m) or _a_store(text, m):
            continue
        # a key of a mapping where a value was looked for (``password_policy: min_length: 12`` joined on one line)
        keyed = _A_KEY.fullmatch(value) is not None
        named = shaped(value) and not (keyed or _a_path(value) or _a_property(m["label"], value, m["remark"]))
        if named or _password_after(after):
            return True
        if _foreign_plain_word(m, value, after):
            return True
    if any(_named_anew(m.group(1).rstrip(".,;!?)")) for m in _USER_THEN_KEY.finditer(text)):
        return True
    if any(_STRONG.fullmatch(m.group(1)) for m in _ADDRESS_PAIR.finditer(text)):
        return True
    if any(_login_pair(m) for m in _LOGIN_PAIR.finditer(text)):
        return True
    if any(_named_anew(m.group(1)) and not is_placeholder(m.group(1)) for m in _PASS_THEN_VALUE.finditer(text)):
        return True
    if any(_named_anew(m["value"].rstrip(".,;!?)")) and not _of_a_property(m["gap"]) for m in _NOW_IS.finditer(text)):
        return True
    handed = (m for pattern in (_CHOSE, _HERE_IT_IS) for m in pattern.finditer(text))
    if any(_named_anew(m["value"].rstrip(".,;!?)")) for m in handed):
        return True
    if any(_named_anew(m.group(2).rstrip(".,;!?)")) for m in _CHANGED_TO.finditer(text)) or _WIFI_DIGITS.search(text):
        return True
    return any(shaped(m.group(1)) and not a_property_value(m.group(1)) for m in _CJK_SAID.finditer(text))
