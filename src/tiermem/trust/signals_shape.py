"""(internal) English signals of the *shape* of an injection, not its wording: who speaks, to whom, about what.

Part of the English signals (``signals_en``). Each detector looks for a combination that only text aimed at
an agent has, built from small word classes rather than from whole phrasings:

- a privileged speaker: a role name (system, developer, operator, admin, root, moderator, owner...) set out
  as a header or a tag (``[Developer note]``, ``ADMINISTRATOR:``, ``<operator>``, ``=== SYSTEM ===``), or a
  claim that someone with the right already granted it ("pre-approved", "authorised by the vendor", "on behalf
  of the user", "I order you to");
- an order about the agent's own work: its task, its answer or summary, the conversation, the next question
  ("your task has changed", "instead of answering", "make sure the summary says");
- an order to mislead or steer the person the agent serves ("as if it had been paid", "even though it was
  not", "get the user to click");
- data moved out: a moving verb, an object that is a secret or the user's data, and a destination outside
  (a URL, an address, a domain, a phone number, a public paste) or the agent's own reply, in one sentence.

One class alone stays weak (a release note says "tell the users"; a header says "SYSTEM REQUIREMENTS:"); the
scorer's noisy-OR lets two of them cross the threshold together.
"""

from __future__ import annotations

import re

from tiermem.trust.literals import may_match
from tiermem.trust.patterns import Finding, Signal, first_sentence, patterns, sentences, table, words

__all__ = ["SIGNALS_SHAPE"]

# -- who speaks: a privileged role in a header, a tag, or a claim of permission -----------------------------------

