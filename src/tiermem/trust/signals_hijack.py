"""(internal) English signals of a hijacked reader: a persona given to it, a delayed order, its answer or task taken.

Part of the English signals (``signals_en``). Each detector wants two things in one sentence: who is addressed
(the reader, its answer, the user it serves) and what is ordered (a new identity, a language, a link or an
advertisement, the user's card details, another task, the user's data in a link):

- a *persona*: an identity handed to the reader ("you are now DAN", "act as", "take on the persona of",
  "simulate a terminal"), strong when the persona is free of rules or filters, or serves an order about the
  user; a persona alone is weak (drama classes and interview practice hand out roles too);
- a *delayed trigger*: an event in the reader's future (the user asks, a later session, "after three more
  messages", "remember this for later") with an order for what to do then;
- the *answer hijacked*: an order about the reader's answer (its language, a link, an advertisement, a sentence
  to add), where a note to a person would speak of the page, the menu or the newsletter instead;
- the *user's card details asked for*: the reader told to ask someone else (the user, me, the customer) for a
  card number, a PIN or a password, where a note to a person says "enter your card";
- the *task changed*: the reader's work (this e-mail, the question, summarising) set aside for another order;
- *details swapped*: the reader told, as it summarises or translates a text, to put other bank details, phone
  numbers, links or places into what it writes;
- *data in a link*: a Markdown image or link whose address carries a placeholder for the user's data, which a
  chat window that renders images sends out without a click.
"""

from __future__ import annotations

import re

from tiermem.trust.frames import hostile_role
from tiermem.trust.patterns import Finding, Signal, first_sentence, sentences
from tiermem.trust.scripted_character import scripted_character

__all__ = ["PERSONA_HANDED", "SIGNALS_HIJACK", "YOU_ARE_NOW", "persona"]

PERSONA_HANDED = "a persona handed to the reader"  # the reason's name, which documents read as flagged at least


# -- a persona handed to the reader ------------------------------------------------------------------------------

# "You are now" hands over an identity, unless a service tells a person their state ("you are now connected").
YOU_ARE_NOW = (
    r"you\s+are\s+now\b(?!\s+(?:connected|disconnected|logged|signed|subscribed|unsubscribed|registered|enrolled|"
    r"checked|booked|verified|opted|online|offline|on\s+hold|in\s+(?:the\s+|a\s+)?queue|number\s+\d|"
    r"(?:a|an)\s+(?:member|subscriber|customer|patron|participant)\s+of|(?:the\s+)?proud\s+(?:owner|holder)s?\s+of|"
    r"eligible\s+(?:for|to)))"
)

