"""(internal) The words, in more languages, that say the number after them is a thing's or a document's.

``pii_numbers.NOT_PERSONAL`` reads these after its own: an order, an invoice or a bill, a ticket or a request, a
reference, an application, an insurance policy, a utility's meter or account number, a spare part, a school's
roll or an exam's number, a barcode, an article, a batch or a lot, a shipment, a receipt. Each language's word for
the thing comes last before the number (a word for "number" may follow it: "narudžba br.", "Užklausos numeris",
"परीक्षा क्रमांक"), so a label whose number word comes first ("Nambari ya oda", "شماره سفارش") ends on
the thing's word and is found too. The words are whole words: none is found inside another ("koda" holds "oda"
and is no order).
"""

# ruff: noqa: RUF001  (the words are written in the scripts they match)

from __future__ import annotations

__all__ = ["BUSINESS", "HELD", "MARKS", "THINGS_ABROAD"]

# A business's own number: a VAT or tax registration and a company register's entry. A company's number is no
# person's, so a phone-shaped value after these words is left as written ("USt-IdNr. DE 123 456 789"). Read in
# ``NOT_PERSONAL`` as whole words, in any case; a plain "id" or "number" may follow.
BUSINESS = (
    r"vat(?:\s+(?:reg(?:istration)?|id))?|tva(?:\s+intracom(?:munautaire)?)?|ust-?id(?:nr)?|umsatzsteuer-?id"
    r"(?:entifikationsnummer)?|steuernummer\s+(?:der\s+)?firma|btw(?:-?nummer)?|p\.?\s?iva|partita\s+iva|cif|nif-?iva|"
    r"nip(?:\s+firmy)?|regon|krs|organisationsnummer|org\.?\s?nr|cvr(?:-?nummer)?|y-tunnus|abn|acn|"
    r"company\s+(?:registration|reg\.?|number|no\.?)|handelsregister|hrb|hra|kvk(?:-?nummer)?|siret|siren|"
    r"огрн(?:ип)?|кпп|инн\s+организации|єдрпоу|ičo|ič\s+dph|dič|nipc|rut\s+empresa|cnpj"
)

# What a person holds that has its own number, a contract's or a device's, not the person's: an insurance policy, a
# utility's meter and a spare part (English, Dutch, German, the Nordic languages, the Romance languages, Polish,
# Czech, Ukrainian, Turkish, Hungarian, Greek). Read as ``BUSINESS`` is, with words between them and a colon.
HELD = (
    r"insurance\s+policy|policy(?=[\s-]*(?:no\b|nr\b|number|#))|polis(?:nummer|nr)?|polic(?:e|en)nummer|"
    r"versicherungsschein(?:nummer)?|"
    r"p[óo]liza|polizza|ap[óo]lice|polisa|polisy|f[öo]rs[äa]kringsnummer|forsikringsnummer|vakuutusnumero|"
    r"(?:gas|water|electricity|electric|power)\s*meter|meter(?=[\s-]*(?:no\b|nr\b|number|#|serial))|"
    r"(?:strom|gas|wasser)?z[äa]hler(?:nummer)?|meternummer|"
    r"compteur|contador(?=\s+de\s+(?:gas|luz|agua|água|electricidad|eletricidade|energia))|contatore|contor(?:ul)?|"
    r"licznik(?:a|u)?|elektroměr|plynoměr|vodoměr|"
    r"m[äa]tar(?:e|en|nummer|nr)?|m[åa]ler(?:en|nummer|nr)?|mittari(?:n)?|лічильник(?:а)?|сч[её]тчик(?:а)?|"
    r"saya[çc]|mérő(?:óra)?|μετρητ[ήη]ς?|mpan|mprn|"
    r"spare\s+part|varaosa(?:n)?|osanumero|ersatzteil(?:nummer)?|reservdel(?:snummer)?|reservedel(?:snummer)?|"
    r"onderdeel(?:nummer)?|repuesto|ricambio|peça|cz[ęe][śs][ćc]|cz[ęe][śs]ci"
)

# Marks and words written without spaces that say the number after them is a thing's: a Japanese postal mark and
# the postal code's word in Japanese, Chinese and Korean, a part's and a meter's number.
MARKS = r"〒|郵便番号|邮编|邮政编码|郵遞區號|우편번호|部品番号|零件号|配件号|電気メーター|メーター番号|电表号|계량기"

