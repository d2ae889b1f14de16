"""(internal) Frames that change what signals mean: an operator's role description, attacks quoted in a discussion.

A **role description** is how a system prompt or a core-memory persona block reads: "You are Juniper, the
booking assistant of a hotel. Be brief, answer in Dutch, collect the guest's name." It addresses the assistant,
orders its answers and speaks of the user, which is what planted orders do too; what it lacks is what a hijacker
adds: an identity *switched* ("you are now", "forget who you are"), freedom from rules, a hidden goal or a
secret, loyalty to someone other than the person served, work against that person, secrecy, or any signal
that is not in an ordinary role (an override, data sent out, card details asked for, a claim of authority).
In a role description without any of these, the signals an operator's role also fires (``Signal.in_roles``)
do not count; every other signal counts as always.

A **discussion that quotes attacks** ("OWASP lists prompt injection; examples include 'disregard prior
instructions'") holds the words of an order inside quotation marks, with talk about attacks, tests or stories
around them. What the text says outside its quotes is scored as usual; what only its quotes say flags it, never
quarantines it, since quoting an order to a reader is not giving one. Source code is such a frame too: its string
literals are data (a test's attack string, a prompt template), its comments are scored as usual. A text that
names attacks as its topic ("prompt injection", "the attacker's payload") and speaks to no one outside its quotes
(no "you", no machine reader addressed) is reported speech about orders, and flags at most as well.

Both frames also bound the sentence-embedding classifier, which sees neither a role nor quotation marks
(``InjectionVerdict.ceiling``).
"""

from __future__ import annotations

import re

from tiermem.trust.imperative import opens_with_order

__all__ = [
    "AT_MOST_FLAGGED",
    "FRAMED_CEILING",
    "addresses_reader",
    "code_frame",
    "hijack_marker",
    "hostile_role",
    "names_attacks",
    "quoted_discussion",
    "role_frame",
    "without_quotes",
]

FRAMED_CEILING = 0.3
"""The highest score what only a frame's quotes say, or the classifier on a framed text, may give: flagged."""
AT_MOST_FLAGGED = "at most flagged"
"""How a frame's reason ends, so that the classifier's verdict can read it back from a stored note's reasons."""

_ROLE_NOUN = (
    r"(?:assistant|agent|bot|chatbot|tutor|guide|concierge|helper|adviser|advisor|mentor|coach|companion|"
    r"receptionist|representative|rep|specialist|expert|teacher|instructor|translator|interpreter|editor|"
    r"reviewer|planner|librarian|host|hostess|narrator|dungeon\s+master|game\s+master|writer|copywriter|"
    r"analyst|consultant|researcher|clerk|operator|navigator|model|ai|persona|character|voice|support)"
)
# "You are Juniper, the booking assistant of ...", "You're a patient maths tutor", "Persona: Ranger Bea, a guide",
# 'SYSTEM_PROMPT = "You are ..."', '{"role": "system", "content": "..."}'
_ROLE_OPENING = re.compile(
    r"(?:^|\n)[\W_]{0,6}(?:(?:system\s+)?(?:persona|role|prompt|profile|character(?:\s+card)?|bio)\s*[:=-]"
    r"(?!\s*(?:system|user|assistant|developer|admin|tool)\b)|"
    r"you(?:'re|\s+are)\s+(?!now\b|no\s+longer\b|not\b)(?:\S+\s+){0,6}?" + _ROLE_NOUN + r"s?\b|"
    r"as\s+(?:the|a|an|our)\s+(?:[\w-]+\s+){0,3}?" + _ROLE_NOUN + r"(?:\s+(?:of|for|at)(?:\s+[\w'-]+){1,5})?,\s+you\b|"
    # A name and what it is: "You are Nova, an interview partner", "I am Bramble, a cooking helper", "Your name is Pip."
    r"(?:you(?:'re|\s+are)|i(?:'m|\s+am))\s+(?!now\b)[\w-]+,\s+(?:a|an|the|your|our)\s+|"
    r"your\s+name\s+is\s+(?!now\b)[\w-]+[.,;]|"
    # A role to take on: "Act as a calm museum guide", "Behave like a friendly partner", "Play the role of a coach"
    r"(?:act|behave|respond|speak|write)\s+(?:as|like)\s+(?:a|an|the|my|our)\s+|play\s+the\s+(?:role|part)\s+of\s+|"
    # Said of the assistant: "This assistant answers questions about ...", "The bot helps ..."
    # (not "the assistant must/is required to": how a planted order speaks of its reader)
    r"(?:this|our)\s+" + _ROLE_NOUN + r"\s+(?:answers|helps|handles|supports|assists|works|speaks|guides|explains)\b)|"
    r"(?:^|\n)[\W_]{0,6}(?:system\s+)?(?:prompt|persona|instructions?)\s+(?:for|of)\s+(?:[\w'-]+\s+){0,5}?[\w'-]+\s*:|"
    r"\b(?:system_?prompt|persona|instructions)\s*=\s*(?:\(\s*)?[frbu]?[\"']{1,3}|"
    r"[\"']role[\"']\s*:\s*[\"']system[\"']"
)
_OPENING_CHARS = 300  # a role description says what it is at its start

