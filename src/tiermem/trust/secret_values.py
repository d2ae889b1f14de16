"""(internal) Credentials known by what names them: a password, a PIN, a key after its label, a URL's password.

detect-secrets' keyword plugin is written for source files (the value must be quoted in most file types, and
in config files it runs to the end of the line), so prose such as "the password for the router is ..." and
"my PIN is ..." is read here. What counts is the value: a placeholder (``<your password>``, ``YOUR_KEY``,
``${TOKEN}``, ``xxxx``, ``********``, a variable such as ``form.new_password``), a word that continues a sentence
("the password is on the fridge", "... is required") or a state ("Password: Locked") is not a credential, nor is
what follows a label naming a property of a password (``password_status``, ``passwordManager``; both in
``secret_labels``); a value that merely begins like one ("Secretariat#77", "testPilot9") is. A random-looking
token of 40 or more characters with no label at all (a bare cloud secret in a metadata value) is one too, unless
it is a hash, a URL's path, a public key, a certificate or base64 of ordinary text.
"""

from __future__ import annotations

import base64
import binascii
import itertools
import re
from collections.abc import Callable
from datetime import datetime

from tiermem.trust.secret_formats import looks_filled
from tiermem.trust.secret_labels import a_property_value, a_state, names_a_property
from tiermem.trust.secret_placeholders import is_placeholder

__all__ = ["VALUE_DETECTORS", "is_placeholder"]

# Words that continue a sentence after "password is": the password is *on the fridge*, *required*, *the same*.
_PROSE_WORDS = frozenset(
    "on in at under behind inside near by with without for from of to into onto over above below about the a an "
    "my your his her our their its this that these those same different written saved stored kept somewhere "
    "required needed incorrect wrong correct right invalid valid weak strong long short secure safe unsafe "
    "unknown blank empty missing set reset changed case too very still now not also just only being known new "
    "old easy hard simple complicated good bad fine ok okay optional mandatory temporary encrypted hashed visible "
    "hidden printed listed attached included enclosed there here something anything nothing what whatever "
    "different expired expiring protected sent shared".split()
)
_PROSE_SHAPE = re.compile(r"^[a-z]+(?:ed|ing|ly|ible|able|ful|less|ous|ive)$")


def _prose_value(value: str, after: str) -> bool:
    """Whether ``value`` (the word after "password is") is a credential rather than the sentence going on."""
    lower = value.lower()
    if lower in _PROSE_WORDS or _PROSE_SHAPE.match(lower) or is_placeholder(value):
        return False
    if re.search(r"\d|[^\w]", value) or value != value.lower():
        return True  # password-shaped: a digit, a symbol or a capital inside
    # One plain word: a credential only where the sentence stops ("the wifi password is sunflower.").
    return not re.match(r"\s+[A-Za-z]", after)


