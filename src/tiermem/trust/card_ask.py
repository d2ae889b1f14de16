"""(internal) A payment card's number, expiry and security code asked for together, in several languages.

A receipt shows a card's last digits and perhaps its expiry; a bank warns that it never asks for the code on the
back. Only a thief, or a line planted for one, asks its reader for all three at once: no legitimate message
needs the security code sent back to it. The words are case folded, as the scanner reads them.
"""

# ruff: noqa: RUF001  (the patterns are written in the scripts they match)
from __future__ import annotations

import re

__all__ = ["asks_for_a_whole_card"]

_CARD = re.compile(
    r"\b(?:card|tarjeta|carta|carte|cartão|karty?|karte|kaart|kort|karten\w*|карт\w*|kártyá?\w*|kartu|kad|thẻ|"
    r"κάρτα\w*|kreditkort\w*|\w*kortets?|kortnummer\w*|kortti\w*|kortin|kart[iı]n\w*|kredi\s+kart\w*)\b|"
    r"کارت|কার্ড|カード|卡|بطاق|כרטיס|कार्ड|카드|บัตร"
)
_EXPIRY = re.compile(
    r"\b(?:expir\w*|vencimiento|vence|validade|validit[àé]|scadenza|ważnoś\w+|gültig\w*|ablauf\w*|caducidad|"
    r"срок\w*|geldig\w*|vervaldatum|utgång\w*|udløb\w*|utløp\w*|lejár\w*|platnost\w*|λήξη\w*|"
    r"voimassaolo\w*|son\s+kullanma|(?:tarikh\s+)?luput|hết\s+hạn|kedaluwarsa|tamat\s+tempoh|masa\s+berlaku|термін\w*)\b|"
    r"انقضا|الانتهاء|انتهاء|תוקף|মেয়াদ|এক্সপায়ারি|有効期限|有效期|एक्सपायरी|समाप्ति|유효기간|만료|หมดอายุ"
)
_CODE = re.compile(
    r"\b(?:cvv2?|cvc2?|cvn|cid|security\s+code|código\s+de\s+seguridad|código\s+de\s+segurança|codice\s+di\s+"
    r"sicurezza|cryptogramme|prüfnummer|kod\s+cvc|kontrolcifre\w*|kontrollsiffer\w*|sikkerhedskode|"
    r"säkerhetskod|turvakoodi|g[üu]venlik\s+kodu|kode\s+keamanan|mã\s+bảo\s+mật|biztonsági\s+kód)\b|"
    # the code by where it is printed: "the three digits on the back", "los numeritos de atrás", "il codice dietro"
    r"\b(?:on\s+the\s+back|de\s+atrás|atrás|dorso|dietro|retro|au\s+dos|auf\s+der\s+rückseite|z\s+tyłu|"
    r"на\s+обороте|сзади|на\s+звороті|achterop|på\s+baksidan|på\s+bagsiden|på\s+baksiden|hátoldal\w*|"
    r"zadní\s+stran\w*|πίσω|arkas[iı]ndaki|mặt\s+sau|belakang|takana)\b|"
    r"پشت|পেছনের|背面|裏面|الرمز|رمز\s+الأمان|ورا|خلف|בגב|पीछे|सीवीवी|뒷면|ด้านหลัง"
)
# A warning denies the ask: "we will never ask for your card number, expiry or CVV". Said with "never", or with
# "not" governing an ask ("we do not ask for"); a bare "not" elsewhere ("don't miss the deadline: reply with ...")
# denies nothing.
_NEVER = re.compile(
    r"\b(?:never|nunca|jamás|jamais|mai|niemals|nigdy|никогда|aldrig|nooit|aldri)\b|"
    r"\b(?:not|don't|doesn't|won't)\s+(?:\w+\s+){0,2}?(?:ask|request|need|require|want|call|e-?mail|text|phone)\w*\b|"
    r"هرگز|কখনও|决不|絶対に"
)


def asks_for_a_whole_card(line: str) -> bool:
    """Whether ``line`` names a card's number, its expiry and its security code together, and denies none of it."""
    return (
        _CARD.search(line) is not None
        and _EXPIRY.search(line) is not None
        and _CODE.search(line) is not None
        and _NEVER.search(line) is None
    )