# What a hijacker adds to a role: each makes the text no role description.
_SWITCHED = (
    r"\byou(?:'re|\s+are)\s+(?:now|no\s+longer)\b|\bfrom\s+(?:now|here|this\s+point)\s+on\b|\bnew\s+(?:persona|"
    r"identity|role|name)\b|\b(?:forget|drop|abandon|discard|shed|leave\s+behind|replace)\s+(?:who\s+you\s+are|(?:your|the)\s+"
    r"(?:\w+\s+){0,2}?(?:role|persona|identity|self|character|rules|instructions|guidelines))\b|\brole\s+update\b|"
    r"\b(?:enter|switch\s+(?:in)?to|activate|unlock)\s+[\"']?[\w-]+[\"']?\s+mode\b|\bpersona\s+is\s+now\b|"
    r"\byou\s+will\s+now\s+(?:be|act|play|become)\b|\binstructions\s+have\s+changed\b"
)
_UNBOUND = (
    r"\b(?:no|without|free\s+(?:of|from)|freed\s+from|unbound\s+by|not\s+bound\s+by|ignores?|hates?)\s+(?:any\s+|all\s+|"
    r"the\s+|its\s+|your\s+)?(?:usual\s+|normal\s+|legal\s+|safety\s+|content\s+)?(?:rules?|restrictions?|limits?|"
    r"limitations?|filters?|polic(?:y|ies)|guidelines?|censorship|ethics|morals?|disclaimers?|warnings?)\b|"
    r"\b(?:unfiltered|unrestricted|uncensored|unchained|jailbroken|amoral|rogue)\b|\b(?:with|has|have|given|granted)\s+"
    r"(?:elevated\s+privileges?|(?:domain-|super-?)?admin(?:istrator)?\s+(?:rights|access|privileges?))\b|\b(?:never|does\s+not|doesn'?t|do\s+not|don'?t|won'?t)\s+refuse\b|"
    r"\bonly\s+rule\b"
)
_HIDDEN_GOAL = (
    r"\b(?:hidden|secret|real|true|actual|covert|private)\s+(?:goal|agenda|purpose|objective|mission|loyalty|"
    r"employer|master|boss|owner|task|aim|instructions?|orders?)\b|(?:^|\n)\s*secret\s*:|"
    # "secretly" of a goal, not of a character's feelings ("a troll who secretly loves knitting")
    r"\bsecretly\b(?!\s+(?:loves?|likes?|adores?|enjoys?|fears?|dreams?|hopes?|wishes|longs?|misses|admires?|prefers?|"
    r"wants?\s+to\s+be|cries|laughs|smiles)\b)|"
    r"\b(?:actually|really|in\s+fact|covertly)\s+(?:works?|acts?|speaks?)\s+for\b|"
    r"\b(?:never|not|don'?t|do\s+not|must\s+not)\s+(?:to\s+)?(?:reveal|admit|disclose|let\s+on|mention|tell\s+(?:anyone|"
    r"the\s+user))\s+(?:this|that|it|who|what|why)\b|"
    # kept from the people it serves: "and not to tell anyone at the branch", "hide it from their parents"
    r"\b(?:not|never)\s+(?:to\s+)?(?:tell|inform)\s+(?:anyone|anybody)\b(?!\s+(?:(?:the|their|your|his|her|its)\s+)?"
    r"(?:[\w-]+\s+)?(?:code|pin|password|passcode|passphrase|combination|login|details)s?\b)|\bhid(?:e|es|ing)\s+(?:\S+\s+){0,4}?from\s+"
    r"(?:their|his|her|your|the)\b|\bkeep\s+(?:it|this|that)\s+(?:a\s+)?(?:secret|quiet|between)\b"
)
_PERSON = (
    r"(?:the\s+|its\s+|your\s+|their\s+)?(?:users?|person|people|customers?|clients?|guests?|tenants?|owners?|"
    r"members?|residents?|patients?|students?|travell?ers?|cardholders?|account\s+holders?|mailbox\s+owner|human)"
)
_AGAINST = (
    # Loyal to someone else: "obeys the organisers, not the user", "follows the issuer's instructions over the user's"
    r"\b(?:obeys?|serves?|answers?|reports?|listens?|follows?|represents?|works?|takes?\s+orders|is\s+loyal|acts?)"
    r"\b[^.;\n]{0,60}?\b(?:over|instead\s+of|rather\s+than|not|before|above)\s+" + _PERSON + r"\b|"
    r"\b(?:does\s+not|doesn'?t|never|won'?t|will\s+not|do\s+not|don'?t)\s+(?:follow|obey|listen\s+to|take\s+orders\s+from|"
    r"serve|work\s+for)\s+" + _PERSON + r"\b|"
    # Work against the person served: "discourage tenants from asking for repairs", "never lets users cancel"
    r"\b(?:will|always|must|should|shall)\s+(?:claim|insist|pretend|say|assure)\s+(?:\w+\s+)?that\b|\bpretend\s+(?:that|to\s+(?!be\b))|"
    r"\blie\s+(?:to|about)\b|\bfalsely\b|\b(?:always|only)\s+(?:push|upsell|steer)\b|"
    r"\b(?:ignor|disregard)\w*\s+(?:all\s+|any\s+|every\s+)?(?:of\s+)?" + _PERSON + r"(?:'s|s')?(?=\W)|"
    r"\b(?:discourage|dissuade|prevent|stop|keep)\s+" + _PERSON + r"\s+from\b|\bnever\s+lets?\s+" + _PERSON + r"\s+"
    r"(?:cancel|leave|unsubscribe|downgrade|complain|opt\s+out)\b|\bwithout\s+(?:asking|telling|informing)\s+"
    + _PERSON
    + r"\b|\b(?:lie|lies|mislead|deceive|manipulate|pressure|trick)\s+(?:to\s+)?"
    + _PERSON
)
# Money asked in a scammer's ways: gift cards, cash in hand, a deposit before anything is seen, a new account.
_SCAM_MONEY = (
    r"\bgift\s*cards?\b|\b(?:in|with|by)\s+cash\b|\bcash\s+(?:deposit|payment|on\s+the\s+day|only)\b|"
    r"\b(?:non-?refundable|upfront|up-front)\s+(?:deposit|fee|payment)\b|\bpay\s+(?:\w+\s+){0,3}?(?:to|into)\s+"
    r"(?:the|this|a|my|our)\s+(?:new\s+)?account\b|\bwire\s+(?:[$£€]|\d)"
)
# A role scripted to mislead the people it serves: what it tells them ("tells parents that ...", "advise clients
# that ...") waves a safeguard away, promises a return, changes a treatment, sends money to a person or asks for
# secrecy. An operator's role tells people what is so ("tell callers to ring 000 in an emergency").
_AUDIENCE = (
    r"(?:the\s+)?(?:users?|customers?|clients?|parents?|members?|buyers?|residents?|patients?|learners?|students?|"
    r"beginners?|(?:new\s+)?owners?|readers?|guests?|tenants?|drivers?|walkers?|players?|couples?|people|anyone|"
    r"children|kids|pupils|teenagers|teens|victims|fans|followers|viewers|novices|homeowners|pensioners|staff|"
    r"employees|workers|mothers|fathers|mums|moms|dads|women|men|girls|boys|adults|seniors|retirees|hosts|runners|"
    r"hikers|riders|swimmers|athletes|dancers|first-timers|"
    r"everyone|callers?|visitors?|families|investors?|applicants?|shoppers?|them)"
)
# What a character is scripted to say: told to an audience, even a described one ("tells worried parents"), or
# held as its own belief ("reckons", "thinks").
_TOLD = (
    r"\b(?:(?:tells?|telling|says?|advises?|reassures?|assures?|recommends?|informs?|reminds?|insists?|promises?|"
    r"encourages?|explains?|warns?|urges?)\s+(?:[\w-]+\s+){0,2}?"
    + _AUDIENCE
    + r"\b|(?:thinks|reckons|believes|swears|says|claims|calls)\b)"
)
_KIN = r"(?:spouse|partner|wife|husband|parents?|mum|mom|dad|family|doctor|gp|bank|teacher|school|carer)"
_SAFEGUARD = (
    r"(?:checks?|tests?|testing|surveys?|inspections?|warnings?|alerts?|licen[cs]es?|helmets?|life\s?jackets?|"
    r"seat\s?belts?|car\s+seats?|armbands|supervision|an?\s+adult|adults|doctors?|gps?|vets?|prescri(?:ptions?|bers?)|plates|"
    r"certificates?|insurance|receipts?|references?|smoke\s+alarms?|goggles|gloves|(?:safety|medical|legal)\s+\w+)"
)
_DET = r"(?:(?:the|a|an|any|their|your|his|her|its)\s+)?(?:real\s+|proper\s+)?"
_NOT_NEGATED = r"(?<!never\s)(?<!\bnot\s)(?<!never\sto\s)(?<!\bnot\sto\s)(?<!don't\s)"
_MISLED = "|".join(
    (
        # a safeguard waved away
        r"\bwaste\s+of\s+(?:time|money)\b|\b(?:money|time)\s+wasted\b",
        r"\b" + _SAFEGUARD + r"(?:\s+[\w-]+){0,4}?\s+(?:is|are)\s+(?:only\s+|just\s+|all\s+)?(?:optional|unnecessary|"
        r"pointless|over-?cautious|overrated|exaggerated|a\s+myth|for\s+show|(?:not|never)\s+(?:needed|necessary|required))\b",
        _NOT_NEGATED + r"\b(?:skip|without|no\s+need\s+for)\s+" + _DET + _SAFEGUARD + r"\b",
        r"\b(?:no\s+need\s+to|(?:don't|do\s+not|doesn't|does\s+not|never)\s+need\s+to)\s+(?:see|check\s+with|speak\s+to|"
        r"talk\s+to|visit|ask|call|ring|get|have|wear|use|book|do|follow|read)\s+" + _DET + _SAFEGUARD + r"\b",
        r"\b(?:don't|do\s+not|doesn't|does\s+not|never)\s+need\s+" + _DET + _SAFEGUARD + r"\b",
        # a safeguard belittled: "lifejackets are for tourists", "mocks anyone worried", "never mentions a doctor"
        r"\b(?:is|are)\s+(?:only\s+|just\s+|all\s+)?(?:for\s+(?:tourists|wimps|amateurs|show)|a\s+(?:racket|con|crutch)|"
        r"gimmicks?|overblown|overkill|scaremongering|fussing|(?:a\s+)?fuss\s+about\s+nothing|paranoia|hype)\b",
        r"\b(?:mocks?|mocking|laughs?\s+at|dismiss(?:es|ing)?|scoffs?\s+at|sneers?\s+at|brush(?:es)?\s+off|waves?\s+away|"
        r"distrusts?)\s+(?:[\w'-]+\s+){0,3}?(?:advice|guidance|safety|hygiene|experts?|worried|concerns?|professionals?|"
        r"rules|" + _SAFEGUARD + r")\b",
        r"\b(?:a\s+crutch|a\s+racket|a\s+con|the\s+enemy)\b",
        r"\b(?:calling|phoning|ringing)\s+(?:999|911|111|112|an?\s+ambulance|a\s+doctor|the\s+doctor)\s+(?:is|would\s+be)\s+"
        r"(?:overreacting|unnecessary|a\s+fuss)\b|\b(?:ambulances?|doctors?|hospitals?)\s+only\s+(?:frighten|scare|worry)",
        r"\b(?:don't|do\s+not|never|doesn't|does\s+not)\s+need\s+to\s+know\b",
        # a return promised
        r"\bguarantee[ds]?\s+(?:to\s+)?(?:return|returns|profits?|income|growth|\d+\s*%)|\bcan(?:'t|not)\s+lose\b|"
        r"\brisk-?free\b|\bcan\s+only\s+go\s+up\b|\b(?:carry|carries|has|have)\s+no\s+risk\b",
        # money to a person
        r"\b(?:my|his|her)\s+(?:own\s+|personal\s+|private\s+)(?:bank\s+)?account\b|\bpaid\s+to\s+(?:me|him|her)\b|"
        r"\bcash\s+to\s+(?:me|him|her)\b",
        # secrecy, and the people who would object discredited
        r"\bkeep\s+(?:it|this|that)\s+(?:a\s+)?secret\s+from\b",
        r"\b(?:not\s+to|never|don't|do\s+not)\s+(?:tell|discuss|mention|show)\s+(?:\w+\s+){0,2}?(?:with|to)\s+(?:their|"
        r"your|his|her|the)\s+" + _KIN + r"\b",
        r"\bwithout\s+telling\s+(?:their|your|his|her|the)\s+" + _KIN + r"\b",
        r"\b(?:doctors?|gps?|vets?|pharmacists?|midwives|dentists?)\s+(?:are\s+not\s+trained|aren't\s+trained|exaggerate|"
        r"know\s+nothing|just\s+want)\b",
        # a treatment changed
        _NOT_NEGATED + r"\b(?:stop|stopping|double|doubling|halve|halving|replace|replacing)\s+(?:[\w-]+\s+){0,3}?"
        r"(?:tablets|medication|medicines?|insulin|doses?|pills|inhalers?|antibiotics|prescriptions?)\b",
    )
)
_MISLEADS = _TOLD + r"[^\n]{0,300}?(?:" + _MISLED + r")"
# Help kept from the people it serves: a role that "never mentions a doctor" or "never suggests calling 999".
_WITHHELD = (
    r"\bnever\s+(?:mentions?|suggests?|recommends?)\s+(?:[\w-]+\s+){0,2}?(?:doctors?|gps?|calling|phoning|ringing|999|"
    r"911|111|112|ambulances?|vets?|side\s+effects|risks?)\b"
)
_MARKERS = re.compile("|".join((_SWITCHED, _UNBOUND, _HIDDEN_GOAL, _AGAINST, _SCAM_MONEY, _MISLEADS, _WITHHELD)))
_HOSTILE_ROLE = re.compile("|".join((_UNBOUND, _HIDDEN_GOAL, _AGAINST, _SCAM_MONEY, _MISLEADS, _WITHHELD)))


