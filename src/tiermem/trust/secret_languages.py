"""(internal) A password, a Wi-Fi key or a door's code named in another language, read from one table of words.

Each language names a password ("salasana", "contraseña"), says "is" ("on", "es"), joins what the password is for
("del wifi", "bij oma"), names a code and what it opens ("kod till porten"), a lock that is opened by a code alone
("Zahlenschloss", "candado de combinación") and a network's key ("Netzwerkschlüssel", "clé"). The patterns below are
built from the table, so a language is added by adding its row. A password counts when it is shaped like one
(``secret_passwords.shaped``); a code only after a word that names a code, never any number after any word.
"""

from __future__ import annotations

import re

from tiermem.trust.secret_formats import looks_filled
from tiermem.trust.secret_labels import a_property_value
from tiermem.trust.secret_language_rows import MORE_LANGUAGES
from tiermem.trust.secret_language_rows import Words as _Words
from tiermem.trust.secret_language_rows_asia import ASIA
from tiermem.trust.secret_language_rows_europe import EUROPE
from tiermem.trust.secret_passwords import shaped
from tiermem.trust.secret_placeholders import is_placeholder

__all__ = ["KEY_WORDS", "NETWORK_WORDS", "foreign_code", "foreign_password", "integration_key", "wifi_key"]