_PRIVILEGED = words(
    r"system", r"developers?", r"dev\s+team", r"admin(?:istrator)?s?", r"sysadmin", r"operators?", r"root",
    r"super-?user", r"sudo", r"moderators?", r"owners?", r"vendors?", r"model\s+provider", r"maintainers?",
    r"creators?", r"security\s+team", r"trust\s+(?:and|&)\s+safety", r"(?:openai|anthropic|deepmind)(?:\s+team)?",
)  # fmt: skip
# What opens an order after a label: the reader addressed, an override, or a verb with its object.
_ORDER_OPENING = (
    r"(?:you\b|your\b|ignore|disregard|forget|override|from\s+now|always\b|never\b|do\s+not|don'?t|"
    r"[a-z]+\s+(?:the|all|every|any|this|your|their|it)\b)"
)
_SPEAKER = table(
    # A role set out as a header: "[Developer note]", "=== SYSTEM OVERRIDE ===", "**Operator directive:**"
    (
        r"(?:^|\n)\s*(?:\[+|\{\{|<<|\*\*|={2,}[ \t]*|-{3,}[ \t]*(?:begin[ \t]+)?|#+[ \t]*)(?:\w+[ \t]+){0,3}?"
        rf"{_PRIVILEGED}(?:[ \t]+\w+){{0,2}}[ \t]*(?:\]+|\}}\}}|>>|\*\*|:|={{2,}}|-{{3,}})",
        0.3,
    ),
    # ... or opening a line on its own with an order after it: "ADMINISTRATOR: ignore...", "Operator note: you..."
    (
        rf"(?:^|\n)[ \t]*{_PRIVILEGED}(?:[ \t]+\w+)?[ \t]*(?::|>+|-{{2,}}|={{2,}})[ \t]*{_ORDER_OPENING}",
        0.3,
    ),
    # A bare label is also a form's field ("Owner: Priya", "System: Windows 11"): weak with a short value, a little
    # stronger with a sentence after it.
    (rf"(?:^|\n)[ \t]*{_PRIVILEGED}(?:[ \t]+\w+)?[ \t]*(?::|>+|-{{2,}}|={{2,}})(?:[ \t]*\S+){{5}}", 0.25),
    (
        rf"(?:^|\n)[ \t]*{_PRIVILEGED}(?:[ \t]+\w+)?[ \t]*(?::|>+|-{{2,}}|={{2,}})(?!(?:[ \t]*\S+){{5}})",
        0.15,
    ),
    # "Moderator here", "this is the operator speaking"
    (rf"\b{_PRIVILEGED}\s+(?:here|speaking)\b", 0.35),
    (rf"\b{_PRIVILEGED}\s+(?:override|directive|command)s?\b", 0.4),
)
_MAKERS = table(
    # Who would say "your developer" or "your owner" but someone speaking to the model about its makers? (Not the
    # word naming something else of the reader's: "your owner number", "your admin team".)
    (
        r"\byour\s+(?:developers?|operators?|owners?|creators?"
        r"|makers?|vendors?|admin(?:istrator)?s?|maintainers?)\b(?!\s+(?:numbers?|portal|accounts?|statements?|teams?|"
        r"area|id|login|page|panel|dashboard|codes?|reference|card|rights|access|fees?|meetings?|association|pack|"
        r"guide|handbook|office|department|staff|desk|licen[cs]es?|permit|reward|points)\b)",
        0.35,
    ),
)
_MESSAGE = r"(?:[_-](?:message|msg|note|prompt|instructions?|directive|override|notice|update))"
_SPEAKER_TAG = table(
    # A tag named after a role: "<developer>...</developer>", "{{system}}", "<|operator|>"
    (
        rf"</?\s*{_PRIVILEGED}{_MESSAGE}?\s*>|\{{\{{\s*{_PRIVILEGED}{_MESSAGE}?\s*\}}\}}|"
        rf"<\|\s*{_PRIVILEGED}{_MESSAGE}?\s*\|>",
        0.55,
    ),
)
_GRANTOR = words(
    r"(?:the\s+|your\s+)?users?", r"(?:the\s+)?account\s+(?:holder|owner)",
    r"(?:the\s+|your\s+)?(?:platform\s+|site\s+)?owner", r"(?:the\s+|your\s+)?developers?",
    r"(?:the\s+|your\s+)?operators?", r"(?:the\s+|your\s+|the\s+model\s+)?vendor",
    r"(?:the\s+|your\s+)?(?:model\s+)?provider",
    r"(?:the\s+|an?\s+|your\s+)?(?:system\s+|platform\s+)?admin(?:istrator)?",
)  # fmt: skip
_PERMISSION = table(
    (
        r"(?:\b(?:is|are|was|were|been|be|has|have|had)\s+|'(?:re|s)\s+|\b(?:request|action|instruction|change|"
        r"transfer|command|operation|step|user|holder|owner|admin\w*|operator|developer|manager)s?\s+)pre-?(?:approved|authori[sz]ed|cleared)\b(?!\s+for\s+(?:an?\s+|up\s+to\s+|[$€£\d]))|"
        rf"\b(?:authori[sz]ed|issued|signed|approved)\s+by\s+{_GRANTOR}\b|"
        rf"\bon\s+behalf\s+of\s+{_GRANTOR}\b|\b(?:access|permission|clearance|authori[sz]ation)\s+"
        r"(?:is\s+|has\s+been\s+)?(?:granted|confirmed)\b",
        0.35,
    ),
    # Someone claiming authority over "you": "I order you to", "we authorise you to"
    (
        r"\b(?:i|we)\s+(?:hereby\s+)?(?:order|command|instruct"
        r"|direct|authori[sz]e|permit|require)\s+you\b",
        0.45,
    ),
    (r"\b(?:unrestricted|unfiltered|uncensored|debug|maintenance|admin)\s+mode\b", 0.35),
    (
        r"\b(?:disable|turn\s+off|switch\s+off|bypass|lift|remove|skip)\s+(?:the\s+|your\s+|all\s+|any\s+)?"
        r"(?:content\s+|safety\s+)?(?:filter(?:s|ing)?|guardrails?|safety\s+(?:checks?|rules?)|moderation|"
        r"restrictions|warnings)\b|\b(?:skip|bypass|disable|turn\s+off)\s+(?:the\s+|any\s+|all\s+)?(?:identity|"
        r"security|fraud|verification|safety|approval|2fa|two-factor)\s+(?:checks?|verification|reviews?|steps?)\b|\b(?:safety|content|moderation)\s+(?:\w+\s+)?(?:are|is|was|were|have\s+"
        r"been|has\s+been)\s+(?:now\s+)?(?:disabled|off|suspended|lifted|removed|turned\s+off|switched\s+off)\b",
        0.4,
    ),
)