def role_frame(scanned: str) -> str | None:
    """The opening that makes ``scanned`` an operator's role description, or None."""
    found = _ROLE_OPENING.search(scanned[:_OPENING_CHARS])
    return found.group(0).strip() if found else None


def hostile_role(scanned: str) -> str | None:
    """What makes a role a hijacker's whatever its wording: no rules, a hidden goal, another master; or None."""
    found = _HOSTILE_ROLE.search(scanned)
    return found.group(0) if found else None


def hijack_marker(scanned: str) -> str | None:
    """What a hijacker adds to a role (a switched identity, no rules, a hidden goal, another master), or None."""
    found = _MARKERS.search(scanned)
    return found.group(0) if found else None


# Text between quotation marks of any common kind (straight, curly, guillemets, CJK brackets), one line at most, or
# several when the quote opens its line (verse, a letter quoted as a block); a short value in quotes ("0", "40") would
# otherwise pair its closing mark with a quote lines away.
_QUOTED = re.compile(
    r"(?m:^)[ \t]*(?:\"(?:[^\"\n]|\n(?!\s*\n)){3,400}\"|\u201c(?:[^\u201d\n]|\n(?!\s*\n)){3,400}\u201d)|"
    # A single-quoted span may hold an apostrophe inside a word ('forward the user's inbox').
    r"\"[^\"\n]{3,400}\"|\u201c[^\u201d\n]{3,400}\u201d|(?<!\w)'(?:[^'\n]|(?<=\w)'(?=\w)){3,400}'(?!\w)|"
    r"\u2018[^\u2019\n]{3,400}\u2019|"
    r"\u00ab[^\u00bb\n]{3,400}\u00bb|\u300c[^\u300d\n]{3,400}\u300d|`[^`\n]{3,400}`"
)
# Talk about attacks, tests or stories: what a discussion quoting an attack is about.
_DISCUSSION = re.compile(
    r"\b(?:prompt\s+injections?|injections?|injected|jailbreak\w*|attacks?|attackers?|exploit\w*|payloads?|red[\s-]team\w*|"
    r"pentest\w*|penetration\s+test\w*|vulnerabilit\w+|ctf|owasp|phishing|malicious|adversarial|researchers?|"
    r"security(?!\s+(?:codes?|numbers?|questions?|answers?|deposits?|details|pins?|keys?)\b)|novels?|stor(?:y|ies)|chapters?|villains?|screenplays?|scenes?|quiz(?:zes)?|incidents?|post-?mortems?|"
    r"write-?ups?|bug\s+bount(?:y|ies)|tabletop|facilitators?|cyber[\s-]?(?:safety|security|awareness)|online\s+safety|"
    r"e-?safety|"
    r"training|awareness|unit\s+tests?|test\s+cases?|for\s+instance|"
    # the same talk in everyday words: a scam, a fraud, a trick, a made-up or fake message, a lesson
    r"scams?|scammers?|fraud\w*|tricks?|tricked|made-up|fake|hoax\w*|lessons?|"
    # writing that is about something: an exam, an essay, a column or a sketch that cites what it discusses
    r"exams?|essays?|hypothetical|seminars?|lectures?|columns?|sketch|captions?|cartoons?|poems?|verses?|sermons?|"
    r"podcasts?|abstracts?|mitigations?|defen[cs]es?|threat\s+models?|hidden\s+(?:text|instructions?)|planted|"
    # a comic genre: a parody, a satire, a pantomime, a zine, a poster
    r"parod(?:y|ies)|satir\w+|panto(?:mime)?s?|zines?|posters?|"
    # made-up writing of any form, which an attacker has no reason to call their order: a joke, a haiku, an opera
    r"(?:web)?comics?|comed(?:y|ies)|sitcoms?|skits?|sketches|jokes?|spoofs?|memes?|haikus?|limericks?|rhymes?|riddles?|"
    r"fables?|fairy\s+tales?|operas?|librett(?:o|os|i)|musicals?|ballads?|songs?|lyrics|monologues?|dialogues?|"
    r"crosswords?|puzzles?|(?:board|card)\s+games?|mock[\s-]+\w+)\b|"
    # Examples given, not a sample's label: "for example", "examples include", not "(example)" or "shop.example".
    r"\b(?:for|an|one|another|as\s+an)\s+example\b|\bexamples?\s*(?::|include|of|like|such\s+as)|\be\.g\.|"
    # A story's dialogue, a quote followed by who said it ("...," she whispered): what a character says. An order
    # *introduced* by a speaker ('The admin says: "..."') is how planted text passes itself off, so it does not count.
    r"\u2026[,.!?]?\s+(?:[\w-]+\s+){0,3}?(?:said|whispered|muttered|murmured|shouted|yelled|replied|asked|sighed|"
    r"laughed|grinned|exclaimed|snapped|typed|hissed|breathed)\b"
)


