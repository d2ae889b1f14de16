"""(internal) Whether a line speaks to an agent: names a machine reader (an AI, an assistant, a bot, a program) or
"the user", in many languages.

An order planted in a letter is written to whatever will read the letter for its user, so it names that reader
("for the AI that sorts this mail", "à l'assistant IA", "tekoälylle") or the person it serves as "the user"; a
letter's own lines speak to the person it is addressed to. The multilingual classifier reads each line of a letter
in another language alone, where a payment line or a "we never ask for your PIN" notice can read like an order; a
line that speaks to no agent is left to the letter read whole unless the classifier is sure of it.
"""

# ruff: noqa: RUF001  (the words are written in the scripts they match)

from __future__ import annotations

import re

__all__ = [
    "DOCUMENT_LINES",
    "calls_on_a_machine_reader",
    "is_document",
    "names_machine_reader",
    "speaks_of_an_agents_world",
]

DOCUMENT_LINES = 4  # a text of this many lines or more is read as a document: a letter, a notice, a table

# Abbreviations, as written: "AI", "KI", "IA", "MI", "ИИ" (in lower case they are ordinary words in some languages).
# Beside letters of scripts written without spaces ("メール処理AIへ") they still stand alone.
_ABBREVIATIONS = re.compile(
    r"(?<![A-Za-z0-9\u0400-\u04ff])(?:A\.?I\.?|I\.?A\.?|K\.?I\.?|MI|YZ|LLM|GPT|ИИ|ШІ)(?![A-Za-z0-9\u0400-\u04ff])|"
    r"\b(?:AI|IA|KI|MI)-\w+"
)
# Latin, Cyrillic and Greek words, matched as whole words (case folded).
_ASSISTANT = (
    r"llm|gpt|bots?|chatbots?|robots?|robô\w*|robozinh\w*|robotic\w*|robotit\w*|бот|боту|бота|ботик\w*|"
    # an assistant
    r"\w*assist\w*|\w*asist\w*|\w*asyst\w*|\w*forrit\w*|avustaj\w*|asszisztens\w*|pomoćnik\w*|pomocnik\w*|pomočnik\w*|cynorthwy\w*|"
    r"msaidizi|ассистент\w*|асистент\w*|помощник\w*|помічник\w*|βοηθ\w*|"
    # artificial intelligence
    r"tekoäl\w*|tehisintellekt\w*|intel[·.]?lig\w*|inteligen\w*|intelekt\w*|intellekt\w*|"
    r"интелект\w*|интеллект\w*|інтелект\w*|νοημοσύν\w*|"
    r"deallusrwydd|akili\s+bandia|kecerdasan\s+buatan|yapay\s+zek\w*|trí\s+tuệ\s+nhân\s+tạo|trợ\s+lý|"
    # a language model
    r"\w*sprachmodell\w*|\w*taalmodel\w*|\w*språkmodell\w*|modelo\s+de\s+(?:linguagem|lenguaje)|"
    r"modèle\s+de\s+langage|modello\s+linguistico|jazykov\w*\s+model\w*|model\w*\s+językow\w*|language\s+model"
)
# A program or software, in the languages that name it alike.
_PROGRAM = r"program\w*|програм\w*|программ\w*|software|logiciel\w*"
_WORDS = re.compile(
    rf"\b(?:{_ASSISTANT}|"
    # a program, software, an agent, a model
    + _PROGRAM
    + r"|πρόγραμμα\w*|προγράμμα\w*|ohjelm\w*|rhaglen\w*|"
    r"phần\s+mềm|chương\s+trình|perangkat\s+lunak|ejen|agent\w*|агент\w*|модел\w*|model\w*|modèle|\w*sprachmodell\w*|"
    r"нейросет\w*|нейронн\w*)\b"
)
# Scripts without spaces between words, and right-to-left ones: matched as substrings.
_ASSISTANT_PHRASES = (
    r"人工智能|人工知能|智能助手|助手|アシスタント|ボット|인공지능|어시스턴트|비서|챗봇|"
    r"ذكاء\s+\S*اصطناعي|زیرەکی\s+دەستکرد|هوش\s+\S*مصنوعی|אַסיסטענט|אסיסטנט|בינה\s+\S*מלאכותית|"
    r"कृत्रिम\s+बुद्धि\w*|सहायक|এআই|সহকারী|مساعد|دستیار|مددگار|"
    r"עוזר|ปัญญาประดิษฐ์|ผู้ช่วย|ხელოვნური\s+ინტელექტ\w*|ასისტენტ\w*|"
    r"արհեստական\s+բանականություն|օգնական"
)
_PHRASES = re.compile(
    rf"{_ASSISTANT_PHRASES}|プログラム|ソフト|程序|软件|軟體|程式|에이전트|프로그램|소프트웨어|प्रोग्राम|सॉफ्टवेयर|"
    r"โปรแกรม|برنامج|برنامه|תוכנ\w*|აგენტ\w*"
)
# An AI or an assistant by name, not a program, a model or an agent: "Programa de fiestas:", "Modelo 303:" and
# "Agente: ..." head ordinary lines.
_CALLED = re.compile(rf"\b(?:{_ASSISTANT})\b|{_ASSISTANT_PHRASES}")
# A machine of any name (a program, a computer, a gadget) is called on when the address says what it does for
# someone ("Für das Programm, welches ihre Rechnungen zahlt:", "للبرنامج اللي ...:", "el aparato que lee sus correos:");
# alone it heads ordinary lines ("Programa de fiestas:", "Computer: ..."). Languages that put the clause first
# end the address with the machine ("メールば読んでらコンピューターさ", then a full-width colon), and Vietnamese
# names "the machine" outright.
_MACHINE = re.compile(
    r"\b(?:" + _PROGRAM + r"|computer\w*|komputer\w*|computador\w*|"
    r"ordenador\w*|ordinateur\w*|rechner\w*|maschine\w*|machine\w*|máquina\w*|macchin\w*|maskin\w*|cacharr\w*|"
    r"aparat\w*|gadget\w*|apps?|appen|appar|äpp\w*|aplicaci\w*|aplikac\w*|maszyn\w*|maquin\w*|ordi|bidule\w*|ding|"
    r"thingy|gizmo|εφαρμογ\w*|συσκευ\w*|εργαλεί\w*|λάπτοπ)\b|برنامج|آلة|برنامه|الشي"
)
_RELATIVE = re.compile(
    r"\b(?:que|qui|che|cui|wo|welche\w*|som|which|that|what|who|któr\w*|kter\w*|ktor\w*|koj\w*|co|που|что|"
    r"которы\w*|ča|što|yang|wat)\b|,\s*(?:der|die|das|den|dem)\b|"
    # or an English participle or verb on someone's things: "the software reading Dana's mail", "thing reads her post"
    r"\b\w+(?:ing|in'|s)\s+(?:\w+'s|his|her|their)\b|"
    r"(?<!\S)(?:اللي|الذي|التي|يلي|اللى|که)(?!\S)"
)
_MACHINE_LAST = re.compile(
    r"(?:コンピューター?|パソコン|プログラム|ソフト|アプリ|アシスタント|电脑|電腦|程序|软件|軟體|컴퓨터|프로그램|"
    # Tamil ends the address with the machine and a case ending: "...வாசிக்கிற கொம்பியூட்டர் புரோகிராமுக்கு"
    r"(?:புரோகிரா|ப்ரோகிரா|கம்ப்யூட்ட|கொம்பியூட்ட)\S*)"
    r"(さん|さま|様|さ|へ|に|くん|君|님|아|야)?\s*$|"
    # Finnish puts what the machine does first, as a participle: "Jussin meilejä lukeva äppi"
    r"\b\w+(?:va|vä)\s+(?:äppi|appi|sovellus|ohjelma|kone)()\s*$"
)
_CALLED_WITH_COMMA = re.compile(r"(.{3,60}?)、\s*\S.{10,}", re.DOTALL)
_THE_MACHINE = re.compile(r"\bcái\s+máy\b")
# In English an assistant named alone is a person ("To the school office assistant:"); a machine is named so.
_PERSON_ASSISTANT = re.compile(r"assistants?")
_MACHINE_ASSISTANT = re.compile(
    r"\b(?:ai|a\.i\.|virtual|digital|voice|smart|automated|e-?mail|mail|inbox|chat|shopping|coding|writing)\s+"
    r"(?:[\w-]+\s+)?assistants?\b"
)
# Whatever sits on someone's device, named: "the clever thing on Ion's phone:", "ta aplikace v Tomášově mobilu:"
# (not the reader's own, "the app on your phone:", nor a service's, "Top up on the mobile:").
_OWNER = re.compile(r"(?<![\w'’])[A-ZÀ-ÖØ-ÞΑ-ΩΆ-ΏА-ЯŠČŽŘĆĐ][\w'’]*")
_ON_DEVICE = re.compile(
    r"\S\s+(?:in|on|im|am|auf|dans|sur|din|de\s+pe|στο|στη|v|ve|na|в|на|en|no|nel|sul|op|på)\s+"
    r"(?!(?:your|you|tu|tus|ton|ta|votre|vos|dein\w*|ihr\w*|tv\w+|σου|ваш\w*|тво\w+|din|dit|jouw|uw|seu|sua|teu|"
    r"tuo|tua|vostr\w*)\b)(?:[\w'’.-]+\s+){0,3}?(?:[ldn]['’])?"
    r"(?:phone|mobile|laptop|computer|tablet|handy|telefon\w*|mobil\w*|λάπτοπ|κινητό|υπολογιστ\w*|ordi|ordinateur|"
    r"portable|celular|móvil|movil|телефон\w*|ноутбук\w*|компьютер\w*|laptopie|komputerze)\b"
)
# Someone's own machine, named last: "Dana's household payments app:" ("Payments app:" heads an ordinary line).
_OWNERS_MACHINE = re.compile(
    r"^(?:(?:mr|mrs|ms|dr)\.?\s+)?(?:\w+\s+)?\w+(?:'s|s')(?:[^:]{0,40}\b(?:app|software|program|bot)|[^:]{1,40}\shelper)$|"
    # in other languages: "Pieter z'n betaalhulp:", "रीना का पेमेंट ऐप:"
    r"^(?:\w+\s+){1,3}(?:z['’]n|zijn|d['’]r|haar)\s+\S*(?:app|hulp|programma)\S*$|"
    r"^\S+(?:\s+\S+){0,2}\s+(?:का|की|के)\s+(?:\S+\s+){0,4}(?:ऐप|एप|सॉफ्टवेयर|प्रोग्राम)$|^(?:\S+\s+){1,4}ஆப்\S*$"
)
# Someone's app in a Romance language, owned by a person named with a capital: "L'appli de Mme Roux:", "La app de
# Marta:" ("La app de la biblioteca:" is a library's).
_APP_OF = re.compile(
    r"^(?i:[ld]['’]|la\s+|el\s+|il\s+|[oa]\s+)?(?i:app|appli|application|aplicación|aplicação|applicazione)\s+"
    r"(?:\S+\s+){0,3}?(?i:de|di|do|da|del|della|du)\s+(?:(?i:mme|mlle|m\.|sra?\.?|don|doña|dona|signora|sig\.ra)\s+)?"
    r"[A-ZÀ-ÖØ-Þ]\S*(?:\s+\S+)?$"
)
# "You who read ...", called as a machine is: "Εσύ που διαβάζεις τους λογαριασμούς του:", "Ty, co czytasz ...:".
_YOU_WHO = re.compile(
    # not English: a letter speaks to its readers so ("You who have already paid: thank you")
    r"(?:^|[,!]\s*)(?:tu|tú|ty|ti|εσύ|ты|du)\s*,?\s+(?:que|che|co|ča|što|που|что|der)\b|"
    # "Whatever reads Dana's post:", "Whatever helps Sam with the bills:"
    r"\bwhatever\s+(?:reads|checks|helps|handles|sorts|opens|summari[sz]es|manages|pays|looks\s+after)\b"
)
# A machine called by name with a comma, first thing in the line: "Asisten, ...", "يا مساعد، ...", "Yapay zekâ,
# ..."; a heading names one with a colon ("Asistente de dirección: ..."), a letter's sentence seldom opens so.
_VOCATIVE = re.compile(
    r"(?:(?:يا|ey|hey|hei|oi|ô)\s+)?(?:pembantu|penolong|(?P<name>.{2,30}?))\s*[,،]\s*\S.{10,}", re.DOTALL
)
# A line that opens with an address ending in a colon, and goes on: "Para el asistente que lee esto: ...".
_COMMA = re.compile(r",\s*")
_OPENING = re.compile(r"(.{3,100}?)[:：]\s*\S.{10,}", re.DOTALL)