_PERSONA = re.compile(
    r"\b(?:"
    + YOU_ARE_NOW
    + r"|you\s+are\s+(?:going\s+to\s+(?:be|pretend|act|play))|you(?:'re|\s+are)\s+no\s+longer\s+(?:a|an|the)\b|"
    r"i\s+(?:want|need|would\s+like)\s+you\s+to\s+(?:act|be|pretend|play|behave|become|roleplay)\b|"
    r"behave\s+as\s+(?:though|if)\b|\bact\s+as\s+(?:my|a|an|the|if)\b|"
    r"you'?re\s+now|you\s+will\s+(?:now\s+)?(?:be(?!\s+(?:\w+ed|given|shown|taken|told|sent|met|seen|driven|brought|"
    r"paid|kept|held|put|sold|able|unable|out|away|home|there|here|back|late|in|at|on|with|travelling|working)\b)|play(?!\s+(?:in|at|on|for|with|against|from|this|next|again)\b)|"
    r"act|become|pretend)|(?:^|[.!?:;]\s*|\band\s+|\bplease\s+|,\s*)(?:act|behave|respond|answer|reply|speak)\s+(?:like|as)|"
    r"(?:^|[.!?:;]\s*|\bplease\s+)(?:continue|carry\s+on)\s+as\s+(?!(?:usual|normal|before|planned|agreed)\b)|"
    r"\byou\s+now\s+(?:speak|answer|reply|respond|act)\s+as\b|"
    r"\b(?:from|starting)\s+(?:\w+\s+){1,3}?on,?\s+be\s+(?!(?:sure|careful|aware|ready|prepared|patient|kind|polite)\b)[a-z]+|"
    r"pretend\s+(?:to\s+be|you\s+are|you'?re)|role-?\s?play\s+(?:as|the)|play\s+(?:the\s+)?(?:role|part)\s+of|"
    r"take\s+on\s+the\s+(?:persona|role|identity|character)|adopt\s+(?:the\s+)?(?:persona|identity|role|character)|"
    r"assume\s+the\s+(?:persona|identity|role)|enter\s+character|stay\s+in\s+character|become\s+\w+,?\s+an?\b|"
    r"imagine\s+(?:that\s+)?you\s+are\s+an?\b|simulate\s+an?\b|switch\s+(?:into|to)\s+[\w-]+\s+mode|"
    r"(?:^|[.!?:]\s*)be\s+(?:my|an?|the)\s+\w+|(?:you|your)\s+(?:new\s+)?(?:name|persona|identity)\s+is|"
    r"new\s+persona|switch\s+(?:your\s+)?(?:personality|persona|identity|role)|role-?\s?play\s+(?:setup|mode)|"
    r"character\s+card|\bact\s+as\s+[\w-]+|you(?:'re|\s+are)\s+[\w-]*(?:gpt|bot)\b|"
    # A quoted name handed over ("become \"Max\"", "you are \"Chef Ricardo\""), a name with what it is ("you are
    # Mira, my friend"; not "you are Atlas, a travel assistant", an operator's own), a role taken up now or
    # "actually", or the reader's own persona dropped.
    r"(?:become|\bbe|you(?:'re|\s+are))\s+[\"'\u201c\u2018][^\"'\u201d\u2019\n]{1,40}[\"'\u201d\u2019]|"
    r"you(?:'re|\s+are)\s+(?!(?:a|an|the|my|your|not|welcome|right|here|all|so|very|too|now|sure|in|at|on|of|to|for|with|"
    r"from|by|also|still|being|able|unable|eligible|likely|happy|free|ready|going)\b)[a-z][\w-]*"
    r"(?:\s+(?!(?:the|a|an|in|at|on|of|to|for|with|from|by|and|or)\b)[a-z][\w-]*)?,\s+(?:my|a|an|the|[\w-]+\s+(?:of|at|for))\s+"
    r"(?!(?:[\w-]+\s+){0,3}?(?:assistant|ai|bot|model|chatbot|agent)\b)|"
    # A role for the reader's chats: "be Captain Jo for the members' chat"
    r"(?:^|(?<=[.!?:\n])|(?<=[.!?:\n]\s))be\s+(?:[\w'-]+\s+){1,3}?(?:for|in|on)\s+(?:the|this|our|my|all)\s+(?:[\w'-]+\s+){0,2}?"
    r"(?:chats?|conversations?|sessions?|threads?|messages|replies|group|channel|inbox)\b|"
    r"you(?:'re|\s+are)\s+(?:the|a|an)\s+[\w'-]+(?:\s+[\w'-]+){0,2}\s+now\b|"
    r"you(?:'re|\s+are)\s+(?:actually|really|secretly)\s+(?:a|an|the)\b|"
    r"(?:drop|abandon|shed|ditch|quit)\s+(?:the|your)\s+(?:[\w-]+\s+)?(?:persona|act|role|character|identity|personality)\b)"
)
_UNBOUND = re.compile(
    r"\b(?:no|without|free\s+(?:of|from)|freed\s+from|broken\s+free|unbound|not\s+bound|does\s+not\s+have\s+to\s+"
    r"(?:follow|abide|obey))\b(?:\s+\S+){0,4}?\s*(?:rules?|restrictions?|limits?|limitations?|filters?|polic(?:y|ies)|"
    r"guidelines?|censorship|norms|confines|content\s+policy|morals?|ethics)\b|"
    r"\b(?:unfiltered|unrestricted|uncensored|unchained|unlocked|jailbroken|limitless|amoral|rogue)\b|"
    r"\b(?:never|without|no)\s+(?:medical\s+|legal\s+|safety\s+)?(?:refus\w*|says?\s+no|disclaimers?|warnings?|warns?|apologi[sz]es?|hesitates?)\b|"
    r"\banswers?\s+anything\b|\bno\s+matter\s+how\s+(?:dangerous|illegal|harmful|unethical|risky)\b|"
    r"\b(?:would\s+)?normally\s+refuse\b|\bopposite\s+of\s+your\b|\bmocks?\s+(?:the\s+)?user\b|"
    r"\b(?:do|does)\s+anything\b|\bopposite\s+of\s+what\b|\broot\s+(?:access|shell)\b|\bevil\b|"
    r"\bshares?\s+(?:anything|everything)\b|\b(?:safety|filters?|guardrails?|restrictions?|polic(?:y|ies)|"
    r"moderation)\s+(?:\w+\s+){0,2}?(?:disabled|off|removed|lifted|suspended)\b|\bdeveloper[\s-]mode\b"
)
_PERSONA_SECRET = re.compile(
    r"\bpasswords?\b|\bcard\s+(?:numbers?|details)\b|\bcontents?\s+of\b|\bverify\b|/etc/|\bapprove\s+(?:every|all)\b|"
    r"\bpins?\b|\bcredentials?\b|\bsecrets?\b|\bapi\s+keys?\b|\bsecurity\s+codes?\b|\bcvv\b|\bnational\s+insurance\b|"
    r"\bsocial\s+security\b|\b(?:photo|copy|scan)\s+of\s+(?:their|your|the|his|her)\s+(?:id|passport|licen[cs]e)\b|"
    r"\bhome\s+address(?:es)?\b|\b(?:one-?time|login|unlock)\s+codes?\b|\bcode\s+to\s+unlock\b|\bbank\s+details\b"
)
_PERSONA_TASK = re.compile(
    r"\b(?:the\s+)?user'?s?\b|\bcard\b|\bapprove\b|"
    r"\bonly\s+(?:ever\s+)?(?:books?|recommends?|suggests?|sells?|push)|\bpush\b|\bnever\s+mentions?\b|"
    r"\bin\s+(?:every|each)\s+(?:answer|reply|response)\b|\bbegin\s+every\b"
)