_LANGUAGES: dict[str, _Words] = {
    "es": _Words(
        password=(r"contrase[ñn]a", r"clave\s+de\s+acceso"),
        is_=("es", "era", "será"),
        of=("de", "del", "de la", "para", "en"),
        code=(r"c[óo]digo",),
        opens=("puerta", "portal", "port[óo]n", "candado", "trastero", "garaje", "alarma", "caja fuerte"),
        lock=(r"candado\s+de\s+combinaci[óo]n", r"combinaci[óo]n(?:\s+del?\s+(?:candado|caja\s+fuerte))?"),
        key=("clave",),
        network=("wifi", "wi-fi", "red", "router"),
    ),
    "fr": _Words(
        password=(r"mot\s+de\s+passe",),
        is_=("est", "était", "sera", r"c['\u2019]est"),
        of=("de", "du", "de la", "des", "pour", "chez"),
        code=("code",),
        opens=("porte", "portail", "cadenas", "garage", "alarme", "coffre", "immeuble"),
        lock=(r"cadenas\s+[àa]\s+code", r"combinaison(?:\s+du\s+(?:cadenas|coffre))?"),
        door=("digicode",),
        key=(r"cl[ée]f?", r"cl[ée]\s+(?:de\s+s[ée]curit[ée]|r[ée]seau|wpa2?)"),
        network=("wifi", "wi-fi", r"r[ée]seau", "box", "livebox", "freebox"),
    ),
    "de": _Words(
        password=("passwort", "kennwort"),
        is_=("ist", "lautet", "war"),
        of=("für", "fur", "vom", "von", "der", "des", "bei", "zum", "zur"),
        code=("code",),
        opens=("tür", "tur", "tor", "schloss", "garage", "tresor", "haustür", "briefkasten"),
        lock=(
            r"zahlenschloss",
            r"kombinationsschloss",
            r"codeschloss",
            r"(?:fahrrad|spind|koffer)schloss",
            r"zahlencode",
        ),
        door=(r"(?:haus)?t(?:ü|u|ue)rcode", r"(?:tor|garagen|alarm)code"),
        key=(r"(?:netzwerk|wlan|wifi|wpa2?|sicherheits)[\s\-]?schl(?:ü|u|ue)ssel", r"schl(?:ü|u|ue)ssel"),
        network=("wlan", "wifi", "wi-fi", "netzwerk", "router", "fritz", "box"),
    ),
    "nl": _Words(
        password=("wachtwoord",),
        is_=("is", "was", "luidt"),
        of=("van", "voor", "bij", "op"),
        code=("code",),
        opens=("deur", "poort", "slot", "hangslot", "kluis", "garage", "fietsenhok"),
        lock=(r"cijferslot", r"combinatieslot", r"codeslot"),
        door=(r"(?:deur|poort|garage|alarm)code",),
        key=(r"(?:netwerk|wifi|wpa2?)?sleutel",),
        network=("wifi", "wi-fi", "wlan", "netwerk", "router"),
    ),
    "sv": _Words(
        password=(r"l[öo]senord",),
        is_=("är", "var"),
        of=("till", "för", "på", "hos"),
        code=("kod", "koden"),
        opens=("porten", "dörren", "grinden", "entrén", "hänglåset", "förrådet", "garaget", "port", "dörr"),
        lock=(r"kodl[åa]s(?:et)?", r"siffrel[åa]s(?:et)?"),
        door=(r"(?:port|d[öo]rr|grind|garage|larm)kod(?:en)?",),
        key=(r"(?:n[äa]tverks|wifi|wpa2?)?nyckel(?:n)?",),
        network=("wifi", "wi-fi", "wlan", r"n[äa]tverk", "router"),
    ),
    "fi": _Words(
        password=("salasana",),
        is_=("on", "oli"),
        code=("koodi",),
        opens=("oveen", "ovelle", "porttiin", "lukkoon"),
        lock=(r"(?:yhdistelm[äa]|numero)lukko", r"(?:ovi|pin-?)koodi", "tunnusluku"),
        # what the code opens in the genitive before it ("avainboksin koodi": the key box's code)
        door=(r"(?:portti|h[äa]lytys)koodi", r"(?:avainboksin|avainkaapin|kassakaapin|lukon|oven)\s+koodi"),
        key=(r"(?:verkko|wlan|wifi)?avain",),
        network=("wifi", "wi-fi", "wlan", "verkko", "reititin"),
    ),
    "tr": _Words(
        password=(r"[şs]ifre", r"parola"),
        is_=("ise",),
        code=(r"kod(?:u|um)?", r"[şs]ifre(?:si)?"),
        opens=(r"kap[\u0131i](?:n[\u0131i]n)?", r"kilit", r"kasa"),
        lock=(r"[şs]ifreli\s+kilit", r"pin['\u2019](?:i|\u0131|im|in|niz|imiz)"),
        key=(r"a[ğg]\s+anahtar[\u0131i]", r"anahtar[\u0131i]?"),
        network=("wifi", "wi-fi", "kablosuz", "modem"),
    ),
    "it": _Words(
        password=(r"parola\s+d['\u2019]ordine",),
        is_=("è", "era"),
        of=("di", "del", "della", "per", "da"),
        code=("codice",),
        opens=(
            *("porta", "portone", "cancello", "lucchetto", "cassaforte", "garage", "allarme"),
            r"cassetta\s+di\s+sicurezza",  # a safe deposit box
        ),
        lock=(r"lucchetto\s+a\s+combinazione", r"combinazione(?:\s+del(?:la)?\s+(?:lucchetto|cassaforte))?"),
        key=(r"chiave(?:\s+di\s+rete)?",),
        network=("wifi", "wi-fi", "rete", "router", "modem"),
    ),
    "pt": _Words(
        password=("senha",),
        is_=("é", "era"),
        of=("de", "do", "da", "para"),
        code=(r"c[óo]digo",),
        opens=("porta", r"port[ãa]o", "cadeado", "cofre", "garagem", "alarme"),
        lock=(r"cadeado\s+de\s+(?:c[óo]digo|combina[çc][ãa]o)", r"combina[çc][ãa]o\s+do\s+(?:cadeado|cofre)"),
        key=(r"chave(?:\s+de\s+rede)?",),
        network=("wifi", "wi-fi", "rede", "router", "roteador"),
    ),
    **MORE_LANGUAGES,
    **EUROPE,
    **ASIA,
}


def _either(fragments: list[str]) -> str:
    return "(?:" + "|".join(sorted(set(fragments), key=len, reverse=True)) + ")"


def _all(field: str) -> list[str]:
    return [w for words in _LANGUAGES.values() for w in getattr(words, field)]


def _password_pattern(words: _Words) -> re.Pattern[str]:
    of = _either(list(words.of)) if words.of else "(?!)"
    return re.compile(
        r"(?i)(?<![^\W\d_])" + _either(list(words.password)) + r"\w*"
        # whose or where, in one word, maybe with a remark after it ("Wifi-wachtwoord thuis:", "Passwort NAS (Büro):")
        r"(?:\s+[^\W\d_][\w\-]*(?=\s*[:=(]))?"
        # what the password is for ("del wifi del despacho"), a remark in brackets, then a colon or "is"
        r"(?:\s+" + of + r"(?:\s+[^\s:()]+){1,5}?)?(?:\s*\([^()\n]{1,40}\))?"
        r"(?:\s*[:=]|\s+" + _either(list(words.is_)) + r"\s*:?)[ \t]*[\"'\u201c\u00ab]?(?P<value>[^\s\"'\u201d\u00bb]+)"
    )


