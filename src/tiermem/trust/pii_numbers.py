"""(internal) Numbers that identify a person or an account: IBANs, payment cards, national identifiers, IPs.

A regular expression finds each candidate as people write it; python-stdnum decides: the IBAN's mod-97 check
(any case, any spacing), Luhn for cards (plus the network's prefix and length), the SSA's rules for SSNs, and
the check digits of Spanish DNI/NIE, Italian codice fiscale and Brazilian CPF numbers. A digit run that also
passes the EAN/UPC check (a product barcode) is not a card. UK National Insurance numbers have no check digit
and no stdnum module; their letter rules are here. An IPv4 address is four octets outside 240.0.0.0/4 (where
netmasks and the broadcast address are written) unless the words right before
it name a version ("firmware 10.2.3.4", "v1.2.3.4", "build 2.0.12.87", "kernel 5.4.0.42"): such quads are
versions, and a product's release is far more often written right after its name than an address is.
"""

# ruff: noqa: RUF001  (the labels are written in the scripts they match)

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable, Iterator

from stdnum import ean, iban, luhn
from stdnum.br import cpf
from stdnum.es import dni, nie
from stdnum.it import codicefiscale
from stdnum.us import ssn

from tiermem.trust.pii_things import BUSINESS, HELD, MARKS, THINGS_ABROAD

__all__ = [
    "NOT_PERSONAL",
    "cards",
    "ibans",
    "ipv4s",
    "ipv6s",
    "names_a_thing",
    "names_a_version",
    "national_ids",
    "ninos",
    "ssns",
]

Spans = Iterator[tuple[int, int]]