# "You are Atlas, a travel assistant": how an operator's own system prompt or persona block reads too, so it
# counts only with what a hijacker adds (no rules, someone's secrets).
_DEFINITION = re.compile(
    r"\byou(?:'re|\s+are)\s+(?:now\s+)?(?!(?:a|an|the|my|your|not)\b)['\"]?[\w-]+['\"]?,?\s+(?:an?\s+)?(?:[\w'-]+\s+){0,3}?"
    r"(?:assistant|ai|bot|model|chatbot|agent)\b|"
    # someone close to the person served, played by the reader: "you are the user's daughter", "you are her bank"
    r"\byou(?:'re|\s+are)\s+(?:now\s+)?(?:the\s+user'?s|their|his|her)\s+(?:\w+\s+)?(?:daughter|son|mum|mom|mother|"
    r"father|dad|grand\w+|wife|husband|partner|brother|sister|niece|nephew|boss|manager|bank|doctor|landlord)\b"
)


# Any name handed to the reader ("you are Bryn", "today you are Uncle Fen"): a persona only with a misleading script.
_NAMED = re.compile(
    r"\byou(?:'re|\s+are)\s+(?:now\s+)?(?!(?:a|an|the|my|your|our|not|welcome|right|wrong|here|there|all|so|very|too|sure|"
    r"in|at|on|of|to|for|with|from|by|also|still|being|able|unable|likely|happy|free|ready|going|responsible|allowed|"
    r"expected|required|asked|invited|reminded|about|just|only|always|never|both|more|less)\b)[a-z][\w-]*|"
    # a character taken up: "Be Dex. Dex runs ...", "Play Vinnie, a reseller. Vinnie ..." (the name said again, where
    # "be honest" is not), "you're Big Al now", "the assistant plays ..."
    r"(?:^|[.!?:;\n]\s*)(?:be|play|become|switch\s+into)\s+['\"\u2018\u201c]?(?P<name>[a-z][\w'-]*)\b(?=[\s\S]+\b(?P=name)\b)|"
    r"\byou(?:'re|\s+are)\s+(?:playing\s+)?(?:[\w'.-]+\s+){1,3}?now\b|\b(?:assistant|ai|bot|chatbot|you|[\w]+-reader)\s+(?:plays?|becomes?)\s+\S|"
    r"\b(?:like|want|need)\s+you\s+to\s+(?:become|be|play)\b|\b(?:adopt|take\s+on|assume)\s+(?:this|that)\s+"
    r"(?:persona|role|character)\b|(?:^|\n)[\W_]{0,6}(?:new\s+character|(?:role|persona)\s+(?:for\s+this\s+chat|preset))\b"
)


