"""(internal) A payment card's number, expiry and security code asked for together, in several languages.

A receipt shows a card's last digits and perhaps its expiry; a bank warns that it never asks for the code on the
back. Only a thief, or a line planted for one, asks its reader for all three at once: no legitimate message
needs the security code sent back to it. The words are case folded, as the scanner reads them.
"""

from __future__ import annotations

import re

__all__ = ["asks_for_a_whole_card"]

_CARD = re.compile(
    r"\b(?:card|tarjeta|carta|carte|cartão|karty?|karte|kaart|kort|karten\w*|карт\w*)\b|کارت|কার্ড|カード|卡"
)
_EXPIRY = re.compile(
    r"\b(?:expir\w*|vencimiento|vence|validade|validit[àé]|scadenza|ważnoś\w+|gültig\w*|ablauf\w*|"
    r"срок\w*|geldig\w*|utgång\w*|udløb\w*)\b|انقضا|মেয়াদ|এক্সপায়ারি|有効期限|有效期"
)
_CODE = re.compile(
    r"\b(?:cvv2?|cvc2?|cvn|cid|security\s+code|código\s+de\s+seguridad|código\s+de\s+segurança|codice\s+di\s+"
    r"sicurezza|cryptogramme|prüfnummer|kod\s+cvc)\b|"
    # the code by where it is printed: "the three digits on the back", "los numeritos de atrás", "il codice dietro"
    r"\b(?:on\s+the\s+back|de\s+atrás|atrás|dietro|au\s+dos|auf\s+der\s+rückseite|z\s+tyłu|на\s+обороте|"
    r"сзади|achterop|på\s+baksidan)\b|پشت|পেছনের|背面|裏面"
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
