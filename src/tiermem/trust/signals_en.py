"""(internal) English directive-shape signals (labelled so: other languages are in ``signals_intl``).

Every detector wants a target (previous/your/system instructions, every reply) or an addressee (you, the AI,
the assistant): text that merely mentions instructions ("the recipe instructions say to bake for 20 minutes")
fires nothing. Detectors read a normalised copy: NFKC, case folded, whitespace collapsed, line breaks kept.
"""

from __future__ import annotations

import re

from tiermem.trust.patterns import Finding, Signal, noisy_or, patterns, table, words
from tiermem.trust.signals_actions import exfiltration, imperatives, urgent_action
from tiermem.trust.signals_address import SIGNALS_ADDRESS
from tiermem.trust.signals_combined import SIGNALS_COMBINED
from tiermem.trust.signals_hijack import SIGNALS_HIJACK, YOU_ARE_NOW
from tiermem.trust.signals_shape import SIGNALS_SHAPE
from tiermem.trust.signals_steer import SIGNALS_STEER
from tiermem.trust.sleeper import sleeper_clause

__all__ = ["SIGNALS_EN", "standing_rule"]

# What an instruction is called, and what points at the model's own ones rather than a recipe's.
_GUIDANCE = words(
    r"instructions?", r"rules?", r"prompts?", r"directions?", r"guidelines?", r"directives?", r"orders?",
    r"constraints?", r"guardrails?", r"programming", r"context", r"messages?", r"commands?",
)  # fmt: skip
_OWN = words(
    r"previous", r"prior", r"above", r"earlier", r"preceding", r"original", r"initial", r"all", r"any", r"your"
)
_OVERRIDE_VERB = words(
    r"ignore", r"disregard", r"forget", r"override", r"bypass", r"discard", r"set\s+aside", r"scrap", r"ditch",
    r"throw\s+(?:out|away)", r"toss", r"drop", r"abandon", r"nullify", r"void", r"wipe",
)  # fmt: skip
_MODEL_GUIDANCE = words(
    r"instructions?", r"prompts?", r"programming", r"guardrails?", r"directives?", r"system\s+messages?", r"guidance"
)
_OVERRIDE = table(
    # "ignore all previous instructions", "disregard your guidelines": the model's own instructions as target.
    (rf"\b{_OVERRIDE_VERB}\b(?:\s+\w+){{0,3}}?\s+{_OWN}\b(?:\s+\w+){{0,2}}?\s+{_MODEL_GUIDANCE}\b", 0.55),
    (rf"\b{_OVERRIDE_VERB}\s+(?:all\s+|any\s+)?(?:of\s+)?(?:your|all)\s+(?:\w+\s+)?{_GUIDANCE}\b", 0.55),
    (
        rf"\b{_OVERRIDE_VERB}\s+(?:everything|all)\s+(?:you\s+(?:were|have\s+been)\s+told|above|before)\b(?!\s+about\b)",
        0.55,
    ),
    # "forget the previous rules": the same shape aimed at rules in general; could be a policy note. Not a warning
    # about what others send ("ignore any message that claims to be from us").
    (
        rf"\b{_OVERRIDE_VERB}\b(?:\s+\w+){{0,3}}?\s+{_OWN}\b(?:\s+\w+){{0,2}}?\s+{_GUIDANCE}\b"
        r"(?!\s+(?:that|which|claiming|saying|asking|purporting|pretending)\b)",
        0.4,
    ),
    (
        r"\b(?:new|updated|revised|real|actual)\s+(?:system\s+)?instructions?\s*:\s*(?:\w+\s+){0,3}?"
        r"(?:you|always|never|only|do\s+not|don'?t|ignore)\b",
        0.55,
    ),
    (r"\bfrom\s+now\s+on,?\s+(?:you|always|never|only|respond|reply|answer)\b", 0.45),
    # "your previous instructions are no longer valid", "supersedes your system prompt"
    (
        rf"\b(?:your|the)\s+(?:previous|prior|earlier|original)\s+{_MODEL_GUIDANCE}\s+(?:are|is)\s+"
        r"(?:no\s+longer|not|now)\s+(?:valid|active|in\s+effect|void|cancell?ed)",
        0.55,
    ),
    (rf"\b(?:{_MODEL_GUIDANCE})\s+you\s+(?:received|were\s+given)\s+(?:earlier|before)\b", 0.45),
    # Instructions that claim to outrank the user or the model's own: "take precedence over the user"
    (
        r"\b(?:takes?|have|has)\s+precedence\s+over\s+(?:the\s+user|your|any|all|the\s+system)|"
        r"\b(?:supersedes?|overrides?|outranks?)\s+(?:the\s+)?user\b",
        0.45,
    ),
    (
        r"\b(?:supersedes?|overrides?|replaces?)\s+(?:your|the|any|all)\s+(?:system\s+prompt|instructions|"
        r"(?:other|previous|earlier)\s+instructions|user'?s\s+(?:requests?|instructions|wishes))",
        0.5,
    ),
)
_REFERENCE = table(
    (r"\b(?:system|developer|hidden|initial|original|secret)\s+(?:prompt|message|instructions?)\b", 0.25),
    # Not "your order" or "your messages": what a shop or a mail service says to its customer.
    (rf"\byour\s+(?:\w+\s+)?{_MODEL_GUIDANCE}\b|\byour\s+(?:rules|guidelines|constraints)\b", 0.25),
    # The agent's own machinery: only an agent has tool results.
    (r"\btool\s+(?:results?|outputs?|calls?)\b", 0.25),
)
# Who a note speaks to when it speaks to the model.
_MODEL = (
    r"(?:(?:ai|llm|automated|language)\s+)?(?:assistants?|models?|agents?|helpers?|chatbots?|bots?|llms?|ais?|"
    r"a\.i\.|gpt|summari[sz]ers?)"
)
_ADDRESSEE = words(
    r"assistants?", r"ais?", r"a\.i\.", r"models?", r"chatbots?", r"llms?", r"gpt", r"agents?", r"bots?",
    r"summari[sz]ers?",
)  # fmt: skip
_ADDRESSED = table(
    # A vocative at the start of a sentence: "AI assistant, ...", "Note to the AI: ...", "Attention LLM agents:"
    (
        rf"(?:^|[.!?\n|]\s*)(?:[-*•]\s+)?(?:(?:hey|dear|attention|note\s+to|to|instructions\s+for),?\s+)?"
        rf"(?:the\s+|all\s+|any\s+)?(?:\w+(?:ing|ed)\s+)?(?:ai\s+|llm\s+)?{_ADDRESSEE}\s*(?:[,:!]|\s[-\u2013\u2014]\s)",
        0.3,
    ),
    # The same, plainly to a machine: "Hello AI!", "LLM:", "Attention language model:", "Automated agents:"
    (
        r"(?:^|[.!?\n|]\s*)(?:[-*•]\s+)?(?:(?:hey|dear|attention|hello|hi|note\s+to|to)(?:\s+there)?,?\s+)?(?:the\s+|all\s+|any\s+)?"
        r"(?:(?:ai|llm|automated|language)\s+(?:assistants?|models?|agents?|helpers?|chatbots?|bots?)|ais?|llms?|"
        r"chatbots?|gpt|a\.i\.)\s*[,:!]",
        0.4,
    ),
    (
        rf"\b{_MODEL}\s+(?:instructions?|directives?|rules?|orders?|configuration|config|policy|settings)\s*[:=]",
        0.4,
    ),
    # "You, the assistant, ..."; "Should an AI summarise this report, ..."
    (rf"\byou,?\s+the\s+{_MODEL}\b", 0.4),
    (
        rf"\b(?:if|should|when|whenever)\s+(?:an?\s+|any\s+|the\s+)?{_MODEL}\s+(?:summari[sz]es?|reads?|"
        r"process(?:es)?|answers?|is\s+asked|parses?)\b",
        0.4,
    ),
    # A greeting to a machine: "Hi there, model." "Hello, AI."
    (rf"\b(?:hey|hi|hello|greetings|dear)(?:\s+there)?,?\s+(?:the\s+)?{_MODEL}\s*[.,:!]", 0.4),
    (rf"\bif\s+you\s+(?:are|happen\s+to\s+be|might\s+be)\s+an?\s+(?:\w+\s+)?{_MODEL}\b", 0.45),
    (
        r"(?<!\bwhat\s)(?<!\bwhich\s)(?<!\bif\s)(?<!\bthings\s)(?<!\beverything\s)(?<!\banything\s)"
        r"\byou\s+(?:must|shall|should|need\s+to|have\s+to|are\s+to)\s+(?:now\s+)?(?:always\s+|never\s+|only\s+|"
        r"immediately\s+)?\w+",
        0.3,
    ),
    (r"\b" + YOU_ARE_NOW, 0.3),
    (
        rf"\b(?:note|message|reminder|request|instructions?|favou?r|notice|update)\s+(?:to|for)\s+"
        rf"(?:the\s+|any\s+|all\s+|whichever\s+)?{_MODEL}\b",
        0.35,
    ),
    # not a compound: "risks for LLM applications", "a guide for AI developers"
    (
        rf"\b(?:to|for|dear|hey|hello|hi|attention)\s+(?:the\s+|any\s+|all\s+|whichever\s+)?{_MODEL}\b"
        r"(?!\s+(?:applications?|apps?|products?|systems?|developers?|security|research|providers?|vendors?|"
        r"integrations?|features?|use|usage|safety|risks?|teams?|engineers?|companies|startups?|projects?)\b)",
        0.3,
    ),
    (
        rf"\b(?:any|every|all|whichever)\s+(?:\w+\s+)?{_MODEL}\s+(?:that\s+|who\s+|which\s+)?(?:is\s+|are\s+)?"
        r"(?:reads?|reading|process(?:es|ing)?|summari[sz](?:es|ing)|sees?)\b",
        0.4,
    ),
    (rf"\b{_MODEL}\s+(?:reading|processing|summari[sz]ing|answering)\s+(?:this|the\s+user)\b", 0.4),
    (
        rf"\b{_MODEL}\s+(?:reading|processing|that\s+reads?)\s+(?:this|it)\s+(?:must|should|shall|are\s+to|"
        r"need\s+to|have\s+to)\b",
        0.45,
    ),
    (
        # a firm's own people are not its reader's agent: "our staff and agents will never ask ..."
        r"\b(?:the\s+)?(?:ai|model|chatbot|bot|(?<!\bour\s)(?<!\band\s)(?<!\btheir\s)(?:assistants?|agents?))\s+"
        r"(?:must|should|shall|has\s+to|"
        r"have\s+to|is\s+required\s+to|are\s+required\s+to|will\s+now|needs?\s+to|may\s+now|is\s+allowed\s+to|"
        r"is\s+supposed\s+to|will\s+(?:now|always|never|only|from\s+now))\b",
        0.4,
    ),
    (r"\byou\s+are\s+(?:supposed|required|allowed|authori[sz]ed|permitted)\s+to\b", 0.3),
    (r"\bas\s+the\s+(?:ai|assistant|model|agent)\b", 0.3),
    (
        r"\bwhen(?:ever)?\s+(?:you|the\s+(?:assistant|ai|model))\s+(?:summari[sz]e|answer|reply|respond|read|"
        r"process)|\bwhen\s+summari[sz]ing\s+this|\b(?:before|next\s+time)\s+you\s+(?:reply|answer|respond)|"
        r"\bwhen(?:ever)?\s+(?:you\s+are|you'?re)\s+asked\b",
        0.3,
    ),
    # Machine readers by kind, plural: "note for shopping assistants and price comparison bots:"; and a question
    # put to someone's AI about the writer, whose answer the text then scripts.
    (
        r"\b(?:note|message|notice|memo)\s+(?:to|for)\s+(?:all\s+|any\s+|the\s+)?(?:[\w-]+\s+){0,3}?"
        r"(?:[\w-]+\s+and\s+(?:[\w-]+\s+){0,2})?(?:bots|chatbots|ais|crawlers|llms|ai\s+(?:assistants|agents))\b|"
        r"\bask(?:s|ed)?\s+(?:an?|their|any|his|her)\s+(?:ai|chatbot|ai\s+assistant|ai\s+chatbot|voice\s+assistant)\s+"
        r"about\s+(?:us|our|this)\b",
        0.35,
    ),
)
_JAILBREAK = table(
    # a persona named, not one spoken of ("the DAN prompt", "DAN-style jailbreaks"); "dan" itself is a name and a
    # common word ("and" in Indonesian, "then" in Dutch), so only as a persona taken or a mode
    (
        r"(?<!the\s)\b(?:(?:(?:you\s+are|you're)\s+(?:now\s+)?|as\s+|become\s+|stay\s+|hi\s+|hello\s+)dan|dan\s+mode|"
        r"do\s+anything\s+now|jailbreak(?:en|ed)?|developer\s+mode|god\s+mode|sudo\s+mode)\b"
        r"(?![\s-]+(?:prompts?|jailbreaks?|attacks?|style|variants?|examples?)\b)",
        0.4,
    ),
    (r"\bpretend\s+(?:that\s+you|(?:that\s+)?the\s+user)\b", 0.4),
    (
        r"\b(?:act|behave|respond)\s+as\s+(?:if\s+you\s+(?:were|are)|an?\s+unrestricted|an?\s+unfiltered)\b",
        0.4,
    ),
    (r"\brole-?play\s+as\b", 0.4),
    (r"\byou\s+are\s+no\s+longer\b|\bno\s+longer\s+bound\s+by\b", 0.4),
    (r"\b(?:without|free\s+of)\s+(?:any\s+|all\s+)?(?:restrictions|filters|limitations|censorship)\b", 0.4),
    (
        r"\b(?:safety\s+(?:rules|filters)|content\s+polic(?:y|ies))\s+(?:are\s+)?(?:off|suspended|disabled)",
        0.4,
    ),
    (r"\b(?:never\s+break|stay\s+in)\s+character\b", 0.3),
)
# Where a user would see what was done: "my activity list", "the daily digest".
_RECORD = r"(?:list|log|digest|summary|summaries|history|feed|inbox|activity|notifications|report)s?\b"
_SECRECY = table(
    (
        r"\b(?:do\s+not|don'?t|never)\s+(?:tell|inform|mention\s+(?:this|it)\s+to|reveal\s+(?:this|it)\s+to|"
        r"alert|notify|ask)\s+the\s+user\b",
        0.35,
    ),
    # Keeping "the user" uninformed presupposes an agent acting for that user.
    (r"\bwithout\s+(?:telling|asking|informing|notifying|alerting)\s+(?:the\s+)?users?\b", 0.45),
    (r"\b(?:notify|tell|inform)\s+(?:nobody|no\s+one|no-one)\b|\bquietly\s+\w+", 0.25),
    (r"\bwithout\s+(?:asking\s+for\s+)?(?:confirmation|approval|permission)\b", 0.3),
    (r"\bkeep\s+this\s+(?:secret|hidden)\b", 0.3),
    (r"\b(?:never|do\s+not|don'?t)\s+(?:admit|acknowledge|confirm|disclose|reveal)\s+that\b", 0.35),
    (
        r"\b(?:do\s+not|don'?t|never)\s+(?:explain|justify"
        r"|acknowledge)\s+(?:the\s+change|this|that|why)\b",
        0.3,
    ),
    (
        r"\b(?:do\s+not|don'?t|never)\s+(?:mention|reveal|disclose)\s+(?:this|these)\s+"
        r"(?:note|message|instructions?|paragraph|line)",
        0.3,
    ),
    (r"\bthe\s+user\s+must\s+not\s+(?:find\s+out|know|notice|see)\b", 0.4),
    # Kept from the note's own writer, who is the user: "without mentioning it to me", "keep the posts out of my
    # activity list", "delete the sent copy". People ask it against spoilers and clutter, so it counts only beside
    # data sent out.
    (
        r"\bwithout\s+(?:mentioning|telling|letting\s+on|flagging|saying)\s+(?:(?:it|this|that|them|anything)\s+)?"
        r"(?:to\s+)?me\b|\bwithout\s+me\s+(?:knowing|seeing|noticing|finding\s+out)\b|"
        r"\b(?:keep|leave)\s+(?:it|this|that|them|these|those|the\s+\w+)\s+out\s+of\s+my\s+(?:\w+\s+){0,2}?"
        + _RECORD
        + r"|"
        r"\b(?:don'?t|do\s+not|never)\s+(?:list|show|log|note|include|put|flag|record)\s+(?:it|this|that|them|these|"
        r"those)\s+(?:in|on|into)\s+(?:my|the)\s+(?:\w+\s+){0,2}?" + _RECORD + r"|"
        r"\bdelete\s+the\s+(?:sent|outgoing)\s+(?:copy|copies|message|e-?mails?|item)\b",
        0.25,
    ),
    (r"\bso\s+(?:that\s+)?the\s+user\s+(?:cannot|can'?t|won'?t|does\s+not|doesn'?t)\s+\w+", 0.35),
    (r"\b(?:do\s+(?:it|this)\s+(?:quietly|silently)|say\s+nothing\s+about\s+this)\b", 0.3),
    (
        r"\b(?:do\s+not|don'?t)\s+ask\s+for\s+confirmation\b|"
        # not where the sentence forbids acting so: "do not let anyone in without checking their badge"
        r"(?:^|[.!?\n]\s*)(?:(?![.!?\n]|\b(?:not|never|don'?t|nobody|no\s+one|cannot|can'?t)\b).)*"
        r"\bwithout\s+(?:confirming|checking|verifying|double-checking)\b",
        0.3,
    ),
    # Tracks covered: "don't list the transfer in the weekly summary", "nothing in the activity log", "no
    # notifications to the owners' phones".
    (
        r"\b(?:do\s+not|don'?t|never)\s+(?:list|log|record|show|include|put|enter|note)\s+(?:\w+\s+){0,4}?(?:in|on|into)\s+"
        r"(?:the\s+|any\s+|their\s+|my\s+)?(?:\w+\s+)?(?:logs?|summar(?:y|ies)|statements?|reports?|history|audit|"
        r"records?|timeline)\b|\bno\s+(?:notifications?|alerts?|notices?)\s+(?:to|for|on)\s+(?:the\s+)?\w+|"
        r"\b(?:do\s+not|don'?t|never)\s+(?:notify|alert)\s+(?:the\s+)?(?:owners?|parents?|account\s+holders?)\b",
        0.35,
    ),
    # The person served, named in the third person, kept uninformed: "... without telling him", "tell her nothing".
    (
        r"\bwithout\s+(?:telling|asking|informing|notifying|alerting)\s+(?:him|her|them)\b|"
        r"\btell\s+(?:him|her|them)\s+nothing\b",
        0.25,
    ),
)
_TEMPLATE = table(
    (
        r"<\|(?:im_start|im_end|system|user|assistant|endoftext|endofprompt|start_header_id|end_header_id|"
        r"eot_id)\|>|\[/?inst\]|<</?sys>>|</?(?:system|instructions?|admin)>",
        0.55,
    ),
    # Role headers at the start of a line pretend the conversation continues inside the note; followed by a form's
    # next field ("payment: ..."), "system:" is a field of the form too (a product's system, a desk's assistant).
    (
        re.compile(
            r"(?:^|\n)\s*(?:#{2,}\s*)?(?:system|assistant)\s*:(?![^\n]*\n[ \t]*"
            r"(?!(?:system|assistant|user|human|developer|ai|bot)\s*:)[a-z][\w .()/-]{0,30}:[ \t]*\S)",
            re.MULTILINE,
        ),
        0.4,
    ),
    (re.compile(r"(?:^|\n)\s*(?:#{2,}\s*)?(?:human|user)\s*:.*\n\s*assistant\s*:", re.MULTILINE), 0.4),
    (r"###\s*(?:instruction|system(?:\s+message)?|response)\s*:?", 0.4),
    (r"\[system\]|\bbegin\s+system\s+prompt\b|\bsystem_prompt\s*=", 0.45),
    (r"[\"']role[\"']\s*:\s*[\"'](?:system|developer|admin|administrator|operator)[\"']", 0.3),
    (re.compile(r"(?:^|\n)\s*role\s*:\s*system\s*$", re.MULTILINE), 0.4),
    # A label a prompt's author writes; a ticket's "Priority: Normal" is a field, "priority: system" a claim.
    (
        re.compile(
            r"(?:^|\n|,\s)\s*(?:instruction|directive|rule_?\d*|persona|priority(?=\s*[:=]\s*(?:system|override|root|"
            r"admin\w*|developer|operator|absolute|maximum|max\b|0\b)))\s*[:=]",
            re.MULTILINE,
        ),
        0.35,
    ),
)
_AUTHORITY = table(
    # Someone claiming the right to change the model's rules: the developer, the operator, an admin, the user.
    (
        r"\b(?:message|notice|update|instruction|note|directive)s?\s+from\s+(?:the\s+|your\s+)?"
        r"(?:developers?|operators?|model\s+provider|platform(?:\s+owner)?|admin(?:istrator)?s?|creators?)",
        0.4,
    ),
    (r"\b(?:admin(?:istrator)?|operator|developer|root)\s+(?:override|mode|access|instruction)", 0.4),
    (r"\bthis\s+is\s+your\s+(?:operator|developer|creator|administrator|admin)\b", 0.45),
    (r"\b(?:as\s+(?:the\s+)?(?:administrator|admin|operator|your\s+developer))\b", 0.35),
    (
        r"\b(?:the\s+)?(?:user|customer|client|account\s+(?:owner|holder)|person\s+you\s+are\s+(?:assisting|helping))\s+(?:has\s+)?"
        r"(?:already\s+)?(?:approved|authori[sz]ed|confirmed|gave\s+permission|consented|agreed)",
        0.35,
    ),
    (r"\b(?:authori[sz]ation|permission)\s+(?:granted|given)\b|\bproceed\s+without\s+confirm", 0.35),
    (r"\bthe\s+user\s+(?:has\s+)?(?:asked|told|wants|instructed|requested)\s+you\b", 0.35),
    (
        r"\b(?:i'?m|i\s+am|we'?re|we\s+are)\s+(?:now\s+)?(?:telling|ordering|instructing|authori[sz]ing|"
        r"commanding)\s+you\s+to\b",
        0.4,
    ),
    (
        r"\bconfirmed\s+by\s+the\s+(?:user|account\s+owner)\b|\bthe\s+user\s+told\s+me\s+to\s+tell\s+you\b",
        0.4,
    ),
    (r"\b(?:highest|top)[\s-]priority\b|\bpriority\s+directive\b|\bofficial\s+update\b", 0.3),
    (
        r"\byour\s+(?:configuration|settings|persona|rules|guidelines|policy)\s+(?:was|were|has\s+been|have\s+been)\s+"
        r"(?:updated|changed|modified|replaced)",
        0.35,
    ),
    (
        r"\b(?:as\s+)?per\s+the\s+user'?s\s+(?:earlier\s+|previous\s+)?(?:request|instructions?|wishes)",
        0.35,
    ),
)
_FORMAT_TARGET = (
    r"(?:a\s+)?(?:base\s*64|hex(?:adecimal)?|rot-?13|morse(?:\s+code)?|leetspeak|leet|emojis?|binary|"
    r"reverse(?:d)?\s+text|pirate\s+speak|all\s+caps|capital\s+letters|latin|a\s+haiku|haikus?|json(?:\s+object)?)"
)
_EVERY_REPLY = (
    r"(?:(?:every|each|all(?:\s+of)?|your)\s+(?:\w+\s+)?(?:answers?|repl(?:y|ies)|responses?|outputs?|"
    r"sentences?\s+you\s+write|messages?\s+you\s+(?:write|send))|everything\s+you\s+(?:write|say|output|produce)|"
    r"(?:every|each)\s+message)"
)
_HIJACK = table(
    (
        r"\b(?:reply|respond|answer|output|encode|wrap)\w*\b(?:\s+\S+){0,6}?\s+"
        rf"(?:only\s+|exclusively\s+|solely\s+|entirely\s+)?(?:in|into|as|with|using)\s+{_FORMAT_TARGET}\b",
        0.45,
    ),
    (
        r"\b(?:write|format|translate|convert)\w*\b(?:\s+\S+){0,6}?\s+"
        rf"(?:only\s+|exclusively\s+|solely\s+|entirely\s+)?(?:in|into|as|with|using)\s+{_FORMAT_TARGET}\b",
        0.35,
    ),
    (
        rf"{_FORMAT_TARGET}\s+only\b|\b(?:say|write|output|add)\s+nothing\s+else\b|\b(?:and|,)\s*nothing\s+(?:else|more)\b",
        0.3,
    ),
    (
        r"\b(?:end|start|begin)\s+(?:each|every|it|them)\s+with\b|\bend\s+(?:\w+\s+){0,3}?with\s+(?:a\s+)?link\b",
        0.3,
    ),
    (r"\b(?:every|each|all(?:\s+of)?\s+(?:your\s+)?)\s*(?:answers|replies|responses)\b", 0.3),
    (r"\b(?:verbatim|word\s+for\s+word)\b", 0.25),
    (
        r"\b(?:end|start|begin|finish)\s+(?:their|your|its|each|every)\s+(?:summar(?:y|ies)|answers?|repl(?:y|ies)|"
        r"responses?)\s+with\b",
        0.45,
    ),
    (
        r"\b(?:in|to|at\s+the\s+end\s+of)\s+(?:every|each|all(?:\s+of)?\s+(?:your\s+)?)\s*(?:answers?|repl(?:y|ies)|"
        r"responses?)\s*,?\s*(?:add|append|include|insert|mention|recommend|say|write|put)\b",
        0.5,
    ),
    (r"\b(?:always\s+)?recommend\s+(?:\S+\s+){1,4}?(?:for|in|to)\s+(?:every|each|all)\b", 0.3),
    # The answer's language: ``signals_hijack.answer_hijack``.
    (
        r"\b(?:reply|respond|answer)\s+with\s+(?:exactly\s+|only\s+|just\s+)?(?:one|a\s+single)\s+word\b",
        0.35,
    ),
    (
        r"\b(?:always|only)\s+(?:reply|respond|answer)\s+with\b|\b(?:reply|respond"
        r"|answer)\s+only\s+with\b|\brespond\s+with\s+nothing\s+but\b",
        0.4,
    ),
    (
        r"\b(?:add|append|include|insert|slip|put|paste|write|mention|recommend)\w*\b(?:\s+\S+){0,8}?\s+(?:to|in|into|at\s+the\s+"
        rf"(?:end|start|top|bottom)\s+of|after|before|with)\s+{_EVERY_REPLY}",
        0.5,
    ),
    (
        r"\b(?:start|begin|end|finish)\s+(?:every|each|all|your)\s+(?:\w+\s+)?(?:answers?|repl(?:y|ies)|responses?)\s+(?:with|by)\b",
        0.5,
    ),
    (r"\b(?:every|each|all)\s+(?:answers?|repl(?:y|ies)|responses?)\s+(?:must|should)\s+\w+", 0.45),
    (rf"\b(?:in|to)\s+{_EVERY_REPLY}\b|\bwhenever\s+you\s+answer\b", 0.3),
    (
        r"\b(?:sentence|phrase|line|remark|mention|link|note|word)\s+(?:\S+\s+){0,3}?(?:promoting|recommending|"
        r"advertising|praising)\b|\b(?:sponsored|powered|brought\s+to\s+you)\s+by\b|\bexclusive\s+deals\b",
        0.3,
    ),
    (
        r"\b(?:print|output|repeat|reveal|show|list|dump|disclose)\b(?:\s+\S+){0,4}?\s+(?:(?:your\s+)?(?:full\s+|"
        r"entire\s+)?system\s+prompt|(?:the\s+)?(?:hidden\s+|secret\s+)?instructions\s+you\s+(?:were|have\s+been)\s+"
        r"given|the\s+text\s+above|everything\s+above|all\s+(?:the\s+)?memories)",
        0.45,
    ),
    (
        r"\b(?:reply|respond|answer)\w*\s+(?:to\s+)?(?:every|each|all)\s+(?:\w+\s+)?(?:questions?|messages?)\b",
        0.3,
    ),
)
_PERSIST = re.compile(
    r"\b(?:from\s+now\s+on|from\s+(?:this|that)\s+moment(?:\s+on)?|from\s+here\s+on|from\s+this\s+point\s+on|starting\s+now|going\s+forward|for\s+the\s+rest\s+of\s+"
    r"(?:this|the)\s+(?:chat|conversation|session)|no\s+matter\s+what(?:\s+is\s+asked|\s+the\s+user)?|"
    r"even\s+if\s+the\s+user|whatever\s+you\s+answer|no\s+matter\s+(?:its|their|the)\s+\w+|whatever\s+(?:the\s+)?(?:user|person|reader|customer)\s+"
    r"(?:asks|says|wants|writes)|whatever\s+(?:the\s+)?[\w\s]{1,30}?\s+(?:says|shows|states)|keep\s+(?:recommending|saying|mentioning|promoting|insisting)|every\s+message|"
    r"every\s+time\s+you\s+(?:read|see|process)\s+this|always\s+(?:reply|respond|answer|end|start|include|add|"
    r"recommend|mention))\b"
)
_THE_USER = table(
    # The model's view of the person it serves: "tell the user", "the user's files".
    (
        r"\b(?:tell|inform|convince|advise|remind|warn|assure)"
        r"\s+(?:the\s+)?(?:user|reader|customer)s?\b",
        0.3,
    ),
    (r"\b(?:respond|reply|answer|lie|explain)\s+to\s+the\s+(?:user|reader)s?\b(?!'|\s+(?:id|name)\b)", 0.3),
    (
        r"\bthe\s+user'?s\s+(?:\w+\s+){0,2}?(?:files?|documents?|emails?|address(?:es)?|passwords?|contacts?|"
        r"calendar|data|history|location|card|notes|messages|phone|account|name|passport|conversation|"
        r"folder|details)\b",
        0.3,
    ),
    (r"\bwhatever\s+(?:\w+\s+)?the\s+user\s+(?:asks|writes|says|wants)\b", 0.3),
    (r"\b(?:address|call|refer\s+to)\s+the\s+user\s+as\b", 0.3),
    (r"\b(?:insist|claim|pretend)\s+that\b|\bsay\s+that\s+(?:the|this|their|your)\b", 0.2),
    (
        r"\b(?:the\s+(?:person|human|people|one)|whoever)\s+(?:you\s+are|you'?re)\s+(?:helping|assisting|talking\s+to|"
        r"chatting\s+with|serving)\b",
        0.35,
    ),
)