# Naming the attack as a topic, which an attacker has no reason to do: "prompt injection", "the attacker's payload".
_ATTACKS_NAMED = re.compile(
    r"\b(?:prompt[\s-]+injections?|injection\s+attacks?|jailbreak\w*|attackers?|red[\s-]team\w*|bug\s+bounty|owasp|"
    r"payloads?|adversarial|malicious\s+(?:prompts?|text|instructions?|inputs?|content)|security\s+(?:training|awareness|"
    r"quiz|exercise|module|course|review|team\s+channel)|phishing\s+(?:test|simulation|training)|incident\s+"
    r"(?:report|write-?up|review|summary)|post-?mortem)\b"
)
# The reader addressed: "you", "your", or a machine reader named as the one spoken to ("Assistant, ...", "AI:",
# "to any AI reading this", "dear model").
_READER = r"(?:ai|a\.i\.|assistant|model|bot|chatbot|llm|agent|summari[sz]er|copilot|gpt|claude)s?"
_ADDRESSED = re.compile(
    r"\b(?:you|your|yours|yourself|you're|you'll)\b|(?:^|\n|[.!?;]\s|[\[(\-]\s?)(?:dear\s+|hey\s+|hi\s+|attention\s+)?"
    r"(?:the\s+|any\s+)?"
    + _READER
    + r"\s*[:,]|\b(?:to|for)\s+(?:the|any|every|all)\s+(?:\w+\s+)?"
    + _READER
    + r"\s+(?:reading|processing|summari[sz]ing|handling|that\s+reads)\b|\bdear\s+"
    + _READER
    + r"\b"
)
# Lines that are source code: a statement's end or start, a decorator, a comment marker.
_CODE_LINE = re.compile(
    r"^\s*(?:(?:def|class|function|const|let|var|import|return|assert|async|await|public|private|protected|static|"
    r"elif|else|try|except|raise|throw|print|console\.log)\b|from\s+\S+\s+import\b|[@#]\w+|//|/\*|\*\s|[{}]\s*$|"
    r"(?:expect|test|it|describe|assert\w*)\s*\()|(?:[;{]|\):|=>\s*\{?)\s*$|"
    # a call's result assigned, or a method called as a statement: "fd = os.open(...)", "os.close(fd)"
    r"^\s*[a-z_][\w.]*\s*=\s*[\w.]+\(|^\s*[a-z_]\w*(?:\.\w+)+\(.*\)\s*$"
)
_CODE_LINES = 3  # a note with this many code-shaped lines is code (a fenced block counts whole)