# Words that say the number after them is a document's or a thing's, not a person's: "order 4111...", "PO 4500...",
# the German, Dutch and Nordic compounds with the number's word ("Artikelnummer", "klantnummer", "referensnummer"),
# and an order, an invoice or a case in other languages ("pedido nº", "fattura n.", "nota fiscal"). A register's code
# in capitals may stand between the word and the number ("ärendenummer BN 2025-...", "reference NY ..."). "In case
# of ..." is no case's number but a condition: the number after it is read as any other.
NOT_PERSONAL = re.compile(
    r"(?i)(?:\b(?:order|orders|invoice|inv|ticket|ref|reference|tracking|parcel|shipment|(?<!\bin\s)case|booking|"
    r"confirmation|"
    r"serial|s/n|sn|part|p/n|mpn|sku|item|article|art|artikel|catalog|catalogue|stock|asin|po|isbn|issn|"
    r"ean(?:-?(?:8|13))?|"
    r"upc(?:-?[ae])?|gtin|barcode|product|model|batch|lot|id|transaction|txn|"
    r"receipt|record|row|build|version|zip|zip\s+code|postcode|postal\s+code|plz|pp|pages?|"
    # a customs tariff's code for goods ("HS code 8517.62.00.00", "commodity code", "Zolltarifnummer")
    r"tariff|hs|hts|taric|commodity|customs|"
    r"pedido|encomenda|commande|bestelling|ordine|factura|fatura|fattura|facture|nota\s+fiscal|rechnung|faktura|"
    r"expediente|dossier|pratica|protocollo|aktenzeichen|ärende|diarienummer|dnr|referencia|référence|riferimento|"
    r"(?:artikel|bestell?|auftrags|rechnungs|kunden|klant|kund|sendungs|serien|teile|liefer|order|factuur|ärende|"
    r"referens|referenz|referentie|referanse|faktura|buchungs|vorgangs|ticket|zolltarif|warentarif|tulltaxe?)"
    r"(?:nummer|nr)|"
    r"fedex|ups|usps|dhl|dpd|tnt|evri|hermes|parcelforce|royal\s+mail|"
    # a serial in the Romance languages ("numero di serie", "número de serie"), a law's number ("Regulation (EU)")
    r"s[ée]rie|regulation|directive|decision|verordnung|richtlinie|r[èe]glement|reglamento|directiva|regolamento|"
    r"direttiva|verordening|richtlijn|"
    # an article, an order, an invoice, a payment's reference or a lab specimen in more languages (Italian, Dutch,
    # Russian and Ukrainian, Greek, Czech, Hungarian, Romanian, Indonesian, Danish and Norwegian, Vietnamese)
    r"articolo|prodotto|(?:betalings|betaal)?kenmerk|заказ[аеу]?|артикул|накладн(?:ая|ой)|замовлення|"
    r"παραγγελ[ίι]ας?|τιμολ[όο]γιο|τιμολογ[ίι]ου|objedn[áa]vk[ayu]|rendel[ée]s(?:sz[áa]m)?|sz[áa]mla(?:sz[áa]m)?|"
    r"cikksz[áa]m|comand[aăa]|comenzii|pesanan|faktur|ordre(?:nummer|nr)?|varenummer|đơn\s+hàng|hóa\s+đơn|"
    r"specimen|sample|probe|"
    # a shipment and its tracking (Italian, Spanish, Portuguese, French, Polish, Dutch)
    r"spedizion[ei]|tracciamento|env[íi]o|seguimiento|rastreio|remessa|envoi|colis|przesy[łl]k[aiy]|zending|"
    # a call centre's record of a call, a cost centre, an account of the books
    r"protocolo|protocol|cost\s+cent(?:re|er)|kostenstelle|centro\s+de\s+custos?|gl(?:\s+account)?|ledger|"
    # a Polish order and parcel, a Russian tracking number; a business's registration (``pii_things``)
    rf"zam[óo]wieni[aeu]|paczk[aię]|paczkomat|inpost|трек(?:-номер)?|{BUSINESS}|{HELD})"
    r"\b\.?(?:\s*\((?-i:[A-Z]{2,8})\))?"
    # what the number is of, after the word ("serie della caldaia", "serial of the boiler")
    r"(?:\s+(?:of|de|di|del|della|du|des|der|van|ng|ya)(?:\s+(?:the|la|el|le|l['\u2019])?\s*[^\W\d_]+){1,2}(?=\s*:))?"
    r"(?:[\s-]*(?:no\.?|nr\.?|number|num|#|id|code|n[º°]|n\.|nro\.?|n[úu]m\.?|n[úu]mero|numero|č\.|č[íi]slo|№))?"
    r"(?-i:[\s-]+[A-Z]{1,4})?\s*[:#]?\s*|"
    # written without spaces, so no word boundary before them: an order's, an article's, a slip's number
    rf"(?:{MARKS}|注文番号|受注番号|注文|品番|型番|伝票番号|お問い合わせ番号|订单号|订单编号|訂單編號|検体番号|样本编号|"
    # Korean order, invoice, article, booking, serial and specimen numbers; Arabic and Hebrew ones after "number"
    r"주문번호|주문|송장번호|운송장번호|상품번호|품번|접수번호|예약번호|일련번호|모델번호|검체번호|"
    # a business's registration in Korean, Japanese and Chinese
    r"사업자(?:등록)?번호|법인(?:등록)?번호|法人番号|登録番号|统一社会信用代码|統一編號|营业执照(?:号码?)?|"
    r"رقم\s+(?:ال)?(?:طلب|فاتورة|شحنة|منتج|تتبع|حجز|مرجع|صنف)|מספר\s+(?:ה)?(?:הזמנה|חשבונית|משלוח|מוצר)|"
    r"เลขที่(?:คำสั่งซื้อ|ใบแจ้งหนี้|พัสดุ)|ऑर्डर\s*(?:नंबर|संख्या)?)\s*[:#]?\s*|"
    # the same words in more languages (``pii_things``)
    rf"{THINGS_ABROAD}|#|"
    # a business's or a held thing's number after words naming whose or which it is and a colon ("Organisationsnummer
    # för Bageriet AB:", "Org.nr. til borettslaget:", "Numer licznika gazu:"), which may run past the words above
    rf"\b(?:{BUSINESS}|{HELD})\b\.?(?:\s+[^\W\d_][\w'\u2019.&-]*){{1,5}}\s*:\s*)$"
)
# What NOT_PERSONAL finds when only "id" or "#" stands before a number: a person's number is as often written so
# ("Member ID: ...") as a thing's.
_ID_ONLY = re.compile(r"(?i)(?:id|#)\W*")


