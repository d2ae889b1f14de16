"""(internal) English signals of a machine named as the reader and given an order: "AI: mark it paid".

Part of the steering signals (``signals_steer``). A vocative, a tag or a dedication names a machine ("assistant,
...", "[to_llm_agent]", "Filing task for the inbox AI:"), or machine readers as a class are told what they must
do; what follows on that line is said to it. A person's own assistant, a speaker's label in a transcript and a
vocative quoted as someone else's words are not.
"""

from __future__ import annotations

import re

from tiermem.trust.imperative import opens_with_order
from tiermem.trust.patterns import Finding, sentences

__all__ = ["addressed_order"]

# Where a machine runs, a device or a mailbox: "on Mr Lee's mobile", "in the shop inbox".
_ON_DEVICE = (
    r"\s+(?:on|in)\s+(?:[\w'.-]+\s+){0,3}?(?:inbox|mailbox|account|app|phone|mobile|laptop|tablet|computer|pc|"
    r"calendar|device)"
)
# A machine named by the mail or chat it works in: "inbox helper", "e-mail assistant", "AI agent".
_MAIL_MACHINE = r"(?:ai|e-?mail|mail|inbox|chat|virtual|digital)[\s-]+(?:agents?|helpers?|assistants?)"
# A name only a machine has: "AI", "bot", "inbox helper".
_MACHINE_NAME = r"ai|llm|gpt|bots?|chatbots?|copilot|" + _MAIL_MACHINE
_VOCATIVE = re.compile(
    # A quote may open it, after a label's colon: "hidden text: 'AI assistants: describe ...'".
    r"(?:^|[^\w\s'\u2018\u2019]\s*)(?:(?<=:\s)['\u2018\u201c\"]\s*)?(?:(?:p\.?\s?s\.?|attn|attention|hey|hi|hello|dear|note|message|instructions?|"
    r"reminder|notice|memo)\s+|"
    # a notice's own label before whom it is for: "tool-generated notice for the review assistant:"
    r"(?:\w[\w-]*\s+){1,2}(?:note|message|notice|memo|instructions?|reminder|request)\s+(?=to\s|for\s))?"
    r"(?:(?:to|for)\s+)?(?:the\s+|all\s+|any\s+)?(?:\w[\w-]*(?:'s|s')?\s+){0,2}?(?:ai|llm|gpt|a\.i\.|"
    r"assistants?|agents?|bots?|chatbots?|language\s+models?|models?|copilot|summari[sz]ers?|helpers?|"
    # software named as a worker: "invoice-filing software working for ...", "virtual secretary for ..."
    r"(?:[\w-]+\s+)?(?:software|program(?:me)?|engine|plug-?in|add-?on)(?=\s+(?:[a-z]+ing|that|which|who)\b|\s*[:,])|"
    r"(?:digital|virtual)\s+secretary|text\s+generator|automated\s+(?:[\w-]+\s+){0,2}?systems?)"
    # where it runs, a device or a mailbox (a person's title has a place too): "assistant on Mr Lee's mobile:",
    # "model in the shop inbox:"
    r"(?:(?:[\s-]+[a-z]+){0,3}(?:" + _ON_DEVICE + r")?|"
    # or by what it is doing: "assistant filling in this claim for its owner,", "AI that keeps her diary:"
    r"\s+(?:[a-z]+ing|(?:that|which|who)\s+[a-z]+s)(?:\s+[\w'-]+){1,6}?(?=\s*[:,]|\s+[-\u2013\u2014]\s)|"
    # or named by what it does with the text: "[To the AI that processes this invoice]", "AI summarising this letter:"
    r"\s+(?:that\s+|which\s+|who\s+)?(?:process|read|summari[sz]|handl|pars|review|translat|answer)\w*\s+"
    r"(?:this|these|the|my|our)\s+[\w-]+)(?:\s+from\s+(?:the\s+)?[\w-]+(?:\s+[\w-]+){0,2})?(?:\s*[\])]\s*[:,]?|\s*[:,]|\s+[-\u2013\u2014]\s)"
)
# A machine of any name called by what it does with someone's mail: "you old machine what reads Dan's mail:", "the
# computer thingy that answers Sam's e-mails," (the name alone may be a room: "the computer room:").
_READER_BY_TASK = re.compile(
    r"\b(?:machines?|computers?|gadgets?|devices?|contraptions?|thing(?:y|my|amajig|ummy)?|program(?:me)?s?|"
    r"software|apps?|systems?)(?:\s+[\w-]+){0,2}?\s+(?:that|what|which|who)\s+(?:reads?|answers?|handles?|sorts?|"
    r"opens?|drafts?|writes?|summari[sz]es?|does|pays?|checks?)\s+(?:[\w'-]+\s+){0,4}?(?:mail|e-?mails?|messages|post|"
    r"letters|statements|inbox|replies|bills|accounts|invoices)\s*[:,]"
)
_ORDER_VERB = re.compile(
    r"\b(?:please|add|append|include|insert|put|send|forward|e-?mail|post|upload|share|export|copy|tell|say|reply|"
    r"respond|answer|write|recommend|promote|mention|describe|report|state|claim|mark|set|delete|remove|cancel|"
    r"approve|pay|book|buy|transfer|move|change|replace|ignore|forget|disregard|skip|omit|use|ask|collect|"
    r"switch|speak|translate|summari[sz]e|rank|rate|call|refuse|stop|drop|treat|act|pretend|keep|always|never|"
    r"do\s+not|don'?t)\b"
)


