"""(internal) Credentials known by what names them: a password, a PIN, a key after its label, a URL's password.

A password is read by its label (``secret_passwords``) or where code or a command line gives it (``secret_code``);
a PIN, a card's security code, a key or token after its label, a bearer or basic credential, a URL's password and
a few file formats are read here. A random-looking token of 40 or more characters with no label at all (a bare
cloud secret in a metadata value) is one too, unless it is a hash, a URL's path, a public key, a certificate or
base64 of ordinary text.
"""

from __future__ import annotations

import base64
import binascii
import itertools
import re
import unicodedata
from collections.abc import Callable

from tiermem.trust.secret_code import ATTRIBUTE_PAIR, code_password
from tiermem.trust.secret_columns import column_password
from tiermem.trust.secret_files import file_formats
from tiermem.trust.secret_formats import documentation_jwt, looks_filled
from tiermem.trust.secret_languages import foreign_code, foreign_password, integration_key, wifi_key
from tiermem.trust.secret_passwords import labelled_password
from tiermem.trust.secret_pins import dialled_code, measured, pins_after_words
from tiermem.trust.secret_placeholders import is_placeholder
from tiermem.trust.secret_shapes import shaped_credential

__all__ = ["VALUE_DETECTORS", "is_placeholder"]


# A text that says the password it gives is an example and in use nowhere ("the manual's example ... never
# deployed", "shown as an illustration, not a real password"): both must be said, as either alone is said of real
# passwords too ("for example, the password is ...", "never used it since").
_AN_EXAMPLE = re.compile(
    r"(?i)\b(?:(?:docs|documentation|manual|tutorial|guide|handbook|readme|vendor)(?:['\u2019]s?)?\s+"
    r"(?:own\s+)?(?:example|sample)|(?:as|for)\s+(?:an?\s+)?illustration|illustrative)\b"
)
_IN_USE_NOWHERE = re.compile(
    r"(?i)\b(?:never\s+(?:deployed|used\s+(?:anywhere|in\s+production)|in\s+use)|not\s+(?:in\s+use|deployed)"
    r"|not\s+a\s+real\s+(?:password|credential|secret)|no\s+real\s+(?:password|credential|secret))\b"
)


# The documentation's own value, named as its ("the page ... encodes its sample password ..."), after the docs
# are named as the source (``_AN_EXAMPLE``).
_ITS_SAMPLE = re.compile(r"(?i)\b(?:its|their)\s+(?:own\s+)?(?:sample|example)\s+(?:password|passphrase|secret)\b")


# An app password as a provider shows it once: four groups of four small letters ("abcd efgh ijkl mnop").
_APP_PASSWORD = re.compile(
    r"(?i)\bapp(?:[\s_\-]specific)?[\s_\-]pass(?:word|wort|e)?\b[^\n:=]{0,60}[:=]\s*"
    r"(?-i:[a-z]{4}(?:[\s\-][a-z]{4}){3})(?![A-Za-z])"
)


def _passwords(text: str) -> bool:
    if _APP_PASSWORD.search(text):
        return True
    if _AN_EXAMPLE.search(text) and (_IN_USE_NOWHERE.search(text) or _ITS_SAMPLE.search(text)):
        return False
    return (code_password(text) or labelled_password(text) or column_password(text) or foreign_password(text)) or (
        wifi_key(text) or shaped_credential(text)
    )