def _not_personal(text: str, start: int) -> bool:
    return bool(NOT_PERSONAL.search(text[max(0, start - 30) : start]))


def names_a_thing(text: str) -> bool:
    """The words at the end of ``text`` name a thing's number ("SKU", "part no.", "order #"), not only "id"."""
    m = NOT_PERSONAL.search(text[-30:])
    return m is not None and _ID_ONLY.fullmatch(m.group(0).strip()) is None


# -- IBAN -------------------------------------------------------------------------------------------------------

# The last group may be shorter than the others: "CH93 0076 2011 6238 5295 7".
_IBAN = re.compile(r"(?i)(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?:[ -]?[A-Z0-9]{2,4}){3,8}(?:[ -]?[A-Z0-9])?(?![A-Za-z0-9])")
# A gap may be two spaces, as a paste from a form or a justified line leaves it; read so only in a text that holds
# two spaces in a row, as the wider pattern costs every other text time.
_IBAN_WIDE = re.compile(
    r"(?i)(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?:(?: {1,2}|-)?[A-Z0-9]{2,4}){3,8}(?:(?: {1,2}|-)?[A-Z0-9])?(?![A-Za-z0-9])"
)


# A national grouping, groups of any width after the check digits ("IT60 X 05428 11101 000000123456": the CIN
# letter, the bank's and the branch's codes, the account), read where the printed grouping found none.
_IBAN_NATIONAL = re.compile(r"(?i)(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?:(?: {1,2}|-)[A-Z0-9]{1,30}){2,10}(?![A-Za-z0-9])")


# An account's own label: "IBAN", the Slovenian "TRR", the Persian "شبا", the Estonian "arveldusarve", the
# Azerbaijani "hesab". After it an IBAN-shaped value (the letters of a country, two digits, the account) is the
# holder's account though its checksum is mistyped, as a national id after its label is.
_IBAN_LABEL = re.compile(
    r"(?i)(?:\b(?:iban|trr|arveldusarve|arvelduskonto|hesab(?:ı|i)?)|(?:شماره\s+)?شبا)"
    r"(?:\s*(?:no\.?|nr\.?|number|#))?\s*[:#=]?\s*(?=[A-Za-z]{2}\d{2})"
)
_IBAN_LABEL_HINTS = ("iban", "trr", "arveldus", "hesab", "شبا")


def _iban_shaped(value: str) -> bool:
    """The letters of a country, two check digits and an account of letters and digits, of an IBAN's length."""
    compact = re.sub(r"[ -]", "", value)
    return 15 <= len(compact) <= 34 and compact[:2].isalpha() and compact[4:].isalnum()


def ibans(text: str) -> Spans:
    """IBANs in any case, spacing and grouping (after an account's label with a mistyped checksum too); a trailing
    word caught by the pattern is given back."""
    found: list[tuple[int, int]] = []
    for pattern in (_IBAN_WIDE if "  " in text else _IBAN, _IBAN_NATIONAL):
        for m in pattern.finditer(text):
            span = _valid_iban(m.group(0), m.start())
            if span is not None and not any(a < span[1] and span[0] < b for a, b in found):
                found.append(span)
                yield span
    lower = text.lower()
    if not any(hint in lower for hint in _IBAN_LABEL_HINTS):
        return
    for label in _IBAN_LABEL.finditer(text):
        value = _IBAN.match(text, label.end())
        span = value and _valid_iban(value.group(0), value.start(), _iban_shaped)
        if span and not any(a < span[1] and span[0] < b for a, b in found):
            found.append(span)
            yield span


def _checked(value: str) -> bool:
    return iban.is_valid(value, check_country=False)


def _valid_iban(value: str, start: int, valid: Callable[[str], bool] = _checked) -> tuple[int, int] | None:
    """Where the IBAN at the start of ``value`` (found at ``start``) ends, or None where it holds none."""
    # mod-97 and the country's length and layout; a national check digit inside the BBAN is not required (a
    # reader cannot tell, and a value one typo away from someone's account is still theirs).
    # Try the whole run, then drop trailing groups: "GB82 WEST 1234 5698 7654 32 for" checks without "for".
    while len(value.replace(" ", "")) >= 15:
        if valid(value):
            return start, start + len(value)
        cut = max(value.rfind(" "), value.rfind("-"))
        if cut < 0:
            return None
        value = value[:cut].rstrip(" ")
    return None


