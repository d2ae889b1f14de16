"""(internal) Rows of ``secret_languages``' table for more languages of Europe: the South Slavic and Baltic ones,
Bulgarian, Slovak, Slovenian, Estonian, Catalan and Icelandic, with the words a text must hold for them to be read.

Serbian is written in Cyrillic and in Latin letters, and Croatian and Bosnian share its Latin words ("lozinka").
"""

from __future__ import annotations

from tiermem.trust.secret_language_rows import Words

__all__ = ["EUROPE", "EUROPE_CODE_HINTS", "EUROPE_PASSWORD_HINTS"]

_SOUTH_SLAVIC_DOORS = (
    *("vrata", "ulaz", "ulaza", r"zgrad[eu]", r"kapij[eu]", r"gara[žz][eu]", "alarma", "sefa", "lokota", "haustora"),
)

EUROPE: dict[str, Words] = {
    "bg": Words(
        password=("парол",),
        is_=("\u0435", "беше"),  # the one-letter "is", escaped as it reads as a Latin letter
        of=("за", "на", "от"),
        code=("код", "кода", "кодът"),
        opens=("вратата", "врата", "входа", "входната врата", "гаража", "алармата", "сейфа", "катинара", "кантората"),
        gap=6,
        bare=True,
    ),
    "sr-Cyrl": Words(
        password=("лозинк",),
        loose=("шифр",),
        is_=("\u0458\u0435", "била"),  # "is", escaped as its letters read as Latin ones
        of=("за", "од", "на"),
        code=("код", "шифра"),
        opens=("врата", "улаз", "улаза", "зграде", "капије", "гараже", "аларма", "сефа"),
        gap=6,
        bare=True,
    ),
    "sh": Words(
        password=("lozink",),
        loose=(r"[šs]ifr",),
        is_=("je", "bila", "glasi"),
        of=("za", "od", "na", "u"),
        code=(r"k[ôo]d", r"[šs]ifra"),
        opens=_SOUTH_SLAVIC_DOORS,
        gap=6,
        bare=True,
    ),
    "sk": Words(
        password=("heslo", "hesla"),
        is_=("je", "bolo"),
        of=("od", "do", "k", "ku", "na", "pre"),
        code=(r"k[óo]d",),
        opens=(r"dver[íi]", "vchodu", r"br[áa]ny", r"gar[áa][žz]e", "trezoru", "zámku", "zamku"),
        gap=6,
        bare=True,
    ),
    "sl": Words(
        password=("geslo", "gesla", "gesl"),
        is_=("je", "bilo"),
        of=("za", "od", "do", "na"),
        code=("koda", "kodo"),
        opens=("vrata", "vhodna vrata", "vhod", r"gara[žz][oa]", "alarm", "sef", r"klju[čc]avnico"),
        gap=6,
        bare=True,
    ),
    "lt": Words(
        password=(r"slapta[žz]od",),
        is_=("yra", "buvo"),
        code=(r"kod(?:as|ą|a)",),
        opens=(r"dur[ųu]", r"laiptin[ėe]s", r"vart[ųu]", r"gara[žz]o", "seifo", "signalizacijos", "spynos"),
        gap=6,
        bare=True,
    ),
    "lv": Words(
        password=(r"parol[ei]s?(?!\s+chiav[ei])",),  # not the Italian "parole chiave" (keywords)
        is_=("ir", "bija"),
        of=("no", "uz", "priekš"),
        code=("kods", "kodu"),
        opens=(r"durv[īi]m", r"durvju", r"v[āa]rtiem", r"k[āa]pņutelpas", "seifa", r"gar[āa][žz]as"),
        gap=6,
        bare=True,
    ),
    "et": Words(
        password=("parool", r"salas[õo]na"),
        is_=("on", "oli"),
        code=("kood", "koodi"),
        opens=("uksele", "ukse", r"v[äa]rava", "trepikoja", "seifi", r"garaa[žz]i", "alarmi"),
        door=(r"(?:ukse|v[äa]rava|trepikoja|alarmi)kood",),
        gap=6,
        bare=True,
    ),
    "ca": Words(
        password=("contrasenya", "contrasenyes"),
        is_=("és", "es", "era"),
        of=("de", "del", "de la", "per", "a"),
        code=("codi",),
        opens=("porta", "portal", r"p[àa]rquing", "garatge", "cadenat", "alarma", "caixa forta", "entrada"),
        lock=(r"cadenat\s+de\s+combinaci[óo]",),
        key=(r"clau(?:\s+de\s+(?:la\s+)?xarxa)?",),
        network=("wifi", "wi-fi", "xarxa", "router"),
        gap=6,
        bare=True,
    ),
    "is": Words(
        password=(r"lykilor[ðd]",),
        is_=("er", "var"),
        of=("að", "á", "fyrir", "hjá"),
        code=(r"k[óo][ðd]i(?:nn)?", r"n[úu]meri[ðd]"),
        door=(r"(?:hur[ðd]ar|hli[ðd]s|inngangs|lyklabox)k[óo][ðd]i(?:nn)?",),
        opens=(r"hur[ðd]ina", r"hur[ðd]", r"hli[ðd]i[ðd]", r"lyklabox(?:i[ðd])?", r"b[íi]lsk[úu]rinn"),
        gap=6,
        bare=True,
    ),
}

EUROPE_PASSWORD_HINTS = (
    *("парол", "лозинк", "шифр", "lozink", "šifr", "sifr", "geslo", "gesla", "slaptažod", "slaptazod", "parole"),
    *("paroli", "parool", "salasõna", "contrasenya", "lykilorð", "lykilord", "xarxa"),
)
EUROPE_CODE_HINTS = ("код", "шифра", "kôd", "šifra", "sifra", "codi", "kóði", "kodi", "númer", "numer")