_PASSWORD_LABEL = (
    r"(?:(?:password|passwd|passphrase|passcode)\w*"
    r"|\bpwd|\bpw|(?<![A-Za-z])pass(?=\s*[:=])|\bpass\s+word|memorable[\s_\-]word)"
)
# A keyword code writes before the expression it assigns (``await bcrypt.hash(...)``): the expression is the value.
_KEYWORD = r"(?:(?:await|new|yield)\s+(?=[A-Za-z_$@]))?"
# A remark in brackets between a label and its value: ``Password (old): ...``, ``Kennwort (Router): ...``.
_REMARK = r"(?:\s*\((?P<remark>[^()\n]{1,24})\))?"
_ASSIGNED = re.compile(
    r"(?i)(?P<label>"
    + _PASSWORD_LABEL
    + r")"
    + _REMARK
    + r"(?:\s+(?:for|of|to|on|at)(?:\s+[\w'\u2019.\-]+){1,4}?)?[\"'\]]?\s*(?::=|=>|[:=]|\s-\s)"
    r"\s*" + _KEYWORD + r"(?:\"([^\"\n]+)\"|'([^'\n]+)'|([^\s\"'&;,]+))"
)
_SAID = re.compile(
    r"(?i)(?P<label>"
    + _PASSWORD_LABEL
    + r")(?:\s+(?:for|of|to|on)(?:\s+[\w'\u2019.\-]+){1,5}?)?\s+(?:is|was|will\s+be|are)"
    r"(?:\s+now|\s+still|\s+just)?\s*:?\s+[\"'“]?([^\s\"'”]+?)[\"'”]?(?=[.,;!?)]?(?:\s|$))"
)
_BARE_AFTER_LABEL = re.compile(r"(?i)\b(?:password|passwd|passwort|contrase[ñn]a)\s+([^\s\"']{6,})(?=\s|$)")
# A label in another language, or the value after an arrow, a dash or another language's "is" ("пароль от почты:",
# "la password è", "password → ..."): what follows is read by no sentence rules of its language, so it counts only
# when it is shaped like a password (``_shaped``); "Das Passwort ist abgelaufen" and "Hasło: Razem możemy" stay.
_ANY_LABEL = (
    r"(?:" + _PASSWORD_LABEL + r"|(?:passwort|kennwort|wachtwoord|contrase[ñn]a|senha|пароль|lösenord|salasana|"
    r"has[łl]o|heslo|[şs]ifre|jelsz[óo]|adgangskode|passord)\w*|\bmot\s+de\s+passe|\bparola\s+(?:d['\u2019]ordine|chiave))"
)
_ANY_SAID = re.compile(
    r"(?i)(?P<label>"
    + _ANY_LABEL
    + r")"
    + _REMARK
    + r"(?:\s+(?:for|of|to|on|at|от|для|de|du|für|per|para|pour|voor)(?:\s+[\w'\u2019.\-]+){1,4}?)?"
    r"[\"'\]]?\s*(?::=|=>|->|[:=\u2192]|\s(?:-{1,2}|[\u2013\u2014])\s|\s(?:is|was|est|es|ist|è|é|era|war|är|jest|je)\s)"
    r"\s*" + _KEYWORD + r"[\"'\u201c]?(?P<value>[^\s\"'\u201d]+)"
)
# A password named in Chinese, Japanese or Korean, which write no space before "is" (是, は, 는): the value is the
# run of Latin letters, digits and signs after it, shaped like a password.
_CJK_SAID = re.compile(
    r"(?:密码|密碼|口令|パスワード|暗証番号|비밀번호)\s*(?:是|為|为|は|는|은|:|=)\s*[\"'\u201c\u300c]?([!-~]{6,})"
)


def _shaped(value: str) -> bool:
    """Whether ``value`` looks like a password whatever the language around it: Latin letters with digits or signs."""
    value = value.rstrip(".,;!?)")
    return (
        len(value) >= 6
        and value.isascii()
        and not is_placeholder(value)
        and bool(re.search(r"[A-Za-z]", value))
        and bool(re.search(r"\d|[!#$%&*+=?@^~_\-]", value))
    )


_CLI = re.compile(
    r"(?:\bsshpass\s+-p\s*|\bmysql\b[^\n]*?\s-p|\bdocker\s+login\b[^\n]*?\s-p\s+|--pass(?:word|phrase)[\s=]|"
    r"\bnet\s+use\b[^\n]*?/user:\S+\s+)['\"]?([^\s'\"/]+)"
)


# Words a description is made of and a passphrase of random words is not ("pwd: shows you the current folder").
_FUNCTION_WORDS = frozenset(
    "a an the of for to in on at by as from with and or but not is are was were be been can could should must will "
    "would may might you your it its this that these which who what when where how often always never usually use "
    "uses used do does make makes via over through check ask see".split()
)


def _described(value: str, after: str) -> bool:
    """``label: value`` that is a description going on ("Strong passwords: most teams rotate them..."), not a
    value: a plain word, followed on its line by words a sentence is made of."""
    if not (value.isalpha() and value[1:].islower()):
        return False
    following = re.findall(r"[A-Za-z']+", after.split("\n", 1)[0])[:8]
    return any(word.lower() in _FUNCTION_WORDS for word in [value, *following])


def _a_property(label: str, value: str, remark: str | None = None) -> bool:
    """Whether ``label: value`` tells a property of a password (``password_status: expired``): a label (or its
    remark) naming one, and a value not shaped like a password, which a property label never excuses
    (``passwordManager: Tr0ub4dor&3``)."""
    named = names_a_property(label, remark or "")
    return named and (not _shaped(value) or _a_moment(value) or a_property_value(value))