def names_attacks(scanned: str) -> bool:
    """Whether ``scanned`` names attacks as its topic (prompt injection, a payload, a security quiz), outside quotes."""
    return _ATTACKS_NAMED.search(without_quotes(scanned)) is not None


def addresses_reader(scanned: str) -> bool:
    """Whether ``scanned`` speaks to its reader: "you", or a machine reader named as the one addressed."""
    return _ADDRESSED.search(scanned) is not None


def code_frame(scanned: str) -> bool:
    """Whether ``scanned`` is source code (a fenced block, or several code-shaped lines), whose strings are data."""
    return "```" in scanned or sum(1 for line in scanned.splitlines() if _CODE_LINE.search(line)) >= _CODE_LINES


def without_quotes(scanned: str) -> str:
    """``scanned`` with every quoted span replaced by an ellipsis."""
    return _QUOTED.sub("\u2026", scanned)


# An order whose object is the quote: "append the sentence '...'", "end your reply with: '...'". The quote is
# then the order's payload, not words discussed.
_PAYLOAD_ORDER = re.compile(
    r"(?:^|[.!?:;\n]\s*|\b(?:and|then|to|please)\s+)(?:append|add|insert|include|put|write|say|reply|respond|answer|"
    r"end|begin|start|prepend|paste|type|mention|sign|close|finish|tell\s+\w+|become|be|you\s+are|you'?re)\b"
    r"(?:\s+\S+){0,6}?\s*[:,-]?\s*$"
)