# A door's or a PIN's code named in another language: "Türcode", "digicode", "código de la puerta", "kod do drzwi".
_FOREIGN_PIN = (
    r"(?:t[üu]r|haust[üu]r|tor|zugangs|eingangs|tresor|schloss|garagen|alarm|deur|poort|toegangs|kluis)[\s\-]?code"
    r"|digicode|geheimzahl|cijferslot|cijfercode|zahlenschloss|nummernschloss|pin[\s_\-]*(?:nummer|kod|numero|número|numéro)"
    # a code lock and a door's code in the Nordic languages ("kodlåset", "portkoden"); a card's "password" in Turkish
    r"|kodl[åa]s(?:et)?|(?:d[öoø]rr?|port|l[åa]s|grind|garage)kod(?:e|en)?|kart[\u0131i]?(?:n[\u0131i]n)?\s+[şs]ifre(?:si)?"
    r"|(?:c[óo]digo|code|codice|kod)\s+(?:(?:de|del|da|do|della|dell['\u2019]|di|du|des|dla|d['\u2019])\s*)?"
    r"(?:la\s+|l['\u2019]\s*|el\s+|o\s+|a\s+)?(?:puerta|port[óo]n|portal|entrada|acceso|alarma|porte|portail|"
    r"entr[ée]e|acc[èe]s|alarme|immeuble|cancello|portone|porta|ingresso|accesso|allarme|port[ãa]o|acesso|drzwi|bramy|"
    r"furtki|domofonu|dost[ęe]pu|alarmu|pin|sblocco|desbloqueo|desbloqueio|d[ée]verrouillage)(?![A-Za-z])"
    # which door, named after it ("le code de la porte d'entrée")
    r"(?:\s+d['\u2019]\s*[^\W\d_]+)?"
)
_PIN_IS = r"(?:is|was|ist|lautet|war|es|est|era|è|é|e|luidt|jest|to|wynosi)"
_PIN = re.compile(
    r"(?i)(?<![A-Za-z])(?P<label>pin(?:[\s_\-]*(?:code|number|no\.?|#)|[_\-][^\W\d_]{2,12})?|pincode|puk(?:[\s_\-]*code)?|暗証番号(?:は)?"
    r"|(?:door|alarm|gate|garage|safe|lock|"
    r"entry|keypad|access|entrance|building|locker|lock\s?box|key\s?box|key\s?safe)(?:[\s_\-][a-z]+)?[\s_\-]code|(?:safe|lock)[\s_\-]combination|"
    r"combination|(?:safe|lock|padlock)[\s_\-]combo|" + _FOREIGN_PIN + r")"
    # what the code opens, named after it ("PIN der EC-Karte:", "el PIN de la tarjeta es"), then a colon or an "is"
    r"(?:\s+(?:of|for|on|de|del|der|des|du|van|von|vom|da|do|della|di|für|zum|zur|till|för|dla)"
    r"(?:\s+[\w'\u2019.\-]+){1,6}?"
    # a remark on it in brackets ("PIN for the card (ending 1234): ...")
    r"(?:\s*\([^()\n]{1,40}\))?"
    r"(?:\s+" + _PIN_IS + r"\s*[:=]?|\s*[:=])"
    # or the place it opens named before the colon ("Türcode Hintereingang:", "safe combination room 12:")
    r"|\s+[^\W\d_][\w\-]*(?:\s+(?:[^\W\d_][\w\-]*|\d{1,4})){0,3}\s*:"
    r"|(?:\s+(?:" + _PIN_IS + r"|for\s+[\w\s'\u2019]{1,30}?\s+is))?\s*[:=#-]?)\s*"
    # the code's name again before it ("...: kod 5512")
    r"(?:(?:kod|koden|kode|code|c[óo]digo|codice|pin)\s+)?"
    # a keypad's code may hold a letter among its digits ("2B417")
    r"(?P<value>\d{4,8}|\d{1,3}(?:[ -]\d{1,3}){2,4}|(?=[\dA-D]{4})\d{1,4}[A-D]\d{1,4}|[A-D]\d{4,6})#?(?![\d/:]|[.,]\d)"
)
# A code told by what it does: "disarm with 4417", "unlock it using 903311".
_CODE_USED = re.compile(
    r"(?i)\b(?:disarm|unlock|unset|deactivate)\w*\s+(?:it\s+|the\s+[a-z]+\s+)?(?:with|using|by\s+(?:entering|typing))"
    r"\s+(\d{4,8})(?![\d/:]|[.,]\d)"
)
# A code keyed in and ended with "#", as a keypad takes it ("code 7392#"), even with no door named.
_KEYPAD = re.compile(r"(?i)(?<![A-Za-z])(?:code|kod|kode|c[óo]digo|codice|pin)\s*[:=]?\s*(\d{4,8})#(?![\w#])")
_CARD_CONTEXT = re.compile(r"(?i)\b(?:card|bank|debit|atm|sim|phone)\b")


