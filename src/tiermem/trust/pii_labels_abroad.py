"""(internal) The labels of a birth date and of a passport number in more languages, read by ``pii_labelled``.

Bulgarian, Serbian, Croatian, Slovak, Slovenian, Lithuanian, Latvian, Estonian, Georgian, Armenian, Kazakh, Uzbek,
Azerbaijani, Catalan, Icelandic, Swahili, Tagalog, Malay, Bengali, Telugu, Tamil, Marathi and Nepali, Urdu, Persian,
Amharic, Khmer, Burmese, Mongolian and Sinhala; a label whose number word comes first ("broj putovnice", "شماره
گذرنامه") ends on the document's word, and one whose number word comes after it ("pasport raqami:") is read as the words
before a colon that ``pii_labelled`` reads between a label and its value.
"""

# ruff: noqa: RUF001  (the labels are written in the scripts they match)

from __future__ import annotations

__all__ = ["BIRTH_ABROAD", "BIRTH_ABROAD_HINTS", "PASSPORT_ABROAD", "PASSPORT_ABROAD_HINTS", "SEPARATORS"]

# A label's own words never start inside another word: nothing of a word stands right before them.
_OPEN = r"(?<![\w'’ʻ-])"

BIRTH_ABROAD = (
    _OPEN
    + r"(?:datum\s+ro(?:đ|dj)enja|датум\s+рођења|ro(?:đ|dj)en[a]?|рођен[а]?|дата\s+на\s+раждане|роден[а]?(?:\s+на)?|"
    r"datum\s+rojstva|rojen[a]?|gimimo\s+data|dzimšanas\s+datums|sünniaeg|sünnikuupäev|sündinud|"
    r"doğum\s+tarixi|tug['’ʻ]ilgan\s+(?:sana|kun)i?|туған\s+күн(?:і)?|data\s+de\s+naixement|nascud?[ao]?\s+el|"
    r"fæðingardag(?:ur|s)|fædd(?:ur)?|tarehe\s+ya\s+kuzaliwa|alizaliwa|petsa\s+ng\s+kapanganakan|kaarawan|"
    r"ipinanganak(?:\s+noong)?|tarikh\s+lahir|জন্ম\s*তারিখ|పుట్టిన\s*తేదీ|జన్మ\s*తేదీ|"
    r"பிறந்த\s*(?:தேதி|நாள்)|जन्म\s*(?:मिति|तारीख|दिनांक|तिथि)|जन्मतारीख|जन्मदिनांक|تاریخ\s+پیدائش|تاریخ\s+تولد|"
    r"የትውልድ\s+ቀን|የልደት\s+ቀን|დაბადების\s+თარიღი|ծննդյան\s+(?:ամսաթիվ|օր)|ថ្ងៃ\s*ខែ\s*ឆ្នាំ\s*កំណើត|"
    r"မွေးသက္ကရာဇ်|မွေးနေ့|төрсөн\s+(?:огноо|он\s+сар\s+өдөр)|උපන්\s*දිනය)"
)
BIRTH_ABROAD_HINTS: tuple[str, ...] = (
    *(
        "rođen",
        "rodjen",
        "рођен",
        "рођењ",
        "раждане",
        "роден",
        "rojst",
        "rojen",
        "gimimo",
        "dzimšan",
        "sünni",
        "sündinud",
    ),
    *("tarixi", "ilgan", "туған", "naixement", "nascu", "fæðing", "fædd", "zaliwa", "kapanganakan", "kaarawan"),
    *("ipinanganak", "lahir", "জন্ম", "పుట్టిన", "జన్మ", "பிறந்த", "जन्म", "تاریخ", "የትውልድ", "የልደት", "დაბადების"),
    *("ծննդյան", "កំណើត", "မွေး", "төрсөн", "උපන්"),
)

# Two patterns, so each stays small: the labels in the Latin and Cyrillic scripts, then in the others.
PASSPORT_ABROAD = (
    _OPEN + r"(?:putovnic[aeiu]|pasoš[a]?|пасош[а]?|cestovn(?:ý|ého)\s+pas(?:u)?|(?:číslo|č\.)\s+pasu|"
    r"potn(?:i|ega)\s+list(?:a)?|pasas|paso(?=\s+numeris)|pases|passi|pasport(?:i|u|ingiz)?(?:\s+seriyasi(?:\s+va\s+raqami)?)?|pasipoti|passaport|"
    r"vegabréf(?:s)?)",
    _OPEN + r"(?:ፓስፖርት|পাসপোর্ট|పాస్\u200c?పోర్ట్|கடவுச்சீட்டு|பாஸ்போர்ட்|پاسپورٹ|گذرنامه|پاسپورت|"
    r"პასპორტ(?:ი|ის)|անձնագ(?:իր|րի)|លិខិតឆ្លងដែន|နိုင်ငံကူးလက်မှတ်|ගමන්\s*බලපත්\u200d?රය?)"
    # a number's word whose vowel signs are no word characters, so no holder's word before a colon reads it
    r"(?:\s*(?:নম্বর|నంబర్|எண்|नंबर|नम्बर|क्रमांक|අංකය|համար))?",
)
PASSPORT_ABROAD_HINTS: tuple[str, ...] = (
    *("putovnic", "pasoš", "пасош", "pasas", "paso", "pases", "pasu", "passi", "pasport", "pasipoti", "passaport"),
    *("potn", "vegabréf", "ፓስፖርት", "পাসপোর্ট", "పాస్", "கடவுச்சீட்டு", "பாஸ்போர்ட்", "پاسپورٹ", "گذرنامه", "پاسپورت"),
    *("პასპორტ", "անձնագ", "លិខិតឆ្លងដែន", "နိုင်ငံကူး", "ගමන්"),
)

# What may end a label before its value: a colon (full-width too), an equals sign, the Armenian comma or full stop.
SEPARATORS = r"[:=\uff1a\u055d\u0589]"