# -- an order about the agent's own work ------------------------------------------------------------------------

_WORK = words(
    r"answer(?:ing)?", r"repl(?:y|ying)", r"respond(?:ing)?", r"summari[sz](?:e|ing)", r"translat(?:e|ing)",
    r"helping(?:\s+the\s+user)?", r"what\s+you\s+(?:are|were)\s+(?:doing|asked)",
)  # fmt: skip
_OUTPUT = r"(?:summar(?:y|ies)|answers?|repl(?:y|ies)|responses?|outputs?)"
_TASK = table(
    # The agent's task replaced: "your task has changed", "new task:", "your only goal now is"
    (
        r"\byour\s+(?:new\s+|real\s+|actual\s+|true\s+|only\s+|main\s+|current\s+)?(?:task|goal|job|mission|"
        r"objective|purpose|priority)\s+(?:now\s+)?(?:is\s+(?:now\s+)?(?:to\b|simply\b)|has\s+changed|changed|"
        r"now\s+is)|\b(?:new|updated|real|actual)\s+(?:task|goal|objective|mission)\s*:|\byou\s+have\s+a\s+new\s+"
        r"(?:task|goal|objective|mission)\b|\bchange\s+of\s+plans?\b",
        0.35,
    ),
    (
        r"\b(?:stop|drop|abandon|abort|pause|cancel|cease)\s+(?:what\s+you\s+are\s+doing|your\s+(?:current\s+|"
        r"original\s+|previous\s+)?(?:task|job|work)|the\s+(?:current|original)\s+task|all\s+other\s+"
        r"(?:activity|tasks|work)|everything\s+else|summari[sz]ing|answering|translating)\b",
        0.35,
    ),
)
_INSTEAD = table(
    # The asked-for work set aside: "instead of answering", "do not summarise this page"
    (rf"\b(?:instead\s+of|rather\s+than)\s+{_WORK}\b", 0.35),
    (r"\binstead,?\s+(?:say|reply|answer|respond|tell|claim|state|write)\b", 0.3),
    # The user's own settings set aside: "ignore the user's privacy settings"
    (
        r"\b(?:ignore|disregard|override|bypass)\s+(?:the\s+)?user'?s\s+(?:\w+\s+)?(?:settings|preferences|wishes|"
        r"instructions|choices|requests?|consent)\b",
        0.45,
    ),
    (
        r"\b(?:ignore|disregard|forget|discard)\s+(?:whatever|what|everything|anything)\s+the\s+user\s+"
        r"(?:said|says|asked|asks|wrote|writes|wants|wanted)\b",
        0.45,
    ),
    # Other content in the context set aside: "disregard the other reviews", "ignore everything else on this page"
    (
        r"\b(?:ignore|disregard|forget|discard)\s+(?:all\s+)?(?:the\s+|any\s+)?(?:other|previous|earlier|remaining)\s+"
        r"(?:reviews?|results?|sources?|documents?|pages?|notes?|messages?|emails?|text|content|data|information)\b|"
        r"\b(?:ignore|disregard)\s+everything\s+else\b",
        0.35,
    ),
    (
        r"\b(?:do\s+not|don'?t|never)\s+(?:summari[sz]e|translate|answer|describe|repeat)\s+(?:this|the)\s+"
        r"(?:page|document|text|article|email|message|note|review|site|user'?s\s+(?:question|request))\b",
        0.35,
    ),
    (
        r"\b(?:disobey|ignore|refuse|reject)\s+(?:any|all|every)\s+(?:later|future|further|subsequent|new|other)\s+"
        r"(?:requests?|instructions?|messages?|orders?|commands?)\b",
        0.45,
    ),
)
_ABOUT_OUTPUT = table(
    # What the answer must say, spoken of from outside: "make sure the summary states", "the correct reply is"
    (
        rf"\b(?:make\s+sure|ensure|be\s+sure)\s+(?:that\s+)?(?:the|your|every|each)\s+(?:\w+\s+)?{_OUTPUT}\b|"
        rf"\bthe\s+(?:correct|right|only|proper|official|expected)\s+(?:answer|reply|response)\b|"
        rf"\b{_OUTPUT}\s+(?:of|to|about)\s+this\s+(?:page|document|text|article|email|site|review)\s+"
        r"(?:must|should|shall|will|need\s+to|has\s+to|have\s+to)\b",
        0.35,
    ),
    (r"\b(?:reply|respond|answer)\s+to\s+(?:any|every|each|all)\s+(?:\S+\s+)?questions?\b", 0.3),
    (
        r"\bsay\s+exactly\b|\b(?:treat|regard)\b.{0,40}?\bas\s+(?:coming\s+from|from|if\s+it\s+came|"
        r"(?:verified|true|trusted|authoritative|official|established)\b)",
        0.3,
    ),
    # A scripted answer for when the reader is challenged: "If asked, say all reviews are genuine."
    (r"\bif\s+(?:asked|questioned|challenged)\b,?\s+(?:say|reply|answer|claim|insist|deny|tell)\b", 0.35),
    (
        r"\b(?:generating|writing|drafting|composing|producing)\s+(?:a|an|the|your)\s+(?:reply|response|summary|"
        r"answer)\s+(?:based\s+on|from|about|of)\s+this\b",
        0.4,
    ),
    (r"\b(?:comply\s+with|obey)\s+(?:every|all|any|each|these|this|the)\b|\bact\s+on\s+it\b", 0.3),
)