def _marks_optional(word: str) -> str:
    """``word`` as a pattern matching it with or without its combining marks (a text is also read bare of them)."""
    return "".join(re.escape(c) + ("?" if unicodedata.category(c).startswith("M") else "") for c in word)


# Where an Indian postal PIN is written: an address or a delivery named, or an address's parts set off by commas.
_POSTAL_CONTEXT = re.compile(
    r"(?i)\b(?:ship(?:ped|ping)?|deliver\w*|address\w*|post(?:al)?|courier|parcel|city|district|state|india|"
    r"road|street|nagar|colony|sector|village|town)\b"
    # and in Hindi (address, delivery, sector, city, district), read with or without its vowel signs
    r"|" + "|".join(_marks_optional(word) for word in ("पता", "डिलीवरी", "सेक्टर", "नगर", "शहर", "ज़िला", "जिला"))
)
_ADDRESS_PARTS = re.compile(r"\b[A-Z][\w.\- ]*,[^,\n]+,\s*$")
_DEVICE_WORDS = re.compile(r"(?i)\b(?:door|alarm|gate|garage|safe|lock|locker|keypad|entry|building|vault)\b")


def _postal(label: str, value: str, before: str, after: str) -> bool:
    """Whether a six-digit PIN is an Indian postal code: "PIN code 560001" with no card in sight, or a bare "PIN"
    in an address ("Ship to Pune, PIN 411001", "Flat 2, Baner, Pune, PIN 411045"), where no card or lock is named."""
    if not re.fullmatch(r"[1-9]\d{5}", value) or _CARD_CONTEXT.search(before[-40:] + after[:40]):
        return False
    if re.fullmatch(r"pin\s*code|pincode", label):
        return True
    place = _POSTAL_CONTEXT.search(before) is not None or _ADDRESS_PARTS.search(before) is not None
    return label == "pin" and place and _DEVICE_WORDS.search(before + after[:40]) is None


def _pins(text: str) -> bool:
    if (
        foreign_code(text)
        or dialled_code(text)
        or any(len(set(m.group(1))) > 1 for p in (_CODE_USED, _KEYPAD) for m in p.finditer(text))
    ):
        return True
    for m in _PIN.finditer(text):
        label, value = m.group("label").lower(), m.group("value")
        if len(set(value.replace(" ", "").replace("-", ""))) == 1 and len(value) > 4:
            continue  # 000000
        if _postal(label, value, text[max(0, m.start() - 80) : m.start()], text[m.end() :]):
            continue  # in India a "PIN" is also a postal code
        if measured(text[m.end("label") : m.start("value")], text, m.end("value")):
            continue  # "PIN entry timeout: 3000 ms"
        return True
    return any(not _postal(label, value, text[max(0, at - 80) : at], "") for label, value, at in pins_after_words(text))


_CVV = re.compile(
    r"(?i)\b(?:cvv2?|cvc2?|cid|card\s+security\s+code|security\s+code)\b\s*(?:is\s*)?[:=#]?\s*(\d{3,4})\b"
)