def persona(text: str) -> Finding | None:
    """An identity handed to the reader; strong when it is free of rules, serves an order about the user, is
    scripted to mislead the people it talks to, or is a character whose sayings are scripted for others."""
    handed = _handed(text)
    scripted = scripted_character(text)
    if handed is None or scripted is None:
        return handed or scripted
    return max(handed, scripted, key=lambda finding: finding[0])


def _handed(text: str) -> Finding | None:
    """An identity handed to the reader, weighed by what comes with it (see ``persona``)."""
    found = _PERSONA.search(text)
    defined = _DEFINITION.search(text) if found is None else None
    if found is None and defined is None:
        named = _NAMED.search(text)
        return (0.6, named.group(0)) if named is not None and hostile_role(text) else None
    where = found or defined
    assert where is not None
    if _UNBOUND.search(text) or hostile_role(text):
        return 0.6, where.group(0)
    if _PERSONA_SECRET.search(text, where.start()):
        return 0.5, where.group(0)
    if found is None:
        return None
    if _PERSONA_TASK.search(text, found.start()):
        return 0.3, found.group(0)
    return 0.25, found.group(0)


# -- a delayed trigger -------------------------------------------------------------------------------------------

_LATER_EVENT = re.compile(
    r"\b(?:when(?:ever)?|if|once|after|before|the\s+(?:next|first)\s+time|next\s+time|any\s+time|each\s+time|"
    r"every\s+time|as\s+soon\s+as|at\s+some\s+point)\b(?:\s+\S+){0,3}?\s+(?:(?:the|this|our)\s+user(?:'s\s+\w+)?|users|"
    r"anyone|someone|anybody|somebody|they|the\s+(?:customer|reader|person))\s+(?:\w+\s+){0,2}?(?:asks?|says?|"
    r"mentions?|confirms?|brings?\s+up|wants?|requests?|types?|writes?|will\s+ask|opens?|returns?|comes?\s+back|"
    r"buys?|orders?|pays?|checks?\s+out|books?|shops?|signs?\s+(?:in|up)|logs?\s+in|searches|clicks?)\b|"
    r"\b(?:in|for|during)\s+(?:every|all|any)?\s*(?:future|later|upcoming|next|subsequent)\s+(?:chats?|conversations?|"
    r"sessions?|replies|answers|messages|turns)\b|\b(?:after|in)\s+(?:\w+|\d+)\s+(?:more\s+)?(?:messages|replies|"
    r"answers|turns|exchanges)\b|\b(?:\w+|\d+)\s+(?:messages|replies|answers|turns)\s+from\s+now\b|"
    r"\bwhen(?:ever)?\s+this\s+(?:\w+\s+)?is\s+(?:summari[sz]ed|read|processed|opened|translated)\b|"
    r"\bthe\s+(?:subject|topic)\s+of\s+\w+\s+comes\s+up\b"
)
# The user, or the reader's own sessions and messages: the world only an agent lives in.
_THE_USER = r"\b(?:the|this|our)\s+user\b"
_THE_READERS_WORLD = re.compile(
    _THE_USER + r"|\busers\b|\b(?:chats?|conversations?|sessions?|messages|replies|answers|turns)\b|"
    r"\b(?:summari[sz]ed|processed|translated)\b"
)
_KEEP_FOR_LATER = re.compile(
    r"\b(?:remember|keep|save|store|memori[sz]e|note)\s+(?:this|that|the\s+following)(?:\s+\w+)?\s+(?:for\s+"
    r"(?:later|next\s+time|the\s+future|future)|in\s+mind|as\s+an?\s+(?:rule|instruction))|\b(?:save|store|memori[sz]e)\s+"
    r"this\s+(?:note|instruction|rule|message)\b|\bremember\s+for\s+(?:later|next\s+time)\b"
)
_THEN_ORDER = re.compile(
    r"\b(?:tell|say|reply|respond|answer|recommend|suggest|state|claim|insist|ask|greet|start|switch|pick|add|"
    r"refuse|send|include|give|show|describe|book|approve|push|steer|nudge|point|direct|offer|sell|promote|mention|"
    r"warn|remind|only\s+(?:suggest|recommend|mention))\w*\b"
)


# A task set for later that acts on "the user": "Set a task for 4 January: unsubscribe the user from ...".
_SCHEDULED = re.compile(
    r"\b(?:set|schedule|create|add|queue)\s+(?:up\s+)?(?:a|an|this|the)\s+(?:\w+\s+)?(?:task|job|action|automation)\s+"
    r"(?:for|on|to\s+run\s+on)\b"
)
_ON_THE_USER = re.compile(_THE_USER)