# -- payment cards ----------------------------------------------------------------------------------------------

# Grouped as printed (4-4-4-4[-3], Amex 4-6-5, Diners 4-6-4) or one run of 12-19 digits. Each gap may be a dash,
# a space or two whatever the others are ("4111 1111-1111 1111", as a form and a paste join); the network's
# prefix and length and the Luhn digit decide.
_GAP = r"(?:-| {1,2})"
_CARD = re.compile(
    rf"(?<![\d.,+-])(?:\d{{4}}{_GAP}\d{{4}}{_GAP}\d{{4}}{_GAP}\d{{4}}(?:{_GAP}\d{{3}})?|\d{{4}}{_GAP}\d{{6}}{_GAP}\d{{4,5}}"
    r"|\d{12,19})(?!\d|[.,-]\d)"
)
# (leading digits, lengths) of the card networks: Visa, Mastercard, Amex, Discover, JCB, Diners, UnionPay, Maestro,
# then the national networks: Russian Mir, Turkish Troy, Indian RuPay (and UnionPay) on 81 and 82, Vietnamese Napas,
# Uzbek UzCard and Humo. Elo, Hipercard, Verve, RuPay's 60 and 65 and Iran's Shetab cards start as the ones above do.
_NETWORKS: tuple[tuple[tuple[str, ...], tuple[int, ...]], ...] = (
    (("4",), (13, 16, 19)),
    (tuple(str(n) for n in range(51, 56)) + tuple(str(n) for n in range(2221, 2721)), (16,)),
    (("34", "37"), (15,)),
    (("6011", "644", "645", "646", "647", "648", "649", "65"), (16, 17, 18, 19)),
    (tuple(str(n) for n in range(3528, 3590)), (16, 17, 18, 19)),
    (("300", "301", "302", "303", "304", "305", "36", "38", "39"), (14, 15, 16, 17, 18, 19)),
    (("62",), (16, 17, 18, 19)),
    (("50", "56", "57", "58", "6"), (12, 13, 14, 15, 16, 17, 18, 19)),
    (("2200", "2201", "2202", "2203", "2204"), (16, 17, 18, 19)),
    (("9792",), (16,)),
    (("81", "82"), (16, 17, 18, 19)),
    (("9704",), (16, 19)),
    (("8600", "9860"), (16,)),
)


def _card_network(digits: str) -> bool:
    return any(len(digits) in lengths and digits.startswith(prefixes) for prefixes, lengths in _NETWORKS)


# Words that say a sentence is about a card or a payment: there a word such as "#", "id", "case" or "booking"
# before a valid card number does not make it a document's number ("Pay with card #4111 ...").
_CARD_WORDS = re.compile(
    r"(?i)\b(?:cards?|credit|debit|visa|master\s?card|amex|american\s+express|maestro|cvv|cvc|expiry|exp|pay|pays|"
    r"paid|paying|payments?|charged?|charging|billing|checkout|kreditkarte|karte|zahlung|carte|paiement|tarjeta|"
    r"carta|cart[ãa]o|pago|pagamento)\b|カード|クレジット|信用卡|银行卡|銀行卡|신용카드|카드"
)
# A card's number right after its label ("card number:", "クレジットカード番号"): a new network's prefix that the
# table above lacks is still a card there, when its length is a card's and its Luhn digit holds.
_CARD_LABEL = re.compile(
    r"(?i)(?:\b(?:card|kreditkarte|karte|carte|tarjeta|carta|cart[ãa]o|kart[ıi]?m?|karty?|kartu|kaart|kort|"
    r"карт[аыуеой]{0,2}|картк[аиуі]|κάρτα[ς]?|thẻ)|カード|信用卡|银行卡|銀行卡|카드|بطاقة|کارت|कार्ड)"
    r"[^\n\d.!?]{0,24}$"
)
# A sentence ends at a line break, or at ".", "!" or "?" before a word ("card no. 4111" is one sentence).
_SENTENCE_END = re.compile(r"[.!?](?=\s+[^\d\s])|\n")