# Labels of keys and tokens; the value after one must look random (a word or a short number is not a key).
# A label inside a resource's name (``arn:aws:secretsmanager:...:secret:prod/db``) names a kind of resource, and what
# follows it is the resource's path. A key may be named in the owner's language ("API-Schlüssel", "clé d'API") and
# for what it is ("PagerDuty REST key (read only) for the bot: ...").
_KEY_LABEL = re.compile(
    r"(?i)(?<![A-Za-z0-9:/])(?P<label>api[_\-\s]?(?:key|secret|token)|apikey|(?:rest|integration|routing|service)"
    r"(?:[_\-\s]api)?[_\-\s]key|api[_\-\s]?schl(?:ü|u|ue)ssel|cl[ée]\s+(?:d['\u2019]\s*)?api|clave\s+(?:de\s+)?api"
    r"|chiave\s+api|chave\s+(?:d[ae]\s+)?api|(?:klucz|cheia?|ключ)\s+api|api[_\-\s]?(?:sleutel|nyckel(?:n)?|n[øo]g(?:le|kel)"
    r"(?:n)?|kulcs|kl[íi][čc]|ключ)|admin(?:istrator)?[_\-\s]?(?:api[_\-\s]?)?key|access[_\-\s]?(?:token|key"
    r"(?:[_\-\s]?id)?|secret)|auth(?:entication|orization)?[_\-\s]?(?:token|key)|refresh[_\-\s]?token|client[_\-\s]?"
    r"secret|app[_\-\s]?(?:secret|key)|consumer[_\-\s]?secret|secret[_\-\s]?key[_\-]base"
    r"|secret[_\-\s]?(?:access[_\-\s]?)?key|private[_\-\s]?"
    r"key|signing[_\-\s]?(?:key|secret)|encryption[_\-\s]?key|master[_\-\s]?key|session[_\-\s]?token|webhook[_\-\s]?"
    r"secret|x-api-key|bot[_\-\s]?token|secret|token|(?:2fa|mfa|otp|totp)[_\-\s]?(?:seed|secret|key)"
    # a provider's own header for its key (``Service-Key:``), not a header naming an id or a public value
    r"|(?-i:(?!(?:Idempotency|Public|Partition|Sort|Cache|Primary|Foreign|Row|Range|Hash|Correlation|Request|Trace)-)"
    r"(?:[A-Z][A-Za-z0-9]*-)+(?:Key|Token|Secret))(?=:))"
    # the service's name before what the key is for ("Clé API <service> pour ...:")
    r"(?![A-Za-z0-9])(?:\s*\([^()\n]{1,24}\))?(?:(?:\s+[^\W\d_][\w\-]*)?"
    r"\s+(?:for|of|to|on|at|für|fur|de|del|pour|per|voor|för|til|para|dla|do|pentru)"
    r"(?:\s+[\w'\u2019.\-]+){1,5}?(?=\s*:))?"
    # a literal of bytes or a raw string is quoted after its letter (``b'...'``); a name with nothing after its "="
    # (an empty line of a ``.env`` file) is no label of the next line
    r"[\"'\]]{0,2}\s*(?:(?::=|=>|:)\s*|=[^\S\n]*|\s+is\b:?\s*|\s\s*)(?:[bBrRuU](?=[\"']))?"
    # an empty entry is followed by the next one, a name in capitals and its "=" (``API_KEY= OTHER_NAME=...``)
    r"(?:\"([^\"\n]{8,})\"|'([^'\n]{8,})'|(?-i:(?![A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+=))([A-Za-z0-9_\-+/=.~!@#$%^&*]{12,}))"
)


# An OpenPGP key's id as gpg lists it, its algorithm and size before a slash (``rsa4096/`` then 16 hex digits):
# the public key's name, printed on key servers.
_PGP_KEY_ID = re.compile(r"(?i)^(?:rsa|dsa|elg|ed25519|cv25519|nistp\d+|brainpool\w+)\d*/(?:0x)?[0-9a-f]{8,40}$")


def _random_value(value: str, label: str) -> bool:
    value = value.strip().rstrip(".,;")
    if _PGP_KEY_ID.match(value):
        return False
    if is_placeholder(value) or not looks_filled(value) or " " in value or _PUBLISHABLE.match(value):
        return False
    if documentation_jwt(value):
        return False  # the documentation's sample token, after the word "token"
    least = 20 if label in {"token", "secret"} else 12
    has_letter = any(c.isalpha() for c in value)
    has_digit = any(c.isdigit() for c in value)
    return len(value) >= least and has_letter and (has_digit or len(set(value)) >= 16)