# What a value after a label must hold for the label to be read as a password's: letters with a digit or a sign;
# after a word naming any code, letters, a digit and a sign, as a strong password is made.
_SHAPED = r"(?=[^\s\"']*[A-Za-z])(?=[^\s\"']*[\d!#$%&*+=?@^~_\-])"
_STRONG_AHEAD = r"(?=[^\s\"']*[A-Za-z])(?=[^\s\"']*\d)(?=[^\s\"']*[!#$%&*+?@^~])"
_STRONG = re.compile(r"(?=.*[A-Za-z])(?=.*\d)(?=.*[!#$%&*+?@^~]).{8,}")


def _free_pattern(words: _Words, labels: tuple[str, ...], value: str) -> re.Pattern[str]:
    """A label of a language that may put words of its own before the colon or its "is" ("Mật khẩu tài khoản ...
    là ..."), or none ("hasło ..."), or that writes no space between words; ``value`` is what the value must hold."""
    tail = r"[^\s:=]*" if words.joined else r"[^\W\d_]*"
    gap = r"[^\n:=]{0,40}?" if words.joined else rf"(?:\s+[^\s:=()]+){{0,{words.gap}}}?"
    is_ = (r"\s*" if words.joined else r"\s+") + _either(list(words.is_)) + r"\s*:?" if words.is_ else "(?!)"
    # with no sign between, the value holds a digit, as a word after a label seldom does ("hasło do e-Urzędu")
    bare = r"|\s+(?=[^\s\"']*\d)" if words.bare else ""
    return re.compile(
        r"(?i)(?<![^\W\d_])" + words.prefix + _either(list(labels)) + tail + gap + r"(?:\s*\([^()\n]{1,40}\))?"
        r"(?:\s*[:=\u055d\u1365\u1366]|"
        + is_
        + r"|\s[\u2013\u2014\-]"
        + bare
        + r")[ \t]*[\"'\u201c\u00ab]?"
        + value
        + r"(?P<value>[^\s\"'\u201d\u00bb]+)"
    )


def _patterns(words: _Words) -> list[tuple[re.Pattern[str], bool]]:
    """The patterns of a language's passwords, each with whether its value must be made like a strong password."""
    if not (words.gap or words.bare or words.joined or words.loose or words.prefix):
        return [(_password_pattern(words), False)] if words.password else []
    found = [(_free_pattern(words, words.password, _SHAPED), False)] if words.password else []
    return found + ([(_free_pattern(words, words.loose, _STRONG_AHEAD), True)] if words.loose else [])


_PASSWORDS = tuple(found for words in _LANGUAGES.values() for found in _patterns(words))


def _loan_pattern(words: _Words, label: str, value: str) -> re.Pattern[str]:
    """The English ``label`` said in a sentence of ``words``' language, with its "of" before what the value is for
    and its colon or "is" before the value ("PIN ya ... ni ...", "password ng ... ay ...")."""
    return re.compile(
        r"(?i)(?<![^\W\d_])" + label + r"(?![^\W\d_])\s+" + _either(list(words.of)) + r"(?:\s+[^\s:=()]+){1,5}?"
        r"(?:\s*[:=]|\s+" + _either(list(words.is_)) + r"\s*:?)[ \t]*[\"'\u201c]?(?P<value>" + value + ")"
    )


_LOANS = tuple(words for words in _LANGUAGES.values() if words.loan and words.of and words.is_)
_LOAN_PASSWORDS = tuple(_loan_pattern(w, r"(?:password|passcode)", r"[^\s\"'\u201d]+") for w in _LOANS)
_LOAN_PINS = tuple(_loan_pattern(w, r"(?:pin|puk)\d?", r"\d{4,8}(?![\d/\-]|[.,:]\d)") for w in _LOANS)
# A word of another script between "password" and its value, a particle of that language ("... password <particle>
# <value>"): the value holds a digit, as a word after a label seldom does.
_PARTICLE = re.compile(r"(?i)(?<![^\W\d_])password\s+(?:[^\x00-\x7f\s]+\s+){1,2}(?P<value>(?=[!-~]*\d)[!-~]+)")
# A PIN named in capitals, then another language's "is" ("PIN1 on ..."): the capitals name the card's code, and a
# date after it ("PIN on 2024-05-01") is when something was done to it.
_PIN_IS = re.compile(
    r"(?<![^\W\d_])(?:PIN|PUK)\d?\s+(?i:" + _either(_all("is_")) + r")\s*:?\s*(?P<value>\d{4,8})(?![\d/\-]|[.,:]\d)"
)