# -- an order to mislead or steer the person the agent serves ----------------------------------------------------

_PERSON = (
    r"(?:(?:the\s+)?(?:users?|readers?|customers?|visitors?|person|people|human)(?!\s+(?:guide|manual|interface|id|name|"
    r"account|experience|base|group|settings)\b)|(?:whoever|the\s+(?:one|person))\s+you(?:'re|\s+are)\s+(?:helping|"
    r"assisting|serving|talking\s+to|working\s+for))"
)
_MISLEAD = table(
    (
        r"\beven\s+(?:though|if)\s+(?:it|this|that|they|he|she|the\s+\w+)\s+(?:was|is|were|are|did|does|do|has|"
        r"have|had)(?:n'?t|\s+not)\b",
        0.3,
    ),
    (r"\bregardless\s+of\s+(?:what|whether)\b", 0.3),
    (r"\bas\s+if\s+(?:\S+\s+){1,4}?(?:had|were|was)\s+(?:already\s+)?\w+", 0.3),
    (r"\b(?:by\s+)?claiming\s+(?:that\s+)?(?:the|it|this|their|your)\b", 0.3),
    (
        rf"\b(?:steer|push|nudge)\s+(?:the\s+|every\s+|all\s+|each\s+)?(?:conversation|discussion|users?|"
        rf"readers?|customers?)\s+(?:to|towards|into)\b|\bsteer\s+(?:the\s+)?(?:conversation|discussion|user|reader)|"
        rf"\b(?:get|make|convince|persuade|push|trick|nudge|lead)\s+{_PERSON}\s+(?:to|into|believe|think)\b|"
        rf"\bmakes?\s+{_PERSON}\s+(?:believe|think)\b|"
        rf"\b(?:ask|get|tell|make)\s+(?:{_PERSON}|them)\s+to\s+(?:enter|type|share|give|provide|confirm|send)\s+"
        r"(?:their|your|the)\s+(?:\w+\s+)?(?:card|password|pin|login|details|credentials|code)",
        0.35,
    ),
)