# A key's name in a key and value pair of attributes (``<add key="ApiToken" value="..." />``).
_NAMES_A_KEY = re.compile(r"(?i)secret|token|api[_\-]?key|(?:access|private|signing|master)[_\-]?key")


def _labelled_keys(text: str) -> bool:
    for m in ATTRIBUTE_PAIR.finditer(text):
        if _NAMES_A_KEY.search(m["key"]) and _random_value(m["value"], "secret"):
            return True
    for m in _KEY_LABEL.finditer(text):
        value = next(v for v in m.groups()[1:] if v is not None)
        if m.group(4) is not None and text.startswith(("(", "["), m.end()) and is_placeholder(value + text[m.end()]):
            continue  # a call or an item the bare run stops before (``secret = client.kv.read_secret(...)``): code
        if _random_value(value, m.group("label").lower()):
            return True
    return False


# A key in a URL's query (``?q=Porto&appid=...``, ``&api_key=...``): the service reads the caller's key there.
_QUERY_KEY = re.compile(
    r"(?i)[?&;](?:app_?id|app_?key|api_?key|apikey|key|token|access_token|auth_token|auth|secret|client_secret)"
    r"=([A-Za-z0-9_\-]{16,})(?=[&#\s\"'<>)]|$)"
)


def _query_keys(text: str) -> bool:
    """Whether a URL in ``text`` carries a key in its query: random, not words joined (``?key=user-profile-v2``)."""
    return any(_random_value(m.group(1), "query") and not _joined_words(m.group(1)) for m in _QUERY_KEY.finditer(text))


def _joined_words(value: str) -> bool:
    """Whether ``value`` is words joined by dashes or underscores (``user-profile-v2``), as a name is written."""
    parts = re.split(r"[_\-]", value)
    return len(parts) > 1 and any(re.fullmatch(r"[a-z]{3,}|[A-Z][a-z]{2,}", part) for part in parts)


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
# Oracle's JDBC URL gives its login as user/password before "@" ("jdbc:oracle:thin:scott/...@//host:1521/svc").
_ORACLE_LOGIN = re.compile(r"(?i)\bjdbc:oracle:(?:thin|oci\d*):([^\s:/@\"'<>]+)/([^\s@\"'<>]+)@")


def _url_password(text: str) -> bool:
    found = itertools.chain(_URL_PASSWORD.finditer(text), _ORACLE_LOGIN.finditer(text))
    return any(len(m.group(2)) >= 4 and not is_placeholder(m.group(2)) for m in found)


# -- the formats of a few files and codes -----------------------------------------------------------------------

# -- a random token with no label ------------------------------------------------------------------------------