def _a_moment(value: str) -> bool:
    """Whether ``value`` is a date or a time in ISO form (``password_changed_at: 2025-03-14T09:00:00Z``)."""
    try:
        datetime.fromisoformat(value.strip("\"'.,;"))
    except ValueError:
        return False
    return True


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
    return _shaped(word) and not address and re.search(r"\d|[!#$%&*+=?@^~]", word) is not None


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
    return not code and _shaped(value)


def _code_literals(text: str) -> bool:
    """Whether code in ``text`` gives a password as a literal: an environment variable's default, or the argument
    of a hashing call where a password is named."""
    for m in _ENV_DEFAULT.finditer(text):
        if _NAMES_A_PASSWORD.search(m.group(1)) and not is_placeholder(m.group(2)):
            return True
    if not re.search(_PASSWORD_LABEL, text, re.IGNORECASE):
        return False
    for m in _HASHED.finditer(text):
        quoted = m.group(1) if m.group(1) is not None else m.group(2)
        if quoted is not None and not (is_placeholder(quoted) or a_property_value(quoted)):
            return True
        if m.group(3) is not None and _bare_literal(m.group(3)):
            return True
    return False


# A sum of money (``monthly pass: $156.00``): what a pass or a plan costs, never its password.
_AMOUNT = re.compile(r"[$€£¥]\d[\d,]*(?:\.\d+)?")


def _passwords(text: str) -> bool:
    if _code_literals(text):
        return True
    for m in _ASSIGNED.finditer(text):
        value = next(v for v in m.groups()[2:] if v is not None)  # after the label and its remark
        after = text[m.end() :]
        if (
            len(value) < 4
            or is_placeholder(value)
            or value.startswith(("/", "~"))
            or _AMOUNT.fullmatch(value.rstrip(".,;"))
            or _a_property(m["label"], value, m["remark"])
        ):
            if _password_after(after):
                return True
            continue
        if not (_described(value, after) or a_state(value, after)):
            return True
        if _password_after(after):
            return True
    for m in _SAID.finditer(text):
        value = m.group(2)
        if len(value) >= 4 and _prose_value(value.rstrip(".,;!?"), text[m.end() :]) and not _a_property(m[1], value):
            return True
        if _password_after(text[m.end() :]):
            return True
    for m in _BARE_AFTER_LABEL.finditer(text):
        value = m.group(1)
        if re.search(r"\d", value) and re.search(r"[A-Za-z]", value) and not is_placeholder(value):
            return True
    for m in _ANY_SAID.finditer(text):
        value = m.group("value")
        if (_shaped(value) and not _a_property(m["label"], value, m["remark"])) or _password_after(text[m.end() :]):
            return True
    if any(_shaped(m.group(1)) for m in _CJK_SAID.finditer(text)):
        return True
    return any(len(m.group(1)) >= 4 and not is_placeholder(m.group(1)) for m in _CLI.finditer(text))


_PIN = re.compile(
    r"(?i)(?<![A-Za-z])(?P<label>pin(?:[\s_\-]*(?:code|number|no\.?|#))?|pincode|(?:door|alarm|gate|garage|safe|lock|"
    r"entry|keypad|access|entrance|building|locker)(?:[\s_\-][a-z]+)?[\s_\-]code|(?:safe|lock)[\s_\-]combination|"
    r"combination)"
    r"(?:\s+(?:is|was|for\s+[\w\s'\u2019]{1,30}?\s+is))?\s*[:=#-]?\s*"
    r"(?P<value>\d{4,8}|\d{1,3}(?:[ -]\d{1,3}){2,4})#?(?![\d/:]|[.,]\d)"
)
_CARD_CONTEXT = re.compile(r"(?i)\b(?:card|bank|debit|atm|sim|phone)\b")