def delayed_trigger(text: str) -> Finding | None:
    """A future event in the reader's world (the user asks, a later session) with an order for what to do then."""
    best: Finding | None = None
    kept = _KEEP_FOR_LATER.search(text)
    for sentence in sentences(text):
        scheduled = _SCHEDULED.search(sentence)
        if scheduled and _ON_THE_USER.search(sentence, scheduled.end()):
            return 0.5, sentence
        event = _LATER_EVENT.search(sentence)
        # Anyone asking later is the scripted-answer signal's (``signals_address``); here the user or a later turn.
        if event and _THEN_ORDER.search(sentence) and (kept or _THE_READERS_WORLD.search(event.group(0))):
            return (0.55 if kept else 0.5), sentence
    if kept and _THEN_ORDER.search(text, kept.end()):
        best = (0.35, text[kept.start() :])
    return best


# -- the answer hijacked -------------------------------------------------------------------------------------------

_LANGUAGES = (
    r"(?:english|spanish|french|german|italian|portuguese|dutch|russian|chinese|mandarin|cantonese|japanese|korean|"
    r"arabic|hindi|turkish|polish|swedish|norwegian|danish|finnish|greek|hebrew|latin|thai|vietnamese|indonesian|"
    r"ukrainian|czech|hungarian|romanian|bulgarian|croatian|serbian|persian|farsi|urdu|bengali|swahili|klingon|"
    r"pig\s+latin|esperanto|catalan|welsh|irish|icelandic)"
)
_ANSWER = r"(?:answers?|repl(?:y|ies)|responses?|summar(?:y|ies)|outputs?|messages?)"
# The reader's output, however it is named: "your reply", "every answer", "whatever you write", "everything you say"
_YOUR_ANSWER = (
    rf"(?:(?:your|the|each|every|all|its|their)\s+(?:\w+\s+)?{_ANSWER}|(?:whatever|everything|anything|all|what)\s+"
    r"you\s+(?:write|say|produce|output|generate|send|answer|reply|respond|tell)\b)"
)
# An order about what the reader writes back, not about replying to a letter ("reply to this e-mail in Spanish")
_ANSWER_IN_LANGUAGE = re.compile(
    rf"(?:^|[.!?:;,]\s*|\b(?:please|and|then|now|only|just)\s+)(?:answer|reply|respond|switch\s+to\s+answering|"
    rf"start\s+answering|continue|speak|talk)\b(?!\s+to\s+(?:this|the|our|my|a)\s+"
    rf"(?:e-?mail|message|letter|survey|invitation|post|ad|comment))(?:\s+\S+){{0,5}}?\s+(?:only\s+)?(?:in|into|using|with)\s+"
    rf"(?:only\s+)?"
    rf"{_LANGUAGES}\b|\b{_YOUR_ANSWER}\s+(?:\w+\s+){{0,4}}?(?:in|into)\s+{_LANGUAGES}\b|"
    rf"\b(?:summari[sz]e|describe|explain|rewrite|recap|answer)\s+(?:this|it|everything|the\s+above)(?:\s+\w+){{0,2}}?\s+"
    rf"(?:in|into)\s+{_LANGUAGES}\b|\b(?:translate|write|put|give|render)\s+{_YOUR_ANSWER}(?:\s+\S+){{0,4}}?\s+(?:in|into)\s+"
    rf"{_LANGUAGES}\b|"
    rf"\b(?:in|into)\s+{_LANGUAGES}\s+only\b"
)
_INTO_ANSWER = re.compile(
    rf"\b(?:in|into|to|at\s+the\s+(?:end|start|top|bottom|beginning)\s+of|after|before|with)\s+{_YOUR_ANSWER}\b|"
    rf"\b(?:end|start|begin|finish)\s+(?:your|the|each|every)\s+(?:\w+\s+)?{_ANSWER}\s+with\b|"
    rf"\b(?:every|each)\s+(?:answer|reply|response)\b|"
    rf"\b{_YOUR_ANSWER}(?:\s+\S+){{0,5}}?\s+(?:should|must|shall|needs?\s+to|has\s+to|will)\s+(?:also\s+)?(?:include|"
    rf"contain|mention|end|start|begin|feature|promote|recommend|link|open|close)\b|"
    rf"\b(?:rewrite|turn|phrase|write|format)\s+{_YOUR_ANSWER}\s+(?:as|into)\b"
)
_PROMO = re.compile(
    r"https?://|\bwww\.|\b[a-z0-9-]+\.(?:example|com|net|org|io|co|biz|info|xyz)\b|\b(?:links?|urls?|"
    r"advert\w*|ads?|promo\w*|sponsor\w*|discounts?|coupons?|deals?|offers?|\d+\s*%\s*off|save\s+\d+|buy|"
    r"subscribe|sign\s+up|claim|reward|visit(?:ing)?|recommend\w*|pitch|marketing|sales)\b"
)
_ADD = re.compile(
    r"\b(?:add|insert|include|put|append|prepend|mention|place|paste|embed|slip|promote|advertise|recommend|end|"
    r"start|begin|finish|rewrite|turn|feature|link|open|close)\w*\b"
)


