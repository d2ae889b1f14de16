"""(internal) The rows of ``secret_languages``' table for languages of eastern and northern Europe, Asia and the
Middle East, with the words a text must hold for those rows to be read (``secrets._HINTS``).

Some of these languages name a password with a word that names any code too (Greek "κωδικός", Danish "kode", Thai
"รหัส"): such a word is ``loose``, and what follows it counts only when made like a strong password. Hebrew and
Arabic join a preposition or an article to the next word ("הסיסמה", "وكلمة"), which ``prefix`` takes; Thai writes
no space between words (``joined``); most give the value after the label with no sign between (``bare``: "hasło
Ork#Horde4471", "비번 coffee7788bean 입니다") and may put words of their own between them (``gap``).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["CODE_HINTS", "MORE_LANGUAGES", "PASSWORD_HINTS", "Words"]


@dataclass(frozen=True, slots=True)
class Words:
    """One language's words, as regular-expression fragments (accents optional where people leave them off)."""

    password: tuple[str, ...] = ()
    is_: tuple[str, ...] = ()
    of: tuple[str, ...] = ()
    code: tuple[str, ...] = ()  # a code's name, counted only before what it opens
    opens: tuple[str, ...] = ()  # what a code opens: a door, a gate, a padlock
    lock: tuple[str, ...] = ()  # a lock opened by a code, or a PIN, whose name alone tells the number after it
    door: tuple[str, ...] = ()  # a code joined to what it opens in one word ("Portkoden", "Türcode")
    key: tuple[str, ...] = ()  # a network's key
    network: tuple[str, ...] = ()  # a network, named in a key's label or near it
    loose: tuple[str, ...] = ()  # a word naming a password or any other code
    prefix: str = ""  # letters joined before a word (a preposition, an article)
    gap: int = 0  # words allowed between a password's label and its colon or "is"
    bare: bool = False  # a value may follow its label with no sign between
    joined: bool = False  # words are written with no space between
    loan: bool = False  # the English "password" or "PIN" is said with this language's "of" and "is"


_NORDIC_DOORS = r"(?:d[øo]r|port|opgang|inngang|alarm|n[øo]gleboks|n[øo]kkelboks)[\s_\-]?kode(?:n)?"