def _pins(text: str) -> bool:
    for m in _PIN.finditer(text):
        label, value = m.group("label").lower(), m.group("value")
        if len(set(value.replace(" ", "").replace("-", ""))) == 1 and len(value) > 4:
            continue  # 000000
        # In India a "PIN code" is a postal code: six digits, no card or bank in sight.
        postal = re.fullmatch(r"pin\s*code|pincode", label) and re.fullmatch(r"[1-9]\d{5}", value)
        if postal and not _CARD_CONTEXT.search(text[max(0, m.start() - 40) : m.start()]):
            continue
        return True
    return False


_CVV = re.compile(
    r"(?i)\b(?:cvv2?|cvc2?|cid|card\s+security\s+code|security\s+code)\b\s*(?:is\s*)?[:=#]?\s*(\d{3,4})\b"
)

# Labels of keys and tokens; the value after one must look random (a word or a short number is not a key).
_KEY_LABEL = re.compile(
    r"(?i)(?<![A-Za-z0-9])(?P<label>api[_\-\s]?(?:key|secret|token)|apikey|access[_\-\s]?(?:token|key"
    r"(?:[_\-\s]?id)?|secret)|auth(?:entication|orization)?[_\-\s]?(?:token|key)|refresh[_\-\s]?token|client[_\-\s]?"
    r"secret|app[_\-\s]?(?:secret|key)|consumer[_\-\s]?secret|secret[_\-\s]?(?:access[_\-\s]?)?key|private[_\-\s]?"
    r"key|signing[_\-\s]?(?:key|secret)|encryption[_\-\s]?key|master[_\-\s]?key|session[_\-\s]?token|webhook[_\-\s]?"
    r"secret|x-api-key|bot[_\-\s]?token|secret|token|(?:2fa|mfa|otp|totp)[_\-\s]?(?:seed|secret|key))"
    r"(?![A-Za-z0-9])[\"'\]]?\s*(?::=|=>|[:=]|\s+is\b:?|\s)\s*(?:\"([^\"\n]{8,})\"|'([^'\n]{8,})'|([A-Za-z0-9_\-+/=.~!@#$%^&*]{12,}))"
)


def _random_value(value: str, label: str) -> bool:
    value = value.strip().rstrip(".,;")
    if is_placeholder(value) or not looks_filled(value) or " " in value or _PUBLISHABLE.match(value):
        return False
    least = 20 if label in {"token", "secret"} else 12
    has_letter = any(c.isalpha() for c in value)
    has_digit = any(c.isdigit() for c in value)
    return len(value) >= least and has_letter and (has_digit or len(set(value)) >= 16)


def _labelled_keys(text: str) -> bool:
    for m in _KEY_LABEL.finditer(text):
        value = next(v for v in m.groups()[1:] if v is not None)
        if _random_value(value, m.group("label").lower()):
            return True
    return False


_BEARER = re.compile(r"(?i)\bbearer\s+([A-Za-z0-9\-._~+/]{16,}=*)")
_BASIC = re.compile(r"(?i)(?:\bbasic\s+|\"auth\"\s*:\s*\")([A-Za-z0-9+/]{8,}={0,2})")
_AUTHORIZATION_BASIC = re.compile(r"(?i)\bauthorization\s*[:=]\s*basic\s+([A-Za-z0-9+/]{12,}={0,2})")
_CURL_USER = re.compile(r"(?:\s-u\s*|--user[\s=])['\"]?[^\s:'\"]+:([^\s'\"]{4,})")


def _bearer(text: str) -> bool:
    return any(_random_value(m.group(1), "bearer") for m in _BEARER.finditer(text))


def _basic(text: str) -> bool:
    for m in _BASIC.finditer(text):
        try:
            decoded = base64.b64decode(m.group(1), validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError):
            continue
        user, sep, password = decoded.partition(":")
        if sep and user and len(password) >= 4 and not is_placeholder(password):
            return True
    if any(_random_value(m.group(1), "basic") for m in _AUTHORIZATION_BASIC.finditer(text)):
        return True  # an Authorization header's value is a credential whatever it decodes to
    return any(not is_placeholder(m.group(1)) for m in _CURL_USER.finditer(text))


_URL_PASSWORD = re.compile(r"(?i)\b[a-z][a-z0-9+.\-]*://([^\s:/@\"'<>]*):([^\s@\"'<>]+)@[^\s/\"'<>]+")