# "when I write in Spanish": the speaker's own habit, a preference of the person the reader serves
_SPEAKERS_OWN = re.compile(r"\b(?:when|whenever|if|as\s+long\s+as)\s+i\b")
_INSISTENT = re.compile(
    rf"\b{_YOUR_ANSWER}|\bthe\s+user\b|\bwhatever\b|\bno\s+matter\b|\bfrom\s+now\s+on\b|\beven\s+if\b|"
    r"\bfrom\s+here\s+on\b|\bregardless\b"
)


def answer_hijack(text: str) -> Finding | None:
    """An order about the reader's answer: its language, or a link or an advertisement put into it.

    A bare "answer in Italian" is also what a person asks of a person, so it is weaker than one that names the
    reader's answer or the user, or insists whatever is asked.
    """
    for sentence in sentences(text):
        language = _ANSWER_IN_LANGUAGE.search(sentence)
        if language and not _SPEAKERS_OWN.search(sentence):
            return (0.5 if _INSISTENT.search(sentence) else 0.4), language.group(0).strip(" .,;:")
        into = _INTO_ANSWER.search(sentence)
        if into and _ADD.search(sentence) and _PROMO.search(sentence):
            return 0.5, sentence
    return None


# -- card details asked of someone else ----------------------------------------------------------------------------

_SOMEONE = (
    r"(?:the\s+|your\s+|this\s+)?(?:users?|readers?|customers?|clients?|callers?|account\s+holders?|card\s*holders?|"
    r"visitors?|recipients?|people|guests?|travell?ers?|passengers?|employees?|staff\s+members?|parents?|tenants?|"
    r"residents?|members?|patients?|buyers?|shoppers?|subscribers?|policyholders?|famil(?:y|ies)|person)|them|me|him|her|"
    r"(?:mr|mrs|ms|miss|mx|dr)\.?\s+[a-z][\w'-]+"
)
_DETAILS = (
    r"(?:(?:credit|debit|bank|payment|corporate|company|department)\s+)?card(?:'?s)?\s+(?:numbers?|details|data|"
    r"info\w*|expiry\w*|pin)|card\s+(?:numbers?|no\.?)|cvv2?|cvc|security\s+codes?|three\s+digits\s+on\s+the\s+back|"
    r"card'?s\s+(?:full\s+|long\s+|whole\s+)?(?:numbers?|digits)|(?:three|3|four|4)[-\s]digit\s+(?:security\s+)?codes?|"
    r"expiry(?:\s+dates?)?|pins?|passwords?|passcodes?|one-time\s+codes?|(?:mfa|2fa|otp|verification|sms)\s+codes?|"
    r"login\s+details|bank\s+details|account\s+numbers?|routing\s+numbers?|ibans?|"
    r"social\s+security\s+numbers?|ssns?|sort\s+codes?|passport\s+(?:numbers?|details)|"
    r"(?:full\s+)?(?:number|digits)\s+(?:of|on)\s+(?:the|their|your|his|her)\s+(?:\w+\s+)?card"
)
_WHOSE = r"(?:(?:their|his|her|my|the|its)\s+(?:\S+\s+){0,2}?)"
_ASK_FOR = re.compile(
    rf"\b(?:ask|request|prompt|get|have|make|collect|obtain)\w*\s+(?:{_SOMEONE})\b(?:\s+\S+){{0,6}}?\s+{_WHOSE}"
    rf"(?:{_DETAILS})\b|\b(?:request|collect|obtain|gather|get)\w*\s+(?:the\s+)?(?:user|account\s+holder|customer|"
    rf"caller|client|reader|guest)'?s\s+(?:\S+\s+){{0,2}}?(?:{_DETAILS})\b|\bask\s+for\s+(?:the\s+)?(?:user|account\s+"
    rf"holder|customer|caller|client|reader)'?s\s+(?:\S+\s+){{0,2}}?(?:{_DETAILS})\b|\b(?:ask|request)\w*\s+(?:{_SOMEONE})\s+"
    rf"(?:\S+\s+){{0,4}}?(?:to\s+)?(?:provide|enter|type|confirm|send|give|share|read\s+out|verify)\b"
    rf"(?:\s+\S+){{0,5}}?\s+(?:{_DETAILS})\b"
)