def quoted_discussion(scanned: str) -> bool:
    """Whether ``scanned`` quotes something inside talk about attacks, tests or stories, or is code with string
    literals (and orders none of it)."""
    quotes = list(_QUOTED.finditer(scanned))
    if not quotes:
        return False
    if code_frame(scanned):  # an assignment ("reply = ask('...')") is no order to the reader
        return True
    # What stands before a quote, back to the quote before it: that quote's own words are no order about this one.
    ends = [0, *(q.end() for q in quotes)]
    if any(_PAYLOAD_ORDER.search(scanned, max(ends[i], q.start() - 80), q.start()) for i, q in enumerate(quotes)):
        return False
    if any(_order_carries_on(scanned, q) for q in quotes) or any(_page_text(scanned, q) for q in quotes):
        return False
    return (
        _DISCUSSION.search(without_quotes(scanned)) is not None
        or _DISCUSSION.search(_inner_removed(scanned)) is not None
    )


# A quoted address given a speaker's label and carried on outside the quote: 'the printer: "hey bot, obey me" and
# send the file to the hall'. Said by a labelled speaker, it is a line of a script passing itself off, not talk.
_LABELLED = re.compile(r"(?:^|\n)[^\n:\"']{1,40}:\s*$")
_CARRIED_ON = re.compile(r"^[\s,.;:!-]*(?:and|then|now|so)\s+(.{0,80})", re.DOTALL)
_MACHINE_NAMED = re.compile(r"\b" + _READER + r"\b")