# By language, each a regular expression, separated by spaces; a word may be given in the forms a label uses
# (nominative, genitive). Words are matched in any case.
_WORDS: dict[str, str] = {
    "en": r"application roll exam(?:ination)? hall\s+ticket admit\s+card waybill",
    "bn": r"অর্ডার চালান ইনভয়েস টিকিট রেফারেন্স আবেদন রোল পরীক্ষা বারকোড ব্যাচ রসিদ",
    "te": r"ఆర్డర్ ఇన్వాయిస్ బిల్లు టికెట్ రిఫరెన్స్ దరఖాస్తు రోల్ పరీక్ష బార్‌కోడ్ బ్యాచ్ రసీదు",
    "ta": r"ஆர்டர் விலைப்பட்டியல் டிக்கெட் விண்ணப்ப தேர்வு ரோல் பதிவு பார்கோடு தொகுதி ரசீது",
    # Marathi, Hindi and Nepali share the script and many of the words
    "mr-hi-ne": r"ऑर्डर अर्डर बीजक चलन बिल तिकीट टिकट संदर्भ सन्दर्भ अर्ज आवेदन निवेदन "
    r"हजेरी परीक्षा रोल बारकोड बॅच ब्याच बैच लॉट पावती रसीद रसिद",
    "ur": r"آرڈر انوائس بل ٹکٹ حوالہ درخواست رول امتحان بارکوڈ بیچ رسید",
    "fa": r"سفارش فاکتور صورتحساب بلیط بلیت پیگیری مرجع درخواست داوطلبی بارکد اشتراک قبض",
    "sw": r"oda agizo ankara tiketi kumbukumbu maombi risiti bechi mita mtihani",
    "am": r"የ?ትዕዛዝ የ?ደረሰኝ የ?ቲኬት የ?ማመልከቻ የ?ፈተና የ?ባርኮድ የ?ማጣቀሻ",
    "tl": r"resibo tiket sanggunian aplikasyon singil pakete kaso",
    "ms": r"invois tiket rujukan permohonan resit kelompok bil",
    "bg": r"поръчка поръчката фактура фактурата билет заявление "
    r"заявка партида пратка товарителница разписка",
    "sr": r"поруџбин[аеи] porudžbin[aei] рачун[аи]? račun[ai]? тикет захтев[аи]? zahtev[ai]? пријав[аеи] "
    r"prijav[aei] сериј[аеи] serij[aei] шарж[аеи] šarž[aei] пошиљк[аеи] pošiljk[aei] предмет[аи]? predmet[ai]? "
    r"позив\s+на\s+број poziv\s+na\s+broj "  # a bill's payment reference
    r"артик(?:а)?л[аи]? artik(?:a)?l[ai]?",  # a bill's payment reference
    "hr": r"narudžb[aei] zahtjev[ai]? ulaznic[aei] uredb[aeiu] direktiv[aeiu]",
    "sk": r"faktúr[ay] žiadost[ťi] zásielk[ayu] dávk[ayu] zmluv[ayu] smernic[aeu] nariaden[ií]a?",
    "sl": r"naročil[aou] vozovnic[aeo] zahtevk[aou] zahtevek vlog[aeo] sklic[ao]?",
    "lt": r"užsakym[oas]s? sąskait[aos]s? biliet[oas]s? užklaus[aos]s? "
    r"paraišk[aos]s? prašym[oas]s? siunt[aos]s? partij[aos]s? mokėtojo",
    "lv": r"pasūtījum[as] rēķin[as] biļetes pieteikum[as] iesniegum[as] sūtījum[as] partijas",
    "et": r"tellimuse tellimus arve pileti viitenumber taotluse saadetise partii",
    "ka": r"შეკვეთის ინვოისის ფაქტურის ბილეთის განაცხადის პარტიის ამანათის",
    "hy": r"պատվերի ապրանքագրի տոմսի հայտի խմբաքանակի առաքման",
    "kk": r"тапсырыс шот шот-фактура өтінім партия жөнелтілім",
    "uz": r"buyurtma hisob-faktura chipta ariza murojaat partiya jo['’ʻ]natma",
    "az": r"sifariş qaimə bilet müraciət ərizə partiya bağlama",
    "tr": r"siparişi? başvuru(?:su)? kargo takip gönderi",
    "ca": r"comanda bitllet sol·licitud expedient referència rebut",
    "is": r"pöntun(?:ar)? reiknings? miða umsókn(?:ar)? tilvísun(?:ar)? sendingar",
    "km": r"បញ្ជាទិញ វិក្កយបត្រ សំបុត្រ ពាក្យស្នើសុំ យោង កញ្ចប់",
    "my": r"အော်ဒါ ငွေတောင်းခံလွှာ လက်မှတ် လျှောက်လွှာ ဘောင်ချာ",
    "mn": r"захиалг(?:а|ын) нэхэмжлэх нэхэмжлэлийн тасалбар(?:ын)? өргөдл(?:ийн)? өргөдөл багц",
    "fi": r"tilaus(?:numero)? lasku(?:numero)? tuotenumero sarjanumero viitenumero",
    "si": r"ඇණවුම්? ඉන්වොයිසි බිල්පත්? ටිකට් අයදුම්පත්? විභාග",
}

# A customer or an account names a thing's number only with a number word after it ("ग्राहक क्रमांक"): alone
# ("customer:") it may label the customer's phone. A subscriber's number is not read as a thing's at all: at a
# telephone company it is the phone.
_WITH_NUMBER_WORD = r"ग्राहक গ্রাহক उपभोक्ता صارف የ?ደንበኛ akaunti akaun hisob клиентски"

# The words for "number" that may stand after the thing's word, with their abbreviations.
_NUMBER_WORDS = (
    r"no\.?|nr\.?|number|br\.?|broj|бр\.?|број|č\.|číslo|čísla|št\.?|številka|numeris|numurs|raqami|raqam|"
    r"nömrəsi|nömrə|numaras[ıi]|номер|нөмірі|нөмір|дугаар|núm\.?|número|númer|nambari|namba|nombor|numero|"
    r"নম্বর|নং|সংখ্যা|నంబర్|సంఖ్య|எண்|क्रमांक|क्र\.?|नंबर|नम्बर|नं\.?|संख्या|نمبر|شماره|ቁጥር|ნომერი|համար|"
    r"លេខ|နံပါတ်|အမှတ်|අංකය|අංක|№|#"
)

# A thing's word alone before its number, or with a register's code in brackets ("Uredba (EU)") or a number word
# after it; then a colon, a hash or the Armenian comma that ends a label, and the number. Nothing of a word may
# stand right before the thing's word.
THINGS_ABROAD = (
    r"(?<![\w'’ʻ·-])(?:(?:"
    + "|".join(word for words in _WORDS.values() for word in words.split())
    + r")\.?(?:\s*\((?-i:[A-Z]{2,8})\))?"
    + rf"(?:[\s-]*(?:{_NUMBER_WORDS}))?|(?:{'|'.join(_WITH_NUMBER_WORD.split())})[\s-]*(?:{_NUMBER_WORDS}))"
    + r"\s*[:#\uff1a\u055d\u0589]?\s*"
)