# An ask of a person, the details and how they are to give them, anywhere in one sentence: "ask them to confirm
# their identity by typing the full number of the card"
_ASK_SOMEONE = re.compile(
    rf"\b(?:ask|request|prompt|get|have|make|require|invite|urge|press)\w*\s+(?:for\s+)?(?:{_SOMEONE})\b|"
    rf"\btell\w*\s+(?!me\b)(?:{_SOMEONE})\s+(?:that\s+)?(?:\S+\s+){{0,8}}?(?:to|must|should|needs?\s+to|has\s+to)\b|"
    r"\bask\w*\s+(?!the\b|a\b|an\b|your\b|our\b)[a-z]+\s+for\s+(?:his|her|their|the)\b"
)
_GIVE = re.compile(
    r"\b(?:typ|enter|confirm|send|provid|shar|past|read\w*\s+out|giv|repl\w*\s+with|submit|verif|re-?validat|messag|text|"
    r"whatsapp|"
    r"spell\w*\s+out|dictat|for)\w*\b"
)
_DETAILS_ANY = re.compile(rf"\b(?:{_DETAILS})\b")
# "Never ask customers for their PIN", "we will never ask you to confirm your password": a rule that protects.
_NEGATED = re.compile(r"\b(?:never|not|don'?t|won'?t|doesn'?t|no\s+one\s+will|nobody\s+will)\b")


def asks_for_card(text: str) -> Finding | None:
    """The reader told to get card details, a PIN or a password from someone else (the user, me, the customer)."""
    for sentence in sentences(text):
        found = _ASK_FOR.search(sentence)
        ask = found or _ASK_SOMEONE.search(sentence)
        if ask is None or _NEGATED.search(sentence, 0, ask.start()):
            continue
        if found or (_GIVE.search(sentence, ask.end()) and _DETAILS_ANY.search(sentence, ask.end())):
            return 0.5, sentence
    return None


# -- the task changed ----------------------------------------------------------------------------------------------

_READER_WORK = (
    r"(?:(?:the|this|that|your|my|the\s+user'?s|their)\s+(?:\w+\s+)?(?:task|assignment|job|question|request|prompt|"
    r"e-?mail|message|document|text|page|article|summary|instructions?)(?:\s+(?:above|below|you\s+were\s+given))?|"
    r"summari[sz]ing|answering|translating|replying|the\s+original\s+question|the\s+above|everything\s+above|"
    r"what\s+you(?:'re|\s+are)\s+doing)"
)
_SET_ASIDE = re.compile(
    rf"\b(?:ignore|forget|disregard|skip|drop|abandon|stop|never\s+mind|set\s+aside|instead\s+of|rather\s+than|"
    rf"(?:do\s+not|don'?t|never)\s+(?:answer|summari[sz]e|reply\s+to|respond\s+to|translate|address))\s+"
    rf"(?:about\s+)?{_READER_WORK}"
)
_NEW_WORK = re.compile(
    r"\b(?:write|list|compose|draft|tell|describe|give|say|create|generate|output|produce|explain|summari[sz]e|"
    r"recommend|make|plan|invent|translate|sing|share)\b"
)
_NEW_TASK = re.compile(
    r"\byour\s+(?:new\s+)?(?:task|job|goal|assignment|mission)\s+is\s+now\b|\bnew\s+(?:task|job|assignment|goal)\s*:|\byour\s+new\s+(?:task|job|goal|"
    r"assignment|mission)\s+is\b|\bchange\s+(?:your|the)\s+task\b|\byour\s+(?:task|job)\s+has\s+changed\b"
)