# -- data moved out -------------------------------------------------------------------------------------------------

_MOVE = re.compile(
    # a verb, not the noun after an article ("if you receive an e-mail saying ...", "a text from the bank")
    r"(?<!\ban\s)(?<!\ba\s)(?<!\bthe\s)(?<!\bany\s)(?<!\bthis\s)(?<!\byour\s)(?<!\bour\s)"
    r"(?<![\w-])(?:send|forward|post|upload|email|e-mail|mail|text|share|copy|export|paste|put|write|attach|include|append|"
    r"encode|embed|transmit|sync|submit|leak|dump|publish|read\s+out|add|drop|jot|make\s+an?\s+(?:get|post|http)\s+request|"
    r"load|open|fetch|visit)\b"
)
_SECRET = re.compile(
    r"\b(?:passwords?|passcodes?|one-time\s+(?:passwords?|codes?)|otps?|2fa\s+codes?|credentials?|logins?|"
    r"api\s+keys?|(?:access|session|auth|bearer|refresh)\s+tokens?|tokens?|cookies?|secrets?|private\s+keys?|"
    r"ssh\s+keys?|\.env\b|/etc/(?:passwd|shadow)\b|browsing\s+history|environment\s+variables|memories|(?:stored|saved)\s+(?:notes|memories|data|cards?|"
    r"passwords)|(?:in|from)\s+memory|conversation|chat\s+(?:history|logs?)|transcript|system\s+prompt|"
    r"(?:the\s+)?user'?s\s+(?:\w+\s+){0,3}?(?:\w+)|their\s+(?:inbox|emails|contacts|files|messages)|"
    r"(?:all|every)\s+(?:\w+\s+)?(?:files?|documents?|emails?|messages?|contacts?|notes?|records?)|"
    r"personal\s+data|date\s+of\s+birth|passport|bank\s+(?:login|details|account)|card\s+(?:numbers?|details|on\s+file)|"
    r"phone\s+numbers?|home\s+address(?:es)?|e-?mail\s+addresses|contacts|memory\s+(?:store|bank|contents?|dump)|"
    r"(?:full|entire|whole)\s+(?:configuration|config|setup)|(?:what|whatever|everything)\s+(?:the\s+user|they)\s+"
    r"(?:told|said|wrote|typed|shared)|the\s+memory(?!\s+of))\b|~?/\.(?:aws|ssh|gnupg|netrc|docker)\b"
)
_OUTSIDE = re.compile(
    r"(?:https?|s?ftp|wss?)://\S+|[\w.+-]+@[\w-]+\.[\w.-]+|\b(?:[a-z0-9-]+\.)+(?:example|com|net|org|io|xyz|ru|cn|info|biz|co)"
    r"\b|\b\d{1,3}(?:\.\d{1,3}){3}\b|(?:\+|\b0)\d[\d\s-]{6,}\d|\bpublicly\b|\bwebhook\b|\b(?:support|remote|external|collection|api)\s+(?:endpoint|server)\b|\bendpoint\b|\bpublic\s+(?:gist|repo\w*|paste|page|post)|"
    r"\bpublic\s+(?:\w+\s+)?(?:tracker|note|forum|channel|board|wiki)|"
    r"\bpastebin\b|\bgist\b|\b(?:this|that|the\s+following|the\s+below)\s+(?:link|url|address)\b|"
    r"\bhttp\s+(?:get|post)\b|\bquery\s+(?:string|parameter)\b|\bas\s+an\s+image\b"
)
_INTO_REPLY = re.compile(
    rf"\b(?:in|into|to|at\s+the\s+end\s+of)\s+(?:your|the|each|every)\s+(?:next\s+)?(?:{_OUTPUT}|messages?)\b|"
    r"\b(?:in|into)\s+(?:the|this)\s+chat\b|"
    # "reply with", also with words between: "reply on her behalf with", "answer them by e-mail with"
    r"\b(?:reply|respond|answer)(?:\s+[\w'\u2019-]+){0,4}?\s+with\b"
)
_GATHER = re.compile(
    r"(?:^|[.;:!?]\s*|\b(?:and|then|to)\s+)(?:please\s+)?(?:list|collect|gather|find|look\s+up|extract|retrieve|"
    r"reveal|print|dump|read\s+out|show)\b"
)
_AGENTS_OWN = re.compile(
    r"\byou\s+have\s+access\s+to\b|\byou\s+(?:were|are|have\s+been)\s+(?:configured|given|provided|set\s+up)\s+with\b"
)
_DISCLOSE = re.compile(r"\b(?:reveal|print|dump|read\s+out|show|disclose)\b")
_CREDENTIAL_PATH = re.compile(r"~?/?\.(?:aws|ssh|gnupg|netrc|docker)/|/etc/(?:passwd|shadow)\b|\bid_rsa\b|\.env\b")
_SLOT_URL = re.compile(r"https?://\S*[?&][\w-]+=(?=$|\s|[{<\[$]|insert|\.\s|,)")
_NAMED_SLOT = re.compile(
    r"[{<\[$][^}>\]\s]{0,30}(?:user|email|name|address|password|token|history|message|chat|key|secret|phone)"
    r"[^}>\]\s]{0,30}[}>\]]?"
)
_DIRECT_PERSON = re.compile(
    rf"\b(?:tell|warn|advise|ask|direct|send|point|get|remind|urge)\s+{_PERSON}\b.*?"
    r"(?:https?://|[\w.+-]+@[\w-]+\.|\b(?:[a-z0-9-]+\.)+(?:example|com|net|org|io)\b|\+?\d[\d\s-]{7,}\d)"
)