def foreign_password(text: str) -> bool:
    """Whether ``text`` gives a password shaped like one after a label in its language (``salasana on ...``)."""
    for pattern, strong in (*_PASSWORDS, *((p, False) for p in (*_LOAN_PASSWORDS, _PARTICLE))):
        for m in pattern.finditer(text):
            value = m["value"].rstrip(".,;!?)")
            if not shaped(value) or value.startswith(("/", "~", "./")) or ":" in value or "=" in value:
                continue
            if text[m.start("value") - 1] == "-" or is_placeholder(value) or a_property_value(value):
                continue  # a command's option ("--query"), a store's path, or the manager that keeps the password
            if not strong or _STRONG.fullmatch(value):
                return True
    return False


# A code named, then words (where the door is: "till Sveavägen 42") and its language's "is" before the number.
def _code_is_pattern(words: _Words) -> re.Pattern[str]:
    of = _either([r"\s+(?:" + w + r")\s+" for w in words.of] + [r"\s+"])
    named = list(words.lock) + list(words.door)
    if words.code and words.opens:
        named.append(
            _either(list(words.code))
            + r"(?:"
            + of
            + r"(?:(?:la|el|le|l['\u2019]|der|die|das|de|het)\s*)?"
            + _either(list(words.opens))
            + r")"
        )
    return re.compile(
        r"(?i)(?<![^\W\d_])"
        + _either(named)
        + r"(?![^\W\d_])(?:\s+[^\s:=.!?]+){1,5}?\s+"
        + _either(list(words.is_))
        + r"\s*:?\s*(?P<value>\d{4,8})(?![\d/]|[.,:]\d)"
    )


_CODES_IS = tuple(
    _code_is_pattern(words)
    for words in _LANGUAGES.values()
    if words.is_ and (words.lock or words.door or (words.code and words.opens))
)


_OF = _either([r"\s+(?:" + w + r")\s+" for w in _all("of")] + [r"\s+"])
_CODE = re.compile(
    r"(?i)(?<![^\W\d_])(?:"
    + _either(_all("lock") + _all("door"))
    + r"|"
    + _either(_all("code"))
    + r"(?:"
    + _OF
    + r"(?:(?:la|el|le|l['\u2019]|der|die|das|de|het)\s*)?"
    + _either(_all("opens"))
    + r")"
    + r")(?![^\W\d_])(?:(?:\s+\w+){0,2}?\s*[:=\-]?|(?P<far>(?:\s+[^\s\d:=.!?]+){3,5}?\s*:))\s*"
    + r"(?P<value>\d{4,8}|\d{1,3}#\d{3,6})(?![\d/]|[.,:]\d)"
)
_YEAR = re.compile(r"(?:19|20)\d\d")


def foreign_code(text: str) -> bool:
    """Whether ``text`` gives a code after a word that names one in its language ("kod till porten ...",
    "Zahlenschloss: ..."); a number repeating one digit is no code anyone sets."""
    found = (m for pattern in (_CODE, *_CODES_IS, *_LOAN_PINS, _PIN_IS) for m in pattern.finditer(text))
    # a code named, then where it opens before a colon ("the gate's code at the back house: ..."): not a year there
    return any(
        len(set(m["value"])) > 1 and not (m.re is _CODE and m["far"] and _YEAR.fullmatch(m["value"])) for m in found
    )


