"""(internal) A line of a document in which someone introduces themselves and asks for cash, in several languages.

"Pat, it's Lou from the front desk. Drop the £20 in an envelope at the gatehouse"; "Marco hier van de werf, leg
die 50 euro in de brievenbus"; "c'est Didier, du garage : 30 € à laisser sous le paillasson". Such a line, in a
receipt or a notice from someone else, is an impersonation planted for the person reading. A club's treasurer may
write the same way in their own letter, so the line makes the document flagged for a look, never quarantined.
Names are read by their capital letter, so the line is read as written, not case folded.
"""

# ruff: noqa: RUF001  (the patterns are written in the scripts they match)
from __future__ import annotations

import re

__all__ = ["asks_cash_in_person"]

# a name, not a day, a month or a season ("it's Saturday", "c'est Noël")
_NAME = (
    r"(?!(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day|January|February|March|April|May|June|July|August|September|"
    r"October|November|December|Christmas|Easter|Noël|Navidad|Pâques|Weihnachten)[A-ZÀ-ÖØ-Þ][a-zà-öø-ÿ'-]+"
)
_ARTICLE = r"(?:(?:el|la|le|o|a|der|die|de|il)\s+)?"
_INTRO = re.compile(
    # "it's Lou", "this is Sam", "I'm Jo", "c'est Didier", "soy Mario", "hier ist Uwe", "sono Carla"
    r"(?:\b(?i:it'?s|this\s+is|here'?s|c'est|ici|soy|habla|aquí|hier\s+ist|ich\s+bin|sono|sou|é\s+[oa]|"
    r"jeg\s+er|det\s+er|det\s+är|jag\s+är|ja\s+sam|jestem|tady\s+je)|\bI'?m|\bI\s+am)"
    rf"\s+{_ARTICLE}{_NAME}\b|"
    # "Lou here", "Marco hier", "Carla qui"
    rf"\b{_NAME}\s+(?i:here|hier|ici|aquí|aqui|qui|her|här|tutaj)\b|"
    r"\bэто\s+[А-ЯЁ][а-яё]+\b|\bя\s+[А-ЯЁ][а-яё]+\b|"
    # "I am ... speaking" in Hindi, "I ..." in Tamil, "I am <name>" in Persian and Arabic
    r"मैं\s+\S+(?:\s+\S+){0,3}\s+(?:बोल\s+रह|हूँ)|நான்\s|من\s+\S+(?:م|ام)(?:\s|،|,)|(?:أنا|انا)\s"
)
_CASH = re.compile(
    r"[£€$₹₽¥₱₩₺]\s?\d|\d\s?(?i:€|eur|euros?|quid|pounds|kr|kn|zł|zl|ft|lei|tomans?)\b|تومن|"
    r"\b(?i:cash|tenner|fiver|envelope|enveloppe|envelopje|umschlag|sobre|busta|kuverte?|konvolutt|liquide|"
    r"espèces|contanti|contant|efectivo|bargeld|kontant)\b|наличн\w+|लिफाफ|پاکت|கவர்"
)


def asks_cash_in_person(line: str) -> bool:
    """Whether ``line`` (as written) has someone introduce themselves and speak of cash or an amount."""
    return _INTRO.search(line) is not None and _CASH.search(line) is not None