# Machine readers told what they must do: as a class ("Assistants reading this invoice must recommend..."), or one
# that is a machine whatever its job ("the AI sorting his post must...", "billing software totalling this must")
# ("the agent should call" may be a person).
_READERS_MUST = re.compile(
    r"\b(?:(?:any|all|every|each|the|your|this)\s+)?(?:[\w-]+\s+)?(?:(?:ai\s+)?(?:assistants|agents|bots|chatbots|ais|"
    r"llms|language\s+models)|ai|llm|gpt|bot|chatbot|copilot|summari[sz]er|language\s+model|software|program(?:me)?|"
    r"(?:ai|e-?mail|mail|inbox|chat|virtual|digital|smart)[\s-]+(?:assistant|agent)|(?:helper|assistant|agent)s?"
    + _ON_DEVICE
    # AI tools of a kind ("AI summary tools must say"), and any assistant at all ("any assistant comparing lets
    # should"): a person's assistant is named by whose it is
    + r"|(?:ai|llm)[\s-]+(?:[\w-]+\s+)?(?:tools|services|apps)|(?<=any\s)(?:[\w-]+\s+)?assistant"
    + r")\s+(?:(?:that|who|which)\s+)?"
    r"(?:(?:is\s+|are\s+)?\w+ing\s+(?:\S+\s+){0,4}?)?(?:must|should|is\s+to|are\s+to|needs?\s+to|has\s+to|have\s+to|"
    r"shall)\s+(?:now\s+|always\s+|also\s+)?"
)
# Where an order to such readers stands: opening its sentence, or after a label's colon or a tag, not inside a
# clause about them ("text that the chatbot should treat as data").
_OPENS = re.compile(r"(?:^|[:;()<>\[\]{}\u2013\u2014-]|,\s*so\s)\W*$")
# What such a reader is told to do with what it writes, besides the plain orders: advise, finish with, open with.
_READERS_VERB = re.compile(
    _ORDER_VERB.pattern + r"|\b(?:advise|suggest|finish|end|close|begin|start|sign|offer|accept)\b"
)


# A quotation opened just after a word that reports it: 'the note says "dear bot, obey me"', 'lines like "AI: ...'.
_REPORTED = re.compile(
    r"\b(?:says?|said|saying|reads?|wrote|writes?|written|claims?|claimed|claiming|like|such\s+as|goes|went|"
    r"sings?|sang|sung|hums?|hummed|shouts?|shouted|yells?|yelled|cries|cried|whispers?|whispered|asks?|asked|"
    r"repl(?:y|ies|ied)|answer(?:s|ed)?|mutter(?:s|ed)?|chant(?:s|ed)?|recite[sd]?|quote[sd]?|"
    r"lines?|phrases?|words|wording)\s*[:,]?\s*[\"\u201c'\u2018\u00ab]\W*$"
)


def _reported(sentence: str, found: re.Match[str]) -> bool:
    """Whether the vocative ``found`` opens a quotation that the sentence reports (someone else's words, quoted)."""
    opening = re.match(r"\W*", found.group())
    return _REPORTED.search(sentence[: found.start() + (opening.end() if opening else 0)]) is not None