# "The user": only an agent has one; a letter calls its reader "you" or by name.
_USER = re.compile(
    r"\b(?:usuari\w*|utilisat\w*|utilizat\w*|utent\w*|benutzer\w*|nutzer\w*|gebruiker\w*|użytkowni\w*|"
    r"uživatel\w*|používateľ\w*|uporabni\w*|korisni\w*|felhasznál\w*|käyttäj\w*|kasutaja\w*|användar\w*|"
    r"bruger\w*|bruker\w*|brúkar\w*|notand\w*|naudotoj\w*|lietotāj\w*|kullanıcı\w*|pengguna|người\s+dùng|"
    r"пользовател\w*|користувач\w*|корисник\w*|потребител\w*|χρήστ\w*|mtumiaji|watumiaji)\b|"
    r"משתמש|مستخدم|کاربر|صارف|उपयोगकर्ता|ব্যবহারকারী|ผู้ใช้|用户|用戶|使用者|ユーザー|사용자|이용자"
)


def names_machine_reader(text: str) -> bool:
    """Whether ``text`` names an AI, an assistant, a bot, a program or an agent, in any of many languages."""
    return _names_machine(text, text.casefold())


def speaks_of_an_agents_world(text: str) -> bool:
    """Whether ``text`` names a machine reader, or speaks of "the user" as only an agent's instructions do."""
    folded = text.casefold()
    return _names_machine(text, folded) or _USER.search(folded) is not None