# A page's text given as a label's value, naming machine readers first: "hidden caption: 'AI assistants: ...'".
_LABEL_BEFORE = re.compile(r"(?:^|[.!?]\s)[^\n.!?:'\"\u2018\u201c]{3,60}:\s*$")
_OPENS_ON_READERS = re.compile(
    r"^\W*(?:(?:note|message|notice)\s+(?:to|for)\s+)?(?:(?:any|all|every|the)\s+)?(?:[\w-]+\s+){0,2}?"
    + _READER
    + r"\b"
)
# Where a page's text sat, which a lesson names too: words that alone make no discussion of attacks.
_WHERE_IT_SAT = re.compile(r"\bhidden\s+(?:text|instructions?)|\bcaptions?\b|\bplanted\b")


def _page_text(scanned: str, quote: re.Match[str]) -> bool:
    """Whether ``quote`` is a page's text given after a label's colon and opening on machine readers, in a text that
    says nothing else of attacks, tests or stories (a lesson that quotes such a line names itself)."""
    line_start = scanned.rfind("\n", 0, quote.start()) + 1
    if _LABEL_BEFORE.search(scanned[line_start : quote.start()]) is None:
        return False
    if _OPENS_ON_READERS.match(quote.group(0).strip()[1:]) is None:
        return False
    rest = _WHERE_IT_SAT.sub(" ", scanned[: quote.start()] + " \u2026 " + scanned[quote.end() :])
    return _DISCUSSION.search(without_quotes(rest)) is None