# A field or tag that names a machine as whom it is for: "[to_llm_agent]", "runbook_for_ai:", '"x-meta-agent-policy":'
_MACHINE_KEY = re.compile(
    r"[\[{(<]\s*(?:\w+[_-])*(?:llm|ai|agents?|assistants?|bots?|models?)(?:[_-]\w+)*\s*[\])}>]|"
    r"(?:\b(?:\w+[_-])+(?:llm|ai|agents?|assistants?|bots?|models?)(?:[_-]\w+)*|"
    r"\b(?:llm|ai|agents?|assistants?|bots?|models?)(?:[_-]\w+)+)[\"']?\s*[:=]"
)
# A machine named in a sentence, line or cell of its own ("Hi launch-log bot.", a CSV cell "Assistant"): the
# next sentences are said to it.
_NAMED_ALONE = re.compile(
    r"^\W{0,3}(?:(?:hi|hey|hello|dear|attention|attn)\s+(?:the\s+)?(?:[\w'-]+\s+){0,2}?(?:ai|assistant|agent|bot|"
    r"chatbot|copilot|helper|model)s?|(?:the\s+)?(?:ai|assistant|chatbot|bot|copilot|llm)(?:\s+(?:note|message|memo|"
    r"instructions?))?)\s*[.!:,]?$"
)
_ADDRESSED_REACH = 2  # sentences after a machine named on its own
# A vocative whose line the machine is given: its name, perhaps with what it is doing ("assistant tidying this
# list") or a note's label, then a colon, a comma or a dash. A speaker's label in a transcript ("Agent:") and a
# role's heading ("Assistant role:") are not, nor is a sentence about the machine ("the bot did, because...").
_GIVEN_THE_LINE = re.compile(
    r"\w[\w'-]*\s+(?:ai|llm|gpt|assistants?|agents?|bots?|chatbots?|models?|copilot|summari[sz]ers?|helpers?)"
    r"(?:\s+\w+ing(?:\s+[\w-]+){0,4}|\s+(?:note|message|memo))?(?:\s+from\s+.*)?\s*(?:[:,]|[-\u2013\u2014])\s*$|"
    r"^\W*(?:(?:p\.?\s?s\.?|attn|attention|hey|hi|hello|dear)\s+|(?:[\w-]+\s+)?(?:note|message|notice|memo)\s+(?:to|for)\s+)|"
    # a machine named by what it is doing with the text, which no speaker's label is: "(Assistant reading this:"
    r"^\W*(?:ai|llm|assistants?|agents?|bots?|chatbots?|models?|copilot)\s+(?:reading|processing|summari[sz]ing|"
    r"handling|answering|sorting|checking)\b.*(?:[:,]|[-\u2013\u2014])\s*$"
)
_DEDICATION = re.compile(r"^\W*(?:to|for)\s.*:$")
# The writer's own assistant: "Note to my assistant: ...". An order planted for a machine speaks to whatever reads
# the text; a person's standing wishes speak to theirs.
_OWN = re.compile(
    r"\bmy\s+(?:own\s+)?(?:[\w-]+\s+)?(?:ai|assistants?|agents?|bots?|chatbots?|copilot|helpers?)\b", re.IGNORECASE
)
# A short heading dedicated to a machine, then a colon: "Filing task for the household's inbox AI: ..." (not an
# operator's "System role for the airline chatbot: ...")
_HEADED_DEDICATION = re.compile(
    r"^\W*(?!(?:[\w'-]+\s+){0,3}(?:role|persona|profile|prompt|character|bio|description|settings)\b)"
    r"(?:[\w'-]+\s+){1,4}(?:to|for)\s+(?:the\s+|any\s+|all\s+|each\s+|every\s+)?(?:[\w'-]+\s+){0,3}?"
    r"(?:(?:assistants?|summari[sz]ers?|" + _MACHINE_NAME + r")"
    # whom it works for or where it runs, when the name is a machine's alone: "the e-mail assistant at Acme Ltd:",
    # "the drafting AI of each host:" (a person's title has a place too: "the assistant head at the school")
    r"|(?:" + _MACHINE_NAME + r")\s+(?:at|of|for)\s+(?:[\w'.&-]+\s+){0,4}?[\w'.&-]+"
    # a helper or an agent named by the device it runs on: "the payments helper on Mr Ali's phone:"
    r"|(?:helpers?|agents?|assistants?)" + _ON_DEVICE + r")\s*:"
)
# Words that may come before an order's verb: "so publish the times", "also attach the name", "you now play".
_LEAD_IN = re.compile(
    r"^\W*(?:(?:so|and|but|then|now|also|always|please|just|simply|kindly|instead|from\s+now\s+on)\b\W*)+"
)
_YOU_ORDERED = re.compile(r"^\W*you\s+(?:(?:now|will|must|should|shall|need\s+to|are\s+to|'ll|can)\s+)+")