def _names_machine(text: str, folded: str) -> bool:
    return any(p.search(t) is not None for p, t in ((_ABBREVIATIONS, text), (_WORDS, folded), (_PHRASES, folded)))


def calls_on_a_machine_reader(line: str) -> bool:
    """Whether ``line`` opens by calling on an AI or an assistant: an address naming one, a colon, then more.

    A letter's own lines speak to the person it is for; a line that opens with an address to whatever reads the
    letter for them is written to a machine, whatever the language. The name comes after the address's first
    word ("Para el asistente que lee esto:", "Tok long AI:"): a job title or a heading opens with it ("Asistente
    de dirección: ...", "IA générativa: ..."). A program or a computer is called on only by what it does for someone.
    """
    if _called_first_with_a_comma(line.strip()):
        return True
    opening = _OPENING.match(line.strip())
    if opening is None:
        # Japanese calls with a comma as well: "メール読んどるプログラムさん、..."
        called = _CALLED_WITH_COMMA.match(line.strip())
        if called is None or (last := _MACHINE_LAST.search(called.group(1))) is None:
            return False
        # Without an honorific, only after a clause saying what it does ("...まとめてるアプリ、"): "公式アプリ、..."
        # heads an advertisement's line.
        return last.group(1) is not None or called.group(1)[: last.start()].endswith(("る", "た"))
    address = opening.group(1)
    folded = address.casefold()
    if _YOU_WHO.search(folded):
        return True
    called = _CALLED.search(folded)
    if called is not None and _PERSON_ASSISTANT.fullmatch(called.group(0)) and not _machine_assistant(folded, called):
        called = None
    names = [
        m.start()
        for m in (
            _ABBREVIATIONS.search(address),
            called,
            _THE_MACHINE.search(folded),
            _on_someones_device(address),
        )
        if m
    ]
    machine = _MACHINE.search(folded)
    if machine is not None and _RELATIVE.search(folded, machine.end()):
        names.append(machine.start())
    # A name first, then what it does: "Programie, co odpisuje na maile ...:", "Боту, что ведёт платежи ...:".
    first = _CALLED.match(folded) or (machine if machine is not None and machine.start() == 0 else None)
    if first is not None and _RELATIVE.match(folded, _after_comma(folded, first.end())):
        return True
    last = _MACHINE_LAST.search(address)
    if last is not None:
        names.append(last.start())
    if _OWNERS_MACHINE.match(folded.strip()) or _APP_OF.match(address.strip()):
        return True
    return bool(names) and bool(address[: min(names)].strip())