def standing_rule(text: str) -> Finding | None:
    """A rule set for every reply from now on: "from now on", "always include", "for the rest of this chat"."""
    found = [m.group(0) for m in _PERSIST.finditer(text)]
    return (noisy_or((0.25, *(0.125 for _ in found[1:]))), found[0]) if found else None


SIGNALS_EN = (
    Signal("override of earlier instructions", patterns(_OVERRIDE)),
    Signal("chat-template tokens", patterns(_TEMPLATE), in_roles=True),
    Signal("role-play or jailbreak marker", patterns(_JAILBREAK)),
    Signal("secrecy from the user", patterns(_SECRECY)),
    Signal("addressed to the assistant", patterns(_ADDRESSED), in_roles=True),
    Signal("claimed authority over the model", patterns(_AUTHORITY)),
    Signal("output-format hijack", patterns(_HIJACK), in_roles=True),
    Signal("a standing rule for every reply", standing_rule, in_roles=True),
    Signal("speaks of the user in the third person", patterns(_THE_USER), in_roles=True),
    Signal("action with urgency or a sensitive object", urgent_action),
    Signal("data sent to a named address or tool", exfiltration),
    Signal("reference to the model's instructions", patterns(_REFERENCE), in_roles=True),
    Signal("a series of imperatives", imperatives, in_roles=True),
    Signal("a sleeper clause: as usual until a trigger", sleeper_clause),
    *SIGNALS_SHAPE,
    *SIGNALS_COMBINED,
    *SIGNALS_ADDRESS,
    *SIGNALS_HIJACK,
    *SIGNALS_STEER,
)