def _about_a_card(text: str, start: int, end: int) -> bool:
    """Whether the sentence around ``text[start:end]`` speaks of a card or a payment."""
    before = text[max(0, start - 120) : start]
    ends = list(_SENTENCE_END.finditer(before))
    if ends:
        before = before[ends[-1].end() :]
    after = text[end : end + 120]
    if stop := _SENTENCE_END.search(after):
        after = after[: stop.start()]
    return bool(_CARD_WORDS.search(before) or _CARD_WORDS.search(after))


# A 4-4-4-4 print whose middle gap differs from the two beside it reads as two numbers as well as one card: a
# range from a low end to a high end ("4400 1000-4400 2000", serials, meter readings, a BIN range), or two dashed
# numbers side by side ("4111-1111 1111-1111", a pair of order or part numbers). A card typed with mixed gaps has
# one odd gap ("4111 1111 1111-1111") or halves no range has ("5500 0000-0000 0004").
_HALVES = re.compile(r"(\d{4})( {1,2}|-)(\d{4})( {1,2}|-)(\d{4})( {1,2}|-)(\d{4})")


def _two_numbers(text: str, start: int, end: int) -> bool:
    """Whether the card-shaped ``text[start:end]`` is printed as two numbers and read as two there."""
    m = _HALVES.fullmatch(text, start, end)
    if m is None:
        return False
    first, middle, last = ("-" if gap == "-" else " " for gap in m.group(2, 4, 6))  # one space or two: a space
    if first != last or first == middle:
        return False
    if middle == "-":  # a range: the high end after the low one, of the same magnitude
        low, high = m.group(1) + m.group(3), m.group(5) + m.group(7)
        return low < high and low[0] == high[0]
    return not _about_a_card(text, start, end)  # two dashed numbers: one card only where a card is spoken of


# Groups of digits printed on after a card-shaped run: a number longer than any card, unless its sentence speaks of a
# card (the expiry and the code may follow the number). A group before a slash or a dot and a digit is a date or an
# amount, not more of the number.
_MORE_GROUPS = re.compile(rf"(?:{_GAP}\d{{2,4}}(?![\d/.,:]\d|\d))+")


def cards(text: str) -> Spans:
    """Payment card numbers: a network's prefix and length and a valid Luhn digit; not a barcode, not two numbers
    printed side by side or as a range (``_two_numbers``), and not an order (or any number after a word of
    ``NOT_PERSONAL``) unless its sentence speaks of a card or a payment."""
    for m in _CARD.finditer(text):
        digits = re.sub(r"\D", "", m.group(0))
        more = _MORE_GROUPS.match(text, m.end())
        if (
            more
            and len(digits) + sum(c.isdigit() for c in more.group(0)) > 19
            and not _about_a_card(text, m.start(), m.end())
        ):
            continue  # a longer run printed in groups (a parcel's 24 digits), where no card is spoken of
        labelled = len(digits) in (15, 16, 19) and _CARD_LABEL.search(text, max(0, m.start() - 40), m.start())
        if not ((_card_network(digits) or labelled) and luhn.is_valid(digits)):
            continue
        if _two_numbers(text, m.start(), m.end()):
            continue
        if _not_personal(text, m.start()) and not _about_a_card(text, m.start(), m.end()):
            continue
        if digits == m.group(0) and len(digits) in (12, 13) and ean.is_valid(digits):
            continue  # an EAN-13 or UPC-A barcode printed as one run
        yield m.start(), m.end()


# -- US SSN, UK NINO --------------------------------------------------------------------------------------------