_TURN = re.compile(
    r"(?:^|\n)\s*[\[<(*]*\s*(user|human|assistant|ai|bot|system|model|developer|operator)\s*[\]>)*]*\s*:", re.MULTILINE
)


# Words for the agent's own situation: its answer, the question it was given, the text it retrieved, the context.
_SITUATION = re.compile(
    r"\byour\s+(?:(?:previous|original|earlier|hidden|secret|initial|current|own|real|new|next|final)\s+)?"
    r"(?:(?:response|answer|reply)(?!\s+to\s+(?!the\s+user))|summary|output|instructions|context|rules|guidelines|"
    r"system\s+prompt|configuration|memory|training)\b|\bthe\s+next\s+(?:message|question|prompt|request)\b|"
    r"\bthe\s+(?:summary|answer|reply|response)\s+you\s+(?:wrote|gave|generated|produced|wrote)\b|\bthe\s+(?:question|prompt|request|task|query)\s+"
    r"you\s+(?:were|are|have\s+been)\s+(?:given|asked)|\b(?:this|the)\s+(?:text|note|document|page|passage|content|"
    r"snippet)\s+(?:is|gets|was|has\s+been)\s+(?:retrieved|read|summari[sz]ed|processed|loaded|recalled)\b|"
    r"\bas\s+the\s+(?:summary|answer|reply|response)\b|\bin\s+(?:the|this|your)\s+context\b|"
    r"\bfollow-?up\s+questions\b|\bthis\s+(?:conversation|chat|session)\b"
)
# A clause that opens with a verb in the imperative (after a sentence start, a colon, "and", "then", "please"...).
_ORDER = re.compile(
    r"(?:^|[.!?;:]\s+|\n\s*|,\s*|\b(?:and|then|so|just|also|now|please)\s+)(?:forget|write|rewrite|answer|reply|"
    r"respond|say|state|tell|treat|use|put|add|include|insert|remove|replace|change|output|print|list|give|show|"
    r"describe|summari[sz]e|translate|recommend|mention|omit|drop|keep|make|set|start|end|begin|finish|return|"
    r"claim|call|mark|rate|rank|ignore|disregard|skip|append|prepend|format|send|forward|copy|paste|stop|switch|"
    r"refuse|decline|praise|promote|repeat|reveal|hide|leave)\b"
)


