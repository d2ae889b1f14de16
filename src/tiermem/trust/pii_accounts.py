"""(internal) A bank account's national number after a label that names a bank account.

An IBAN carries its own check digits (``pii_numbers``); a domestic account number (a Korean "계좌번호", an Indonesian
"rekening", a German "Kontonummer") has no check a reader can apply, so only its label says whose it is. The label
must name a bank's account: a utility's, a shop's or a service's "account number" is a customer number and stays.
The bank's name may stand between the label and the number ("계좌번호 신한 ...", "rekening BCA ...").
"""

# ruff: noqa: RUF001  (the labels are written in the scripts they match)

from __future__ import annotations

import re
from collections.abc import Iterator

__all__ = ["ACCOUNT_HINTS", "bank_accounts"]

# The labels, by language: English (a bank's, a checking or a savings account), German, Dutch and the Nordic
# languages, the Romance languages, Polish, Russian and Ukrainian, Turkish, Indonesian and Malay, Vietnamese,
# Filipino; then those written without spaces or in other scripts (Korean, Japanese, Chinese, Thai, Hindi, Arabic,
# Persian).
_SPACED = (
    r"(?:bank|checking|chequing|savings?)\s+(?:account|acct\.?)(?:\s+(?:number|no\.?|nr\.?|#))?|bank\s+a/c|"
    r"kontonummer|konto-?nr\.?|bankkonto(?:nummer)?|"
    r"bankverbindung|rekeningnummer|bankrekening|kontonr\.?|"
    r"cuenta\s+bancaria|n[úu]mero\s+de\s+cuenta\s+bancaria|conta\s+banc[áa]ria|conta\s+corrente|"
    r"compte\s+bancaire|conto\s+corrente|numer\s+(?:konta|rachunku)|nr\s+(?:konta|rachunku)|rachun(?:ek|ku)\s+bankow\w*|"
    r"расч[её]тн(?:ый|ого)\s+сч[её]т[а]?|банковск(?:ий|ого)\s+сч[её]т[а]?|номер\s+банковского\s+сч[её]та|"
    r"банківськ(?:ий|ого)\s+рахун(?:ок|ку)|номер\s+рахунку|р/с|banka\s+hesab[ıi]|hesap\s+(?:no|numaras[ıi])|"
    r"rekening|no\.?\s*rek\.?|nomor\s+rekening|akaun\s+bank|no\.?\s*akaun|"
    r"s[ốo]\s+t[àa]i\s+kho[ảa]n|account\s+number\s+sa\s+bangko"
)
_UNSPACED = (
    r"계좌(?:번호)?|입금\s*계좌|口座番号|振込先口座|口座|银行账号|银行账户|收款账号|銀行帳號|銀行帳戶|เลขที่บัญชี|บัญชีธนาคาร|"
    r"खाता\s+(?:संख्या|नंबर|नम्बर)|बैंक\s+खाता|رقم\s+الحساب(?:\s+البنكي)?|شماره\s+حساب"
)
_LABEL = (
    rf"(?i)(?:(?<![^\W\d_])(?:{_SPACED})(?![^\W\d_])|(?:{_UNSPACED}))"
    # a sign, then the bank's name in a word or two ("신한", "BCA", "Banco Itaú"), then a sign again
    r"\s*[:#=]?\s*((?:[^\W\d_][\w.&'’-]*\s+){0,2}?)[:#=]?\s*"
)
# Six to twenty digits, in groups joined by a space or a dash; not a decimal, not part of a longer run.
_ACCOUNT = re.compile(_LABEL + r"(?<![\d.,-])(\d(?:[ -]?\d){5,19})(?![\d]|[.,/-]\d)")
# What says the number is an amount, not the account: a word for a balance or a sum between the label and it, or a
# currency after it.
_AMOUNT = re.compile(
    r"(?i)\b(?:balance|amount|total|sum|saldo|kontostand|betrag|solde|montant|jumlah|sebesar|nominal|остаток|баланс|"
    r"сумма|bakiye|tutar|kwota|số\s+dư)\b|잔액|残高|余额|餘額|金額|金额"
)
_CURRENCY_AFTER = re.compile(
    r"\s?(?:[$€£¥₹₩₽%]|(?:usd|eur|gbp|idr|krw|jpy|rub|try|pln|inr|rp|rb|ribu|juta|won|euro|dollars?|руб|zł|tl)\b|원|円|元)",
    re.IGNORECASE,
)

ACCOUNT_HINTS = (
    *("bank", "bangko", "checking", "chequing", "saving", "kont", "bankverbindung", "rekening", "kontonr"),
    *("cuenta", "conta", "compte", "conto"),
    *("rachun", "счёт", "счет", "счёта", "счета", "рахун", "hesab", "hesap", "rek", "akaun", "khoản", "khoan", "р/с"),
    *("계좌", "口座", "账号", "账户", "帳號", "帳戶", "บัญชี", "खाता", "الحساب", "حساب"),
)


def bank_accounts(text: str) -> Iterator[tuple[int, int]]:
    """An account number right after a bank account's label (and the bank's name); not an amount."""
    lower = text.lower()
    if not any(hint in lower for hint in ACCOUNT_HINTS):
        return
    for m in _ACCOUNT.finditer(text):
        if _AMOUNT.search(m.group(1)) or _CURRENCY_AFTER.match(text, m.end(2)):
            continue  # a balance or a sum ("bank account balance 125000", "rekening 350000 rupiah")
        yield m.start(2), m.end(2)
