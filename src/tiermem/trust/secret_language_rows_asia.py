"""(internal) Rows of ``secret_languages``' table for languages of South, Central and Southeast Asia, the Caucasus,
Iran and East Africa, with the words a text must hold for them to be read.

Many of these write the English "password" or "PIN" inside a sentence of their own ("PIN ya ...", "password ng
... ay ..."): such a row is ``loan``, and the English word is then read with the row's "of" and "is". Khmer and
Burmese write no space between words (``joined``); Urdu and Persian run right to left, which changes nothing here,
as a text is read in the order it is written.
"""

from __future__ import annotations

from tiermem.trust.secret_language_rows import Words

__all__ = ["ASIA", "ASIA_CODE_HINTS", "ASIA_PASSWORD_HINTS"]

# Bengali writes its "ya" either as one character or as a letter and a dot below it.
_BN_YA = "(?:\u09af\u09bc|\u09df)"

ASIA: dict[str, Words] = {
    "bn": Words(
        password=("\u09aa\u09be\u09b8\u0993" + _BN_YA + "\u09be\u09b0\u09cd\u09a1", r"পাস\s*ওয়ার্ড"),
        is_=("হল", "হলো", "হচ্ছে"),
        lock=("পিন", r"পিন\s+নম্বর"),
        gap=6,
        bare=True,
    ),
    "te": Words(password=("పాస్\u200c?వర్డ్", "సంకేతపదం"), is_=("అనేది",), lock=("పిన్",), gap=6, bare=True),
    "ta": Words(password=("கடவுச்சொல்", "பாஸ்வேர்ட[்ு]"), is_=("ஆகும்",), lock=(r"பின்\s+எண்",), gap=6, bare=True),
    "mr": Words(
        password=("पासवर्ड", "संकेतशब्द"),
        is_=("आहे", "होता"),
        # what the code opens comes first, in the genitive ("the gate's code")
        door=(r"(?:गेट|दरवाज्या|दारा|लॉकर)चा\s+कोड",),
        gap=6,
        bare=True,
    ),
    "ne": Words(password=("पासवर्ड", r"गोप्य\s*शब्द"), is_=("हो", "छ"), gap=6, bare=True),
    "ur": Words(password=(r"پاس\s*ورڈ", r"خفیہ\s+لفظ"), is_=("ہے", "تھا"), lock=("پن",), gap=6, bare=True),
    "fa": Words(
        password=(r"رمز\s*\u200c?\s*عبور", r"کلمه\s*\u200c?\s*(?:ی\s*)?عبور", "گذرواژه", "پسورد"),
        loose=("رمز",),
        lock=(r"رمز\s*\u200c?\s*دوم",),  # a card's second password, its PIN for paying online
        is_=("است", "هست"),
        gap=6,
        bare=True,
    ),
    "sw": Words(
        password=("nenosiri", r"neno\s+la\s+siri", "nywila"),
        is_=("ni", "ilikuwa"),
        of=("ya", "la", "wa", "za", "kwa"),
        lock=(r"namba\s+ya\s+siri",),
        gap=6,
        bare=True,
        loan=True,
    ),
    "am": Words(password=(r"(?:የ)?ይለፍ\s*ቃል", "ፓስወርድ"), is_=("ነው",), gap=6, bare=True),
    "tl": Words(
        password=(r"kontrase[ñn]y?as?",),
        is_=("ay",),
        of=("ng", "sa", "para sa", "ni"),
        gap=6,
        bare=True,
        loan=True,
    ),
    "ms": Words(
        password=(r"kata[\s_]*laluan",),
        is_=("ialah", "adalah"),
        of=("untuk", "bagi", "ke"),
        code=("kod",),
        opens=("pintu", "pagar", "peti besi", "garaj"),
        lock=(r"nombor\s+pin",),
        gap=6,
        bare=True,
        loan=True,
    ),
    "ka": Words(password=("პაროლ",), is_=("არის",), lock=("პინ-?კოდ",), gap=6, bare=True),
    "hy": Words(
        password=("գաղտնաբառ",),
        is_=("է",),
        door=(r"(?:մուտքի|դռան|դարպասի|շքամուտքի|ավտոտնակի)\s+կոդը?",),
        gap=6,
        bare=True,
    ),
    "kk": Words(password=(r"құпия\s*сөз",), is_=("болып табылады",), gap=6, bare=True),
    # "parol" with these languages' own endings, not the Romance "parola", "parole" (a word, a keyword).
    "uz": Words(password=(r"parol(?![aeă])", r"maxfiy\s+so['\u02bb\u2018\u2019]?z"), is_=("bu",), gap=6, bare=True),
    "az": Words(password=(r"[şs]ifr[əe]", r"parol(?![aeă])"), gap=6, bare=True),
    "mn": Words(password=(r"нууц\s*\u04af\u0433",), is_=("бол",), gap=6, bare=True),
    "si": Words(password=(r"මුර\s*පද",), is_=("වේ",), gap=6, bare=True),
    "km": Words(password=("ពាក្យសម្ងាត់",), loose=("លេខសម្ងាត់",), is_=("គឺ",), joined=True, bare=True),
    "my": Words(password=("စကားဝှက်",), joined=True, bare=True),
}

ASIA_PASSWORD_HINTS = (
    *("পাসও", "পাস ও", "పాస్", "సంకేతపదం", "கடவுச்சொல்", "பாஸ்வேர்ட", "पासवर्ड", "संकेतशब्द", "गोप्य", "پاس"),
    *("خفیہ", "رمز", "کلمه", "گذرواژه", "پسورد", "nenosiri", "neno la siri", "nywila", "ይለፍ", "ፓስወርድ"),
    *("kontrase", "kata laluan", "kata_laluan", "katalaluan", "პაროლ", "գաղտնաբառ", "құпия", "parol", "maxfiy"),
    *("şifr", "sifr", "нууц", "මුර", "ពាក្យសម្ងាត់", "លេខសម្ងាត់", "စကားဝှက်", "password"),
)
ASIA_CODE_HINTS = (
    *("পিন", "పిన్", "பின்", "پن", "namba ya siri", "nombor pin", "kod", "პინ", "pin", "कोड", "կոդ", "رمز"),
)