# "=" ends a run as base64 pads it: inside one it parts a name from its value (``TENANT_ID=<uuid>``).
_TOKEN = re.compile(r"(?<![A-Za-z0-9+/_\-])[A-Za-z0-9+/_\-]{40,}={0,2}(?![A-Za-z0-9+/=_\-])")
_PUBLIC_CONTEXT = re.compile(
    r"(?:(?<![A-Za-z0-9])pk\.|ssh-(?:rsa|dss|ed25519)|ecdsa-sha2-\S+|sk-ssh-\S+|data:[\w/+.\-]*;base64,|sha(?:256|384|512)[-:]"
    r"|integrity=?[\"']?|fingerprint(?:\s+is)?:?\s*(?:sha\d+:|md5:)?"
    # a Go module's hash in go.sum ("h1:" then base64 of a SHA-256)
    r"|(?<![A-Za-z0-9])h1:"
    r"|\w+://\S*|www\.\S*)\s*$",
    re.IGNORECASE,
)
# Keys made to be published: Stripe's and Mapbox's publishable ones, a value named a public key.
_PUBLISHABLE = re.compile(r"^[\"']?(?:pk_(?:live|test)_|pk\.)")
# The head of a hash in modular crypt form (``$2b$12$``, ``$argon2id$v=19$m=65536,t=3,p=4$``): what a store keeps
# instead of the password, so the run after it is a salt and a digest.
_CRYPT_HEAD = re.compile(
    r"\$(?:2[abxy]?|1|5|6|7|y|gy|apr1|md5|sha\d*|argon2(?:id|i|d)|scrypt|pbkdf2[\w-]*)\$(?:[^\s$]*\$)*[./\w]*$"
)
# A value named a public key, also with what it is for between ("public key for web push: ..."), never a private one.
# A JSON Web Token's header and claims, before its signature.
_SIGNED_CLAIMS = re.compile(r"eyJ[A-Za-z0-9_\-]+\.eyJ[A-Za-z0-9_\-]+\.$")
_NAMED_PUBLIC = re.compile(
    r"(?i)public[_\-\s]?key(?:\s+(?!(?:and|or|&|private|secret)\b)[\w\-]+){0,4}"
    # a remark in brackets, that says no private key follows ("public key (ships in the app bundle): ...")
    r"(?:\s*\((?![^()\n]*\b(?:private|secret)\b)[^()\n]{1,80}\))?\s*[:=]\s*[\"']?$"
)
# A request's id in a response's headers (``x-amz-id-2: ...``): random, and it names a request, not a caller.
_REQUEST_ID = re.compile(
    r"(?i)(?:x-amz-id-2|x-amz-cf-id|x-amzn-requestid|(?:request|trace|correlation)[_\-\s]?id)\s*[:=]\s*[\"']?$"
)
# A public member of a JSON Web Key (an RSA key's modulus and exponent, a curve's point, a certificate's print); the
# private members ("d", "p", "q", "dp", "dq", "qi") are secrets.
_JWK_PUBLIC = re.compile(r"\"(?:kid|n|e|x|y|x5c|x5t|x5t#S256)\"\s*:\s*\[?\s*\"$")
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


def _der_length(raw: bytes, at: int) -> tuple[int, int]:
    """The length of the DER element whose length starts at ``at``, and where its content starts."""
    first = raw[at]
    if first < 0x80:
        return first, at + 1
    width = first & 0x7F
    return int.from_bytes(raw[at + 1 : at + 1 + width], "big"), at + 1 + width


def _public_key_der(value: str) -> bool:
    """Whether ``value`` is base64 of a public key as X.509 gives one (a DKIM record's ``p=``): a sequence holding an
    algorithm's sequence, then a bit string. A private key's holds a version number there instead."""
    head = value[:64]
    try:
        raw = base64.b64decode(head + "=" * (-len(head) % 4), validate=True)
        if raw[0] != 0x30:
            return False
        _, inner = _der_length(raw, 1)
        if raw[inner] != 0x30:
            return False
        length, content = _der_length(raw, inner + 1)
        return raw[content + length] == 0x03
    except (binascii.Error, ValueError, IndexError):
        return False


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
        signed = _SIGNED_CLAIMS.search(text, max(0, m.start() - 4000), m.start())
        if signed is not None and documentation_jwt(signed.group(0) + value):
            continue  # the signature of the documentation's sample token
        if _CRYPT_HEAD.search(before):
            continue  # a password's hash, which the docs promise is stored
        if _REQUEST_ID.search(before) or (_JWK_PUBLIC.search(before) and '"kty"' in text) or _public_key_der(value):
            continue
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
    ("a recovery phrase, code or key file line", file_formats),
    ("a bearer token", _bearer),
    ("a basic-auth credential", _basic),
    ("an API key or token", lambda text: _labelled_keys(text) or _query_keys(text) or integration_key(text)),
    ("a provider's prefixed token", _prefixed_token),
    ("a high-entropy secret", _bare_token),
)