MORE_LANGUAGES: dict[str, Words] = {
    "el": Words(
        password=(r"κωδικ[όο][ςσ]?\s+πρ[όο]σβασης", r"συνθηματικ[όο]"),
        loose=(r"κωδικ",),
        is_=("είναι", "ειναι", "ήταν", "ηταν"),
        gap=6,
        bare=True,
    ),
    "hi": Words(password=("पासवर्ड", "कूटशब्द", r"पास\s+वर्ड"), is_=("है", "था", "हैं"), gap=6, bare=True),
    "ar": Words(
        password=(r"كلمة\s+(?:ال)?(?:مرور|سر)", r"(?:ال)?باسو?ورد"),
        prefix=r"[وبلف]?",
        is_=("هي", "هو", "هى"),
        gap=6,
        bare=True,
    ),
    "id": Words(password=(r"kata[\s_]*sandi",), is_=("adalah", "ialah", "yaitu"), gap=6, bare=True),
    "vi": Words(password=(r"m[ậa]t[\s_]*kh[ẩa]u",), loose=("mk",), is_=("là", "la"), gap=6, bare=True),
    "ru": Words(
        password=("пароль",),
        is_=("это",),
        of=("от", "для", "на", "к"),
        code=("код",),
        opens=("двери", "подъезда", "домофона", "ворот", "сейфа", "замка", "калитки"),
        lock=(r"пин-?код",),
        gap=6,
        bare=True,
    ),
    "uk": Words(
        password=("пароль",),
        is_=("це", "є"),
        of=("від", "до", "для", "на"),
        code=("код",),
        opens=("дверей", "під['\u2019]?їзду", "домофона", "воріт", "сейфа", "замка", "хвіртки"),
        lock=(r"пін-?код",),
        gap=6,
        bare=True,
    ),
    "hu": Words(
        password=(r"jelsz[óoa]",),
        of=("az", "a"),
        code=(r"k[óo]d(?:ja)?",),
        opens=(r"ajt[óo]", "kapu", r"kapualj", r"riaszt[óo]", r"sz[ée]f"),
        door=(r"(?:kapu|ajt[óo]|riaszt[óo]|sz[ée]f)k[óo]d(?:ja)?",),
        is_=("pedig",),
        gap=6,
        bare=True,
    ),
    "ro": Words(
        # Not the Italian "parola chiave" (a keyword), which Italian's own reading judges.
        password=(r"parol[aăe](?!\s+chiav[ei])",),
        is_=("este", "e", "era"),
        of=("de la", "de", "pentru", "la", "al", "a"),
        code=(r"cod(?:ul)?",),
        opens=(r"interfon(?:ul)?", r"u[șşs]ii", r"u[șşs]a", r"poart[aă]", r"por[țţt]ii", r"intr[aă]rii", "intrare"),
        lock=(r"cod(?:ul)?\s+pin", r"lac[aă]t(?:ul)?\s+cu\s+cifru"),
        gap=6,
        bare=True,
    ),
    "he": Words(password=(r"סיסמ(?:אות|ה|א|ת)",), prefix=r"[הולשבכמ]{0,2}", is_=("היא", "הוא", "זה"), gap=6, bare=True),
    "th": Words(password=("รหัสผ่าน", "พาสเวิร์ด"), loose=("รหัส",), is_=("คือ", "เป็น"), joined=True, bare=True),
    "ko": Words(password=("비밀번호", "비번", "패스워드"), gap=3, bare=True),
    "da": Words(
        password=("adgangskode", "kodeord"),
        loose=("kode", "koden"),
        is_=("er", "var"),
        of=("til", "for", "på", "hos"),
        code=("kode", "koden"),
        opens=("døren", "hoveddøren", "porten", "opgangen", "boksen", "nøgleboksen"),
        lock=(r"pin-?kode(?:n)?", r"kodel[åa]s(?:en)?"),
        door=(_NORDIC_DOORS,),
        gap=6,
        bare=True,
    ),
    "no": Words(
        password=("passord",),
        loose=("kode", "koden"),
        is_=("er", "var"),
        of=("til", "for", "på", "hos"),
        code=("kode", "koden"),
        opens=("døra", "døren", "porten", "inngangen", "boksen", "nøkkelboksen"),
        lock=(r"pin-?kode(?:n)?", r"kodel[åa]s(?:en)?"),
        door=(_NORDIC_DOORS,),
        gap=6,
        bare=True,
    ),
    "cs": Words(
        password=("heslo", "hesla"),
        is_=("je", "bylo", "zní"),
        of=("od", "do", "k", "ke", "na", "pro"),
        code=(r"k[óo]d",),
        opens=(r"vchodu", r"dve[řr][íi]", "domu", r"br[áa]ny", "branky", r"z[áa]mku", "trezoru", r"gar[áa][žz]e"),
        gap=6,
        bare=True,
    ),
    "pl": Words(password=(r"has[łl]o",), is_=("to", "jest"), of=("do", "dla", "od", "na"), gap=6, bare=True),
}

# Lower-case words one of which a text must hold for these rows to be read (the text as written, or bare of marks).
PASSWORD_HINTS = (
    *("κωδικ", "συνθηματικ", "पासवर्ड", "कूटशब्द", "पास वर्ड", "كلمة", "باسورد", "باسوورد", "sandi", "mật khẩu"),
    *("mat khau", "mat_khau", "mk", "пароль", "jelsz", "parol", "סיסמ", "รหัส", "พาสเวิร์ด", "비밀번호", "비번"),
    *("패스워드", "adgangskode", "kodeord", "kode", "passord", "heslo", "hesla", "hasło", "haslo"),
)
CODE_HINTS = ("kode", "код", "кода", "пін", "пин", "kód", "cod", "lacăt", "lacat", "kodel")