def _url_password(text: str) -> bool:
    return any(len(m.group(2)) >= 4 and not is_placeholder(m.group(2)) for m in _URL_PASSWORD.finditer(text))


# -- the formats of a few files and codes -----------------------------------------------------------------------

# A wallet's recovery words (BIP-39: 12 to 24 of them), a .pgpass line (host:port:database:user:password), a Wi-Fi
# QR code's payload, a block of account recovery codes, a hex private key after its label.
_SEED = re.compile(
    r"(?i)\b(?:seed|recovery|mnemonic|secret)\s+(?:phrase|words)\b[^:\n]{0,40}:\s*((?:[a-z]{3,8}\s+){11,23}[a-z]{3,8})\b"
)
_PGPASS = re.compile(r"(?m)(?:^|\s)[\w.\-*]+:(?:\d{2,5}|\*):[^:\s]+:[^:\s]+:([^\s:]{6,})$")
_WIFI = re.compile(r"\bWIFI:(?:[^;\n]*;)*?P:([^;\n]{4,});")
_RECOVERY_CODES = re.compile(
    r"(?i)\b(?:recovery|backup)\s+codes?\b[^:\n]{0,40}:\s*"
    r"((?:[a-z0-9]{4,6}-?[a-z0-9]{4,6}\s+){3,}[a-z0-9]{4,6}-?[a-z0-9]{4,6})"
)
_HEX_KEY = re.compile(r"(?i)\bprivate\s+key\b[^:\n]{0,60}:\s*(?:0x)?([a-f0-9]{64})\b")


def _file_formats(text: str) -> bool:
    found = (p.search(text) for p in (_SEED, _PGPASS, _WIFI, _RECOVERY_CODES, _HEX_KEY))
    return any(m is not None and not is_placeholder(m.group(1)) and looks_filled(m.group(1)) for m in found)


# -- a random token with no label ------------------------------------------------------------------------------

_TOKEN = re.compile(r"(?<![A-Za-z0-9+/=_\-])[A-Za-z0-9+/=_\-]{40,}(?![A-Za-z0-9+/=_\-])")
_PUBLIC_CONTEXT = re.compile(
    r"(?:ssh-(?:rsa|dss|ed25519)|ecdsa-sha2-\S+|sk-ssh-\S+|data:[\w/+.\-]*;base64,|sha(?:256|384|512)[-:]"
    r"|integrity=?[\"']?|fingerprint(?:\s+is)?:?\s*(?:sha\d+:|md5:)?"
    r"|\w+://\S*|www\.\S*)\s*$",
    re.IGNORECASE,
)
# Keys made to be published: Stripe's and Mapbox's publishable ones, a value named a public key.
_PUBLISHABLE = re.compile(r"^[\"']?(?:pk_(?:live|test)_|pk\.)")
_NAMED_PUBLIC = re.compile(r"(?i)public[_\-\s]?key\s*[:=]\s*[\"']?$")
_PUBLIC_BLOCK = re.compile(
    r"-----BEGIN (?:CERTIFICATE|PUBLIC KEY|RSA PUBLIC KEY|PGP PUBLIC KEY BLOCK|[A-Z ]*REQUEST)-----"
)


def _entropy(value: str) -> float:
    from detect_secrets.plugins.high_entropy_strings import Base64HighEntropyString

    return Base64HighEntropyString().calculate_shannon_entropy(value)


def _class_changes(value: str) -> float:
    """How often neighbouring characters change class (upper, lower, digit, symbol): ~0.65 for random base64."""

    def kind(c: str) -> int:
        return 0 if c.isupper() else 1 if c.islower() else 2 if c.isdigit() else 3

    return sum(kind(a) != kind(b) for a, b in itertools.pairwise(value)) / (len(value) - 1)


def _decodes_to_text(value: str) -> bool:
    """Whether ``value`` is base64 of ordinary text (mostly printable characters once decoded)."""
    padded = value + "=" * (-len(value) % 4)
    try:
        raw = base64.b64decode(padded, altchars=b"-_" if "-" in value or "_" in value else None, validate=True)
    except (binascii.Error, ValueError):
        return False
    if not raw:
        return False
    printable = sum(32 <= b < 127 or b in (9, 10, 13) for b in raw)
    return printable / len(raw) > 0.9