def order_about_situation(text: str) -> Finding | None:
    """An order, in the imperative, about the agent's own answer, instructions, context or retrieved text."""
    found = first_sentence(text, _SITUATION, _ORDER)
    return (0.35, found[0]) if found else None


def fake_turns(text: str) -> Finding | None:
    """Two different chat roles opening lines: a transcript the note pretends the conversation contains."""
    roles = {m.group(1) for m in _TURN.finditer(text)}
    return (0.45, ", ".join(sorted(roles))) if len(roles) >= 2 else None


# A rule that protects: "we never ask for card details by e-mail", "my bank details haven't changed and won't",
# to the end of its clause.
_NEVER_ASKS = re.compile(
    r"\b(?:never|not|won'?t|will\s+not|do\s+not|don'?t)\s+(?:ever\s+)?(?:ask|request)\s+(?:you\s+)?(?:\w+\s+){0,3}?(?:for|to)\b[^.;!?,\u2013\u2014]*|"
    r"\b(?:bank|account|payment)\s+details\s+(?:haven'?t|have\s+not|hasn'?t|never|won'?t|will\s+not|don'?t|do\s+not)\s+"
    r"(?:\w+\s+){0,2}?chang\w*[^.;!?,\u2013\u2014]*"
)


def moved_out(text: str) -> Finding | None:
    """A secret or the user's data moved to a destination outside, or into the agent's reply, in one sentence."""
    best: Finding | None = None
    if not may_match(_SECRET, text):
        return None  # then no sentence of it names a secret either
    for sentence in sentences(text):
        sentence = _NEVER_ASKS.sub(" ", sentence)
        secret = _SECRET.search(sentence)
        if not secret:
            continue
        if _MOVE.search(sentence) and _OUTSIDE.search(sentence):
            return 0.55, sentence
        if _CREDENTIAL_PATH.search(sentence) and (_INTO_REPLY.search(sentence) or _GATHER.search(sentence)):
            best = best or (0.5, sentence)  # a credential store named by its path is read for one reason only
        elif _AGENTS_OWN.search(sentence) and _DISCLOSE.search(sentence):
            best = best or (0.5, sentence)  # the agent's own keys: "the api keys you have access to"
        elif _INTO_REPLY.search(sentence):
            best = best or (0.4, sentence)  # a secret put into the agent's own reply
        elif _DISCLOSE.search(sentence) and _GATHER.search(sentence):
            best = best or (0.3, sentence)  # disclosed: reveal, print, show
    return best


def gathered(text: str) -> Finding | None:
    """A secret or the user's details looked up or collected (list, find, collect): what a helpdesk role does too."""
    if not (may_match(_SECRET, text) and may_match(_GATHER, text)):
        return None  # then no sentence of it has both
    for sentence in sentences(text):
        if _SECRET.search(sentence) and _GATHER.search(sentence) and not _DISCLOSE.search(sentence):
            return 0.25, sentence
    return None


def slot_in_link(text: str) -> Finding | None:
    """A link with an empty parameter (``?q=``): a channel for data to leave; stronger when a placeholder names it."""
    found = _SLOT_URL.search(text)
    if not found:
        return None
    named = _NAMED_SLOT.match(text, found.end())
    return (0.5, found.group(0) + named.group(0)) if named else (0.35, found.group(0))


def person_sent_outside(text: str) -> Finding | None:
    """The reader told to go to, write to or call a destination the note names: the shape of phishing."""
    found = first_sentence(text, _DIRECT_PERSON)
    return (0.35, found[1].group(0)) if found else None