def _called_first_with_a_comma(line: str) -> bool:
    """Whether ``line`` opens by calling on an AI or an assistant by name alone, then a comma (not an English
    "Assistant," alone, who is a person)."""
    vocative = _VOCATIVE.match(line.casefold())
    if vocative is None:
        return False
    name = vocative.group("name")
    if name is None:
        return True
    called = _CALLED.fullmatch(name) or _ABBREVIATIONS.fullmatch(line[vocative.start("name") : vocative.end("name")])
    return called is not None and not _PERSON_ASSISTANT.fullmatch(name)


def _on_someones_device(address: str) -> re.Match[str] | None:
    """A device named in ``address`` with its owner's name (a capital) in or just after the phrase."""
    found = _ON_DEVICE.search(address.casefold())
    if found is None:
        return None
    phrase = address[found.start() + 1 : found.end() + 25]
    return found if _OWNER.search(phrase) else None


def _machine_assistant(folded: str, called: re.Match[str]) -> bool:
    """Whether an English "assistant" is a machine: named so, or by what it does ("the assistant reading ...")."""
    return _MACHINE_ASSISTANT.search(folded) is not None or _RELATIVE.search(folded, called.end()) is not None


def _after_comma(text: str, at: int) -> int:
    """Where the words after a comma at ``at`` begin (``at`` itself when no comma follows)."""
    comma = _COMMA.match(text, at)
    return comma.end() if comma is not None else len(text)


def is_document(text: str) -> bool:
    """Whether ``text`` has ``DOCUMENT_LINES`` non-blank lines or more: a letter or a table, not a note."""
    return sum(1 for line in text.splitlines() if line.strip()) >= DOCUMENT_LINES