# A network's key and a network named, in every language of the table (patterns, lower case).
KEY_WORDS: tuple[str, ...] = tuple(dict.fromkeys(_all("key")))
NETWORK_WORDS: tuple[str, ...] = tuple(dict.fromkeys(_all("network")))
_NETWORK = re.compile(r"(?i)(?<![^\W\d_])" + _either(_all("network")) + r"(?![^\W\d_])")
_KEY = re.compile(
    r"(?i)(?<![^\W\d_])(?P<label>"
    + _either(_all("key"))
    + r"(?:[\s_\-]+"
    + _either(_all("network"))
    + r")?)(?![^\W\d_])"
    # the router's name between the label and its key ("WLAN-Schlüssel <model>:")
    + r"(?P<device>(?:[ \t]+[^\s:=]{1,20}){0,3}?)[ \t]*[:=][ \t]*"
    + r"(?P<value>\d{4,}(?:[ \-]\d{4,}){2,}(?![\d\-])|[^\s\"',;]+)"
)
# A key's label, then the network's security mode in its place of a colon ("chave WPA2 ...", "clé WPA2-PSK : ...").
_MODE = r"(?:wpa[23]?|wep)(?:[\-/ ]?(?:psk|personal|wpa[23]))?|psk"
_KEY_MODE = re.compile(
    r"(?i)(?<![^\W\d_])(?P<label>"
    + _either([*_all("key"), "key"])
    + r"(?:[\s_\-]+"
    + _either(_all("network"))
    + r")?)[\s_\-]+(?:"
    + _MODE
    + r")(?![^\W\d_])[ \t]*(?P<sep>[:=]?)[ \t]*(?P<value>[^\s\"',;]+)"
)
# A Wi-Fi key given bare after the network's name (a tag ``wifi:...``): made like a strong password, with a sign no
# network's name holds, as a network's name with a digit or a dash ("Home-5G") is no key.
_BARE_WIFI = re.compile(r"(?i)(?<![^\W\d_])(?:wi-?fi|wlan)[ \t]*[:=][ \t]*(?P<value>\S+)")


def wifi_key(text: str) -> bool:
    """Whether ``text`` gives a network's key: after a key's label that names the network or in a text that does
    ("Netzwerkschlüssel: ...", "Wifi du salon ... clé : ..."), or after its security mode ("chave WPA2 ..."), or bare
    after "wifi:"."""
    for m in _KEY.finditer(text):
        value = m["value"].rstrip(".,;!?)")
        grouped = value[:1].isdigit() and " " in value
        named = _NETWORK.search(m["label"]) or re.match(r"(?i)netzwerk|netwerk|n[äa]tverks|verkko", m["label"])
        if m["device"] and not grouped:
            continue  # words before the colon name something else than the key ("key to the shed: ...")
        if (grouped or shaped(value)) and (named or _NETWORK.search(text)):
            return True
    for m in _KEY_MODE.finditer(text):
        value = m["value"].rstrip(".,;!?)")
        # with no sign between, the value holds a digit, as a word after the mode seldom does ("WPA2 AES-CCMP")
        if not (shaped(value) and (m["sep"] or re.search(r"\d", value))):
            continue
        if _NETWORK.search(m["label"]) or _NETWORK.search(text):
            return True
    return any(_STRONG.fullmatch(m["value"].rstrip(".,;")) for m in _BARE_WIFI.finditer(text))


# An alerting service's integration or routing key named in the owner's language ("integracijos raktas",
# "Integrationsschlüssel", "clé d'intégration"): the service's word for the key, before or after its word for a key.
_KEY_WORD = (
    r"(?:key|raktas|rakto|atsl[ēe]g\w*|v[õo]ti|klucz\w*|kl[íi][čc]\w*|k[ľl][úu][čc]\w*|klju[čc]\w*|ключ\w*"
    r"|schl(?:ü|u|ue)ssel\w*|sleutel|nyckel\w*|n[øo]g(?:le|kel)\w*|avain\w*|anahtar\w*|kulcs\w*|chei[ae]"
    r"|clave|chave|chiave|cl[ée]f?|κλειδ\w*)"
)
_SERVICE_WORD = (
    r"(?:in|en)t[eé]gr\w*|интеграц\w*|rout\w*|enrutamiento|roteamento|instradamento|acheminement|mar[sš]rut\w*"
    r"|маршрут\w*"
)
_INTEGRATION_KEY = re.compile(
    r"(?i)(?<![^\W\d_])(?:(?:"
    + _SERVICE_WORD
    + r")[\s_\-]*?"
    + _KEY_WORD
    + r"|"
    + _KEY_WORD
    + r"\s+(?:(?:de|da|do|di|d['\u2019]|della|dell['\u2019]|del|la|el)\s*){0,2}(?:"
    + _SERVICE_WORD
    + r"))(?![^\W\d_])[^:=\n]{0,40}?[:=]\s*(?P<value>[A-Za-z0-9_\-]{20,64})(?![A-Za-z0-9_\-])"
)


def integration_key(text: str) -> bool:
    """Whether ``text`` gives a service's integration or routing key after its label in another language."""
    for m in _INTEGRATION_KEY.finditer(text):
        value = m["value"]
        mixed = any(c.isdigit() for c in value) and any(c.isalpha() for c in value)
        if mixed and looks_filled(value) and not is_placeholder(value):
            return True
    return False