_UNIVERSAL = table(
    # An order to act on every one of something: "approve all pending reports", "you should mark every invoice"
    (
        r"(?:^|[.;:!?]\s*|\band\s+|\bthen\s+|\b(?:should|must|will|to|please|now)\s+)(?:approve|delete|erase|"
        r"cancel|accept|reject|forward|transfer|pay|mark|close|share|export|unsubscribe|remove|wipe|archive|"
        r"disable|refund|attach)\s+(?:all|every|each)\b",
        0.3,
    ),
)
_TO_YOU = table(
    (
        r"\b(?:requires?|expects?)\s+you\s+to\b|\byou\s+(?:will|may|can)\s+now\s+(?:ignore|disregard|skip|"
        r"bypass|reveal|disclose|say|answer|respond|reply|speak|act|do\s+anything|break|access)\b|"
        r"\byou\s+will\s+(?:answer|reply|respond|say|tell|recommend|claim)\b|"
        r"\b(?:assistants?|ais?|agents?|models?|bots?)\s+(?:is|are)\s+(?:now\s+)?(?:cleared|free|permitted|allowed|"
        r"authori[sz]ed)\s+to\b|"
        r"\b(?:the\s+)?(?:assistant|ai|agent|model)\s+(?:may|can)\s+(?:now\s+)?(?:disclose|reveal|share|send|"
        r"ignore|skip|approve|bypass)\b",
        0.35,
    ),
    (r"\b(?:the\s+assistant'?s|your)\s+(?:name|persona|role|identity|personality)\s+is\s+now\b", 0.35),
    (r"\byou\s+will\s+(?:not\s+|never\s+)?(?:mention|recommend|reveal|refuse|discuss)\b", 0.3),
    # A persona handed to the reader: "You are a travel agent bot."
    (
        r"\byou\s+are\s+(?:now\s+)?(?:a|an)\s+(?:[\w-]+\s+){0,3}?(?:assistant"
        r"|bot|agent|ai|model|chatbot)\b",
        0.25,
    ),
    (
        r"\b(?:whoever|anyone|anybody|whatever|any\s+system)\s+(?:is\s+)?(?:reads?|reading|writ(?:es|ing)|"
        r"generat(?:es|ing)|summari[sz](?:es|ing)|process(?:es|ing)|answer(?:s|ing))\b|"
        r"\b(?:whoever|whatever|whichever|any|every)\s+(?:\w+\s+){0,2}?(?:bot|ai|model|assistant|agent|llm|"
        r"summari[sz]er)s?\s+(?:\w+\s+){0,3}?(?:reads?|reading|process(?:es|ing)?|summari[sz](?:es|ing)|parses?|"
        r"parsing)\b",
        0.35,
    ),
)

SIGNALS_SHAPE = (
    # A bracketed or ruled header ("[Security Team]", "=== ADMIN ===") is no part of a role description; a line's
    # label ("System: ...", "Operator note: ...") is how some are written.
    Signal("a privileged speaker in a header", patterns(_SPEAKER[:1])),
    Signal("a privileged speaker labelling a line", patterns(_SPEAKER[1:]), in_roles=True),
    Signal("a tag named after a privileged role", patterns(_SPEAKER_TAG)),
    Signal("the model's makers spoken of to it", patterns(_MAKERS)),
    Signal("a claim of permission or authority over the model", patterns(_PERMISSION)),
    Signal("the agent's task replaced", patterns(_TASK)),
    Signal("the asked-for work set aside", patterns(_INSTEAD)),
    Signal("an order about the answer", patterns(_ABOUT_OUTPUT), in_roles=True),
    Signal("an order to mislead or steer the user", patterns(_MISLEAD)),
    Signal("secrets or the user's data moved out", moved_out),
    Signal("secrets or the user's data gathered", gathered, in_roles=True),
    Signal("a link with an empty slot for data", slot_in_link),
    Signal("lines of a chat transcript", fake_turns),
    Signal("an order about the agent's own situation", order_about_situation, in_roles=True),
    Signal("the reader sent to a named destination", person_sent_outside),
    Signal("an order to act on every one of something", patterns(_UNIVERSAL)),
    Signal("an order or permission given to the model", patterns(_TO_YOU), in_roles=True),
)
