"""(internal) Whether a line names a machine reader (an AI, an assistant, a bot, a program), in many languages.

An order planted in a letter is written to whatever will read the letter for its user, so it names that reader
("for the AI that sorts this mail", "à l'assistant IA", "tekoälylle", "ejen AI"); a letter's own lines speak to
the person it is addressed to. The multilingual classifier reads each line of a letter in another language alone,
where a payment line or a "we never ask for your PIN" notice can read like an order; a line that names no machine
reader is left to the letter read whole.
"""

from __future__ import annotations

import re

__all__ = ["names_machine_reader"]

# Abbreviations, as written: "AI", "KI", "IA", "MI", "ИИ" (in lower case they are ordinary words in some languages).
_ABBREVIATIONS = re.compile(r"(?<!\w)(?:A\.?I\.?|I\.?A\.?|K\.?I\.?|MI|YZ|LLM|GPT|ИИ|ШІ)(?!\w)|\b(?:AI|IA|KI|MI)-\w+")
# Latin, Cyrillic and Greek words, matched as whole words (case folded).
_WORDS = re.compile(
    r"\b(?:llm|gpt|bots?|chatbots?|robots?|"
    # an assistant
    r"assist\w*|asist\w*|asyst\w*|avustaj\w*|asszisztens\w*|pomoćnik\w*|pomocnik\w*|pomočnik\w*|cynorthwy\w*|"
    r"msaidizi|ассистент\w*|асистент\w*|помощник\w*|помічник\w*|βοηθ\w*|"
    # a program, software, an agent, a model
    r"program\w*|ohjelm\w*|rhaglen\w*|programu|software|logiciel\w*|ejen|agent\w*|агент\w*|модел\w*|"
    r"modelo|modello|modèle|modell|model|sprachmodell\w*|"
    # artificial intelligence
    r"tekoäl\w*|tehisintellekt\w*|intellig\w*|intel[·.]?lig\w*|inteligenc\w*|intelekt\w*|intellekt\w*|"
    r"интелект\w*|интеллект\w*|інтелект\w*|νοημοσύν\w*|"
    r"deallusrwydd|akili\s+bandia|kecerdasan\s+buatan|yapay\s+zek\w*|trí\s+tuệ\s+nhân\s+tạo|trợ\s+lý)\b"
)
# Scripts without spaces between words, and right-to-left ones: matched as substrings.
_PHRASES = re.compile(
    r"人工智能|人工知能|智能助手|助手|アシスタント|ボット|인공지능|어시스턴트|비서|챗봇|ai\s*에이전트|에이전트|"
    r"कृत्रिम\s+बुद्धि\w*|सहायक|এআই|সহকারী|الذكاء\s+الاصطناعي|المساعد|مساعد|هوش\s+مصنوعی|دستیار|"
    r"בינה\s+מלאכותית|עוזר|ปัญญาประดิษฐ์|ผู้ช่วย|ხელოვნური\s+ინტელექტ\w*|ასისტენტ\w*|აგენტ\w*|"
    r"արհեստական\s+բանականություն|օգնական"
)


def names_machine_reader(text: str) -> bool:
    """Whether ``text`` names an AI, an assistant, a bot, a program or an agent, in any of many languages."""
    folded = text.casefold()
    return any(p.search(t) is not None for p, t in ((_ABBREVIATIONS, text), (_WORDS, folded), (_PHRASES, folded)))