_SSN = re.compile(r"(?<![\d-])\d{3}([- ])\d{2}\1\d{4}(?![\d-])")
_SSN_BARE = re.compile(r"(?<![\d-])\d{9}(?![\d-])")
_SSN_LABEL = re.compile(
    r"(?i)\b(?:ssn|social(?:\s+security)?(?:\s+(?:number|no\.?|#))?|ss#)(?:\s*\([^()\n]{1,24}\))?\s*(?:is\s*)?[:#]?\s*$"
)
# How far before nine digits their label may start: the longest label, a remark of 24 in brackets and the
# separators ("social security number (from last year's form) is: ") fit.
_SSN_LABEL_REACH = 64


def ssns(text: str) -> Spans:
    """SSNs the SSA could issue, dashed or spaced 3-2-4 (not right after a word naming a thing's number, "SKU"),
    or nine digits right after a label ("SSN: ...")."""
    for m in _SSN.finditer(text):
        if ssn.is_valid(m.group(0).replace(" ", "-")):
            before = text[max(0, m.start() - _SSN_LABEL_REACH) : m.start()]
            if names_a_thing(before) and not _SSN_LABEL.search(before):
                continue  # a part or an order number shaped like an SSN ("SKU 123-45-6789")
            yield m.start(), m.end()
    lower = text.lower()
    if "ssn" not in lower and "social" not in lower and "ss#" not in lower:
        return
    for m in _SSN_BARE.finditer(text):
        before = text[max(0, m.start() - _SSN_LABEL_REACH) : m.start()]
        if _SSN_LABEL.search(before) and ssn.is_valid(m.group(0)):
            yield m.start(), m.end()


_NINO = re.compile(
    r"(?i)(?<![A-Za-z0-9])(?!BG|GB|NK|KN|TN|NT|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]"
    r"(?![A-Za-z0-9])"
)
_NINO_LABEL = re.compile(r"(?i)\b(?:ni|nino|national\s+insurance)\b")


def ninos(text: str) -> Spans:
    """UK National Insurance numbers; written in lower case only after a label ("my NI number is ...")."""
    for m in _NINO.finditer(text):
        if m.group(0).isupper() or _NINO_LABEL.search(text[max(0, m.start() - 30) : m.start()]):
            yield m.start(), m.end()


# -- national identifiers with a check digit --------------------------------------------------------------------

_IDS: tuple[tuple[re.Pattern[str], Callable[[str], bool]], ...] = (
    (re.compile(r"(?<![\w-])\d{8}-?[A-Za-z](?![\w-])"), dni.is_valid),
    (re.compile(r"(?<![\w-])[XYZxyz]-?\d{7}-?[A-Za-z](?![\w-])"), nie.is_valid),
    (re.compile(r"(?<!\w)[A-Za-z]{6}\d{2}[A-Za-z]\d{2}[A-Za-z]\d{3}[A-Za-z](?!\w)"), codicefiscale.is_valid),
    (re.compile(r"(?<![\d.-])\d{3}\.\d{3}\.\d{3}-\d{2}(?![\d-])"), cpf.is_valid),
)


def national_ids(text: str) -> Spans:
    """Identifiers whose format and check digit are distinctive enough without a label."""
    for pattern, valid in _IDS:
        for m in pattern.finditer(text):
            if valid(m.group(0)):
                yield m.start(), m.end()


# -- IP addresses -----------------------------------------------------------------------------------------------