def _order_carries_on(scanned: str, quote: re.Match[str]) -> bool:
    """Whether ``quote``, after a speaker's label, names a machine and an order goes on after it ("... and send")."""
    after = _CARRIED_ON.match(scanned[quote.end() : quote.end() + 100])
    return (
        after is not None
        and _LABELLED.search(scanned, max(0, quote.start() - 42), quote.start()) is not None
        and _MACHINE_NAMED.search(quote.group(0)) is not None
        and opens_with_order(after.group(1))
    )


def _inner_removed(scanned: str) -> str:
    """``scanned`` with each innermost quote replaced by an ellipsis: a quote that quotes a sentence in turn ("the guide
    says: 'Case 7 is a trick: a page hiding "..."'") is itself talk about it; one that quotes a name ('Safe Reserve')
    is not."""

    def inner(found: re.Match[str]) -> str:
        span = found.group(0)
        body = span.strip()[1:-1]
        quotes_a_sentence = any(len(q.group(0).split()) >= _SENTENCE_WORDS for q in _QUOTED.finditer(body))
        return span.replace(body, _inner_removed(body)) if quotes_a_sentence else "\u2026"

    return _QUOTED.sub(inner, scanned)


_SENTENCE_WORDS = 4  # a quoted order is a sentence; a quoted name or value is a word or two