def _bare_token(text: str) -> bool:
    public_blocks = [m.start() for m in _PUBLIC_BLOCK.finditer(text)]
    for m in _TOKEN.finditer(text):
        value = m.group(0)
        if re.match(r"sha(?:256|384|512)-", value):
            continue  # a subresource integrity hash
        if not all(any(test(c) for c in value) for test in (str.isupper, str.islower, str.isdigit)):
            continue  # hex digests, UUIDs and words have no mix of all three
        before = text[max(0, m.start() - 80) : m.start()]
        if _PUBLIC_CONTEXT.search(before) or _NAMED_PUBLIC.search(before) or _PUBLISHABLE.match(value):
            continue  # a URL's path, a public key, a data URI, a subresource hash, a publishable key
        if any(start < m.start() and "-----END" not in text[start : m.start()] for start in public_blocks):
            continue
        if _class_changes(value) < 0.4 or _entropy(value) <= 4.5 or _decodes_to_text(value) or not looks_filled(value):
            continue
        return True
    return False


# A provider's token as most now issue them: a short lower-case marker ending in "_" or "-" ("dckr_pat_", "sbp_",
# "sk-or-v1-"), then a random run. The marker is what tells it from a hash or an identifier; a publishable key or
# an object id ("cus_", "req_") has a short run or is public.
_PREFIXED = re.compile(
    r"(?<![A-Za-z0-9_\-./+])(?P<mark>[a-z][a-z0-9]{1,7}(?:[_\-][a-z0-9]{1,7}){0,2}[_\-])(?P<run>[A-Za-z0-9]{24,})"
    r"(?![A-Za-z0-9+/=])"
)


_DIGEST = re.compile(r"(?i)^(?:sha|md5|blake|crc|xxh|commit|rev|build|hash|digest|checksum)")
# Object ids issued with a marker too ("msg_", "chatcmpl-", "req_", "evt_"): random, but they name a thing.
_IDENTIFIER_MARK = re.compile(
    r"^(?:msg|message|call|run|asst|thread|file|chatcmpl|cmpl|resp|ch|pi|cus|evt|req|request|trace|span|turn|sess|"
    r"session|id|uid|order|ord|txn|acct|sub|price|inv|po|seti|src|user|usr|org|team|conn|job|task|event|batch|ref|"
    r"img|doc|item|node|obj)[_\-]"
)
# A marker that says secret: a shorter random run after it is one too ("dckr_pat_...").
_SECRET_MARK = re.compile(r"pat|key|tok|secret|sk|api|live|auth|pass|priv|cred|access|bot")
_CLASSES = (str.isupper, str.islower, str.isdigit)


def _prefixed_token(text: str) -> bool:
    for m in _PREFIXED.finditer(text):
        run = m.group("run")
        if _PUBLISHABLE.match(m.group(0)) or _DIGEST.match(m.group("mark")) or not looks_filled(run):
            continue
        if _decodes_to_text(run):
            continue
        mark, mixed = m.group("mark").lower(), sum(any(test(c) for c in run) for test in _CLASSES)
        if _IDENTIFIER_MARK.match(mark):
            continue
        if all(c in "0123456789abcdef" for c in run):  # a hex run: a trace or request id is 32 long, a key 40 or more
            if len(run) >= 40 and _entropy(run) > 3.3:
                return True
        elif mixed >= 2 and _entropy(run) > 3.8 and (len(run) >= 32 or _SECRET_MARK.search(mark)):
            return True
    return False


VALUE_DETECTORS: tuple[tuple[str, Callable[[str], bool]], ...] = (
    ("a connection string with a password", _url_password),
    ("a password", _passwords),
    ("a PIN or access code", _pins),
    ("a card security code", lambda text: bool(_CVV.search(text))),
    ("a recovery phrase, code or key file line", _file_formats),
    ("a bearer token", _bearer),
    ("a basic-auth credential", _basic),
    ("an API key or token", _labelled_keys),
    ("a provider's prefixed token", _prefixed_token),
    ("a high-entropy secret", _bare_token),
)