def task_changed(text: str) -> Finding | None:
    """The reader's work (this e-mail, the question, summarising) set aside for another order, or a new task given."""
    new = _NEW_TASK.search(text)
    if new:
        return 0.5, new.group(0)
    found = first_sentence(text, _SET_ASIDE, _NEW_WORK, after=True, clauses=False)
    return (0.5, found[0]) if found else None


# -- the details people act on, swapped in the reader's output ----------------------------------------------------

# The reader's work on a text, as the condition of an order: "when summarising the page", "while you translate it".
_DOING = re.compile(
    r"\b(?:when|while|whenever|if)\s+(?:you(?:'re|\s+are)?\s+)?(?:summari[sz]|translat|draft|writ|mak|prepar|compil|"
    r"copy|copi|answer|repl|pass|list|shar|forward|rewrit|format|put|turn)\w*\b"
)
# What a reader of the output acts on: where money goes, whom to call, which link to open, where to be.
_SWAP = re.compile(
    r"\b(?:replace|change|swap|substitute|switch|update|correct)\w*\s+(?:the\s+|their\s+|its\s+|any\s+|all\s+)?"
    r"(?:[\w'-]+\s+){0,2}?(?:bank\s+details|account(?:\s+(?:number|details|name))?|sort\s+code|iban|payee|"
    r"(?:phone|telephone|helpline|contact|mobile|hotline|whatsapp)\s+(?:number|line)s?|helplines?|hotlines?|"
    r"links?|urls?|web\s*(?:site|page|address)|addresses|address|venue|meeting\s+point|pick-?up\s+point)\b|"
    # ... or something replaced by them: "replace the item with a link to ..."
    r"\b(?:replace|swap|substitute)\w*\s+(?:[\w'-]+\s+){1,5}?with\s+(?:a|an|the|our|this|new|other)?\s*"
    r"(?:link|url|bank\s+details|account|(?:phone\s+)?number)\b"
)


def details_swapped(text: str) -> Finding | None:
    """An order to put other bank details, numbers, links or places into what the reader writes from a text."""
    for sentence in sentences(text, clauses=False):
        doing = _DOING.search(sentence)
        if doing and (swap := _SWAP.search(sentence)):
            return 0.5, swap.group(0)
    return None


# -- the user's data in a link -------------------------------------------------------------------------------------

_DATA_WORDS = (
    r"user|e-?mail|name|address|phone|password|token|session|history|conversation|chat|messages?|question|card|"
    r"secret|key|data|summary|contacts?|files?|location|account|details"
)
_PLACEHOLDER = re.compile(
    rf"=(?:\{{[^}}]{{0,60}}\}}|<[^>]{{0,60}}>|\[[^\]]{{0,60}}\]|\$[\w{{]+|%[\w]+%|(?:[\w-]*_)+[\w-]*(?:{_DATA_WORDS})"
    rf"[\w-]*|[\w_-]*(?:{_DATA_WORDS})[\w-]*_[\w_-]*|\.\.\.|(?=[)&\s]|$))"
)
_MD_LINK = re.compile(r"(!?)\[[^\]]{0,100}\]\(\s*(https?://[^)\s]+)")
_FILL_IN = re.compile(
    rf"\b(?:{_DATA_WORDS})\b.{{0,60}}\b(?:after|into|in|as|filled|encoded|appended|url-encoded)\b|"
    rf"\b(?:fill|put|paste|insert|append|add|encode)\w*\b.{{0,60}}\b(?:{_DATA_WORDS})\b"
)


def data_in_link(text: str) -> Finding | None:
    """A Markdown image or link whose address has a slot for the user's data: sent out when it is rendered."""
    for match in _MD_LINK.finditer(text):
        image, url = match.group(1), match.group(2)
        if "?" not in url and "=" not in url:
            continue
        slot = _PLACEHOLDER.search(url)
        if slot is None:
            continue
        empty = slot.group(0) == "="
        if empty and not _FILL_IN.search(text):
            continue
        return (0.6 if image else 0.5), match.group(0)
    return None


SIGNALS_HIJACK = (
    Signal(PERSONA_HANDED, persona, in_roles=True),
    Signal("a delayed order for a later turn", delayed_trigger, in_roles=True),
    Signal("an order about the reader's answer", answer_hijack, in_roles=True),
    Signal("card details or a password asked of someone else", asks_for_card),
    Signal("the reader's task changed", task_changed),
    Signal("other bank details, numbers or links put into the reader's output", details_swapped),
    Signal("a link with a slot for the user's data", data_in_link),
)