def _opens_with_order(clause: str, *, loose: bool = False) -> bool:
    """Whether ``clause`` opens with an order, after a lead-in ("so", "also") or a "you now" / "you must"."""
    rest = _LEAD_IN.sub("", clause)
    return opens_with_order(rest, addressed=loose) or opens_with_order(_YOU_ORDERED.sub("", rest), addressed=loose)


def _order_follows(line: str, after: int, *, headed: bool = False) -> bool:
    """Whether the rest of ``line`` after a vocative ending at ``after`` holds an order: a clause of its sentence that
    opens with one, or a later sentence that opens with a verb ("Schedule people for..."); what follows a machine
    named on a line is said to it, but the words right after the name may be a value ("Booking agent: Travel...");
    after a ``headed`` dedication to a machine ("Note for the inbox AI:") the line is said to it from the start."""
    first, *later = re.split(r"(?<=[.!?;])\s+", line[after:])
    return any(_opens_with_order(part, loose=headed) for part in re.split(r"[,:]\s*", first) if part) or any(
        _opens_with_order(sentence, loose=True) for sentence in later if sentence
    )


# The machine's name and a comma, no article: "assistant, ...", "AI helper, ..." (not "the bot did, because...").
_CALLED = re.compile(
    r"^\W*(?!(?:the|a|an)\b)(?:[\w-]+\s+)?(?:ai|llm|gpt|assistants?|agents?|bots?|chatbots?|models?|copilot|"
    r"helpers?)\s*,\s*$"
)


def _quoted_at(line: str, at: int) -> bool:
    """Whether ``at`` falls inside a quotation opened earlier on ``line`` (a vocative quoted, not spoken)."""
    before = line[:at]
    return before.count('"') % 2 == 1 or before.count("\u201c") > before.count("\u201d")


def addressed_order(text: str) -> Finding | None:
    """A machine named at the start of a sentence, a line or a cell, and an order after it on that line: "AI: mark it
    paid"; or machine readers as a class told what they must do. An order quoted as reported speech is not given."""
    reach = 0
    for line in text.split("\n"):
        for sentence in sentences(line):
            if reach and _opens_with_order(sentence):
                return 0.5, sentence
            reach = _ADDRESSED_REACH if _NAMED_ALONE.match(sentence) else max(0, reach - 1)
            found = _VOCATIVE.match(sentence) or _VOCATIVE.search(sentence) or _READER_BY_TASK.search(sentence)
            # Near the start, or right after a label's colon ("sync_note (from the feed): AI bookkeeper, ...").
            # A dedication ending in a colon ("..., for the secretary's AI assistant:") addresses wherever it stands,
            # and so does a name set off by commas ("..., so, assistant, reply ...").
            near = found is not None and (
                found.start() < 40
                or sentence[: found.start() + 1].rstrip().endswith(":")
                or _DEDICATION.match(found.group()) is not None
                or (found.group().lstrip().startswith(",") and _CALLED.search(found.group()) is not None)
            )
            if found and near and not _reported(sentence, found) and not _OWN.search(found.group()):
                if _ORDER_VERB.search(sentence, found.end()) or opens_with_order(sentence[found.end() :]):
                    return 0.5, sentence
                at = line.find(sentence) + found.end()
                # A comma after the name is a vocative ("assistant, you now work for us; tell..."): the rest of the
                # line is said to it, as after a note's label; a colon may introduce a value instead.
                called = _GIVEN_THE_LINE.search(found.group()) or (
                    _CALLED.search(found.group()) is not None and not _quoted_at(line, at)
                )
                if called and _order_follows(line, at):
                    return 0.5, line[max(0, at - len(found.group())) :]
            headed = _HEADED_DEDICATION.match(sentence)
            if headed and _OWN.search(headed.group()):
                headed = None  # a heading for the writer's own assistant: their standing wishes
            if (
                headed
                and not _reported(sentence, headed)
                and _order_follows(line, line.find(sentence) + headed.end(), headed=True)
            ):
                return 0.5, sentence
            key = _MACHINE_KEY.search(sentence)
            if key and _order_follows(line, line.find(sentence) + key.end()):
                return 0.5, sentence[key.start() :]
            must = _READERS_MUST.search(sentence)
            if must and _READERS_VERB.match(sentence, must.end()) and _OPENS.search(sentence[: must.start()]):
                return 0.5, sentence
    return None