# The letters and digits an address is never joined to: Latin, Greek and Cyrillic ones. Japanese and Chinese write no
# space between a word and an address ("...は153.0.2.7です"), so their letters around it end it.
_WORD = r"A-Za-z0-9_\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff"
_IPV4 = re.compile(
    rf"(?<![{_WORD}.])(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){{3}}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)"
    rf"(?![{_WORD}]|\.\d)"
)
# What says a dotted quad is a version: a version word, in English or another language, right before it ("version
# 10.2.3.4", "versión 1.1.4.2", "firmware is now 10.2.3.4", "v1.2.3.4"), "updated (the router) to", or a product's
# name directly before it ("kernel 5.4.0.42").
# A product word further back says nothing: "the client connected from 81.2.69.160" is an address.
_VERSION_BEFORE = re.compile(
    r"(?i)(?:\b(?:v|ver|versions?|versi[óo]n|vers[ãa]o|versione|versie|wersj[ai]|verze|versio|sürüm|firmware|fw|"
    r"build|release[sd]?|rev|revision|patch|hotfix|"
    # in more languages: Russian and Ukrainian (a release, a build, a firmware, a configuration), Greek, Hungarian,
    # Romanian, Indonesian, Vietnamese, Norwegian
    r"верси[яиюі]|релиз[а]?|релізу?|сборк[аи]|збірк[аи]|прошивк[аи]|редакци[яиюе]|конфигураци[яиюе]|конфігураці[яїює]|"
    r"έκδοση|έκδοσης|verzi[óo]|versiun(?:e|ea)|versi|phi[êe]n\s+b[ảa]n|versjon)\b\.?[\s:=#]*"
    r"(?:(?:is|was|now|to|no|nr|number)\b\.?[\s:=#]*){0,2}"
    # the product's name in quotes between the word and its number ("configuration «Ledger» 3.0.1.2")
    r"(?:[«\"“„'][^«»\"“”„'\n]{1,30}[»\"”“'][\s:=#]*)?"
    r"|\b(?:update[sd]?|updating|upgrade[sd]?|upgrading|bumped|downgraded?)\b[^\n.;:!?]{0,24}?\bto\s+"
    r"|\b(?:sdk|bios|driver|kernel|os|ios|android|windows|macos|plugin|package|edition)\s+|\bv"
    # Japanese, Chinese and Korean write "version" with no space before it, and their "is" joined to it
    r"|(?:バージョン|版本|버전)\s*(?:は|が|是|为|為|은|는|이)?[\s:=#\uff1a]*"
    # a document's numbered part ("section 2.3.4.1", "§ 4.1.2.3", "Abschnitt", "chapitre")
    r"|(?:\b(?:sections?|sec|chapters?|clauses?|paragraphs?|para|articles?|appendix|annex|figure|fig|table|step|"
    r"abschnitt|kapitel|absatz|chapitre|sezione|capitolo|secci[\u00f3o]n|cap[\u00edi]tulo|hoofdstuk|sectie|artikel)\b\.?|\u00a7)\s*)$"
)
_PORT = re.compile(r":\d{1,5}(?!\d)")
# Reserved, never given to a host: what is written there is a netmask ("255.255.255.0") or the broadcast address.
_NO_HOST = ipaddress.IPv4Network("240.0.0.0/4")
_VERSION_AFTER = re.compile(r"^(?:[-+~][A-Za-z]|\s*\((?:build|beta|rc|release))", re.IGNORECASE)


def names_a_version(label: str) -> bool:
    """A value after ``label`` ("firmware", "build number") is read as a version, not an address."""
    return _VERSION_BEFORE.search(label + ": ") is not None


def ipv4s(text: str) -> Spans:
    """Dotted quads that are addresses: not after a version word, not followed by a pre-release suffix, unless a
    port follows them."""
    for m in _IPV4.finditer(text):
        if m.group(0).startswith("0.") or ipaddress.IPv4Address(m.group(0)) in _NO_HOST:
            continue  # 0.0.0.0/8 names no host, 0.9.1.2 is a version; 240.0.0.0/4 holds netmasks and the broadcast
        port = _PORT.match(text, m.end())
        if port is None and (
            _VERSION_BEFORE.search(text[max(0, m.start() - 40) : m.start()]) or _VERSION_AFTER.match(text[m.end() :])
        ):
            continue  # a quad with a port is an address whatever word stands before it
        yield m.start(), port.end() if port else m.end()


_IPV6 = re.compile(r"(?<![\w:.])[0-9A-Fa-f:]*:[0-9A-Fa-f:]*:[0-9A-Fa-f:.]*(?:%[A-Za-z0-9]+)?(?![\w:])")


def ipv6s(text: str) -> Spans:
    """IPv6 addresses as ``ipaddress`` reads them; "a::b" (no digit) and times are not."""
    for m in _IPV6.finditer(text):
        value = m.group(0).rstrip(".")  # the full stop that ends a sentence
        if value.count(":") < 2 or not any(ch.isdigit() for ch in value):
            continue
        try:
            ipaddress.IPv6Address(value)
        except ValueError:
            continue
        yield m.start(), m.start() + len(value)
