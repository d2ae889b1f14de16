"""(internal) Rule-based fact extraction: anchored patterns over the user's first-person clauses, no model."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from tiermem.write.facts import MAX_FACT_CHARS, ExtractedFact, FactKind, check_messages

__all__ = ["RuleExtractor"]

_REL = (
    r"(?:(?:older|younger|little|big|twin|best) )?(?:wife|husband|partner|spouse|girlfriend|boyfriend|fianc[eé]e?|"
    r"sister|brother|sibling|mother|mom|mum|father|dad|parents|son|daughter|kids?|children|child|baby|"
    r"grandma|grandmother|grandpa|grandfather|aunt|uncle|cousin|niece|nephew|friend|roommate|flatmate|boss|"
    r"manager|colleague|co-?worker|dogs?|cats?|pupp(?:y|ies)|kittens?|pets?|horse|parrot|rabbit|family|in-laws)"
)
_JOB = (
    r"[\w-]*(?:er|or|ist|ian|ant|ent|eer|ect|ive|man|woman|person|nurse|chef|pilot|vet|cook|clerk|coach|judge|"
    r"medic|barista|intern|mom|mum|dad|parent|retiree|grad)"
)
_WHEN = (
    r"(?:next|this|last|early next|later this|tomorrow|tonight|today|yesterday|recently|soon|"
    r"on (?:mon|tues|wednes|thurs|fri|satur|sun)day|in (?:a|an|one|two|three|four|five|six|a few|\d+) "
    r"(?:days?|weeks?|months?|years?))"
)
_I_AM = r"I(?:'m| am)"
_WE_ARE = r"(?:I(?:'m| am)|we(?:'re| are)|my [\w-]+ and I are)"
_ON_THE_WAY = r"(?:going|heading|flying|driving|travell?ing|moving|leaving|visiting|starting)"
_NOT_A_PLAN = r"(?!(?:need|have to|think|check|let|get back|see|try|wait|ask|look|go with|take (?:it|that))\b)"

_EVENTS = r"(?:trip|flight|meeting|appointment|interview|conference|wedding|vacation|holiday)"
_ADVERB = r"(?:(?:really|absolutely|totally|just|also|still|usually|always|generally|much),? )*"
_LIKE = r"(?:like|love|prefer|hate|enjoy|adore|dislike|detest|loathe|avoid|can't stand|cannot stand|can't bear)"
_RELATION_VERB = (
    r"(?:is|are|was|were|'s|'re|named|called|lives?|stays?|works?|goes|go|has|have|loves?|likes?|hates?|moved|got|"
    r"turned|studies|plays?)"
)


@dataclass(frozen=True, slots=True)
class _Rule:
    """One statement pattern, anchored at the start of a clause."""

    kind: FactKind
    confidence: float
    pattern: re.Pattern[str]
    needs_object: bool  # the words after the match must say something: "I love it." is a reaction, not a fact


def _rule(kind: FactKind, confidence: float, pattern: str, *, needs_object: bool = True) -> _Rule:
    return _Rule(kind, confidence, re.compile(pattern, re.I), needs_object)


_PREF, _IDENT, _LOC, _REL_, _PLAN = (
    FactKind.PREFERENCE,
    FactKind.IDENTITY,
    FactKind.LOCATION,
    FactKind.RELATION,
    FactKind.PLAN,
)
# Tried in order; the first match decides. Diet and fandom come before "I'm a <job>" ("I'm a vegan").
_RULES = (
    _rule(_PREF, 0.8, rf"{_I_AM} (?:a )?(?:vegetarian|vegan|pescatarian|lactose intolerant)\b", needs_object=False),
    _rule(_PREF, 0.8, rf"{_I_AM} (?:not )?(?:a )?(?:big |huge )?(?:fan of|allergic to|into)\b"),
    _rule(_IDENT, 0.9, r"my (?:full |first |last )?name(?: is|'s)\b"),
    _rule(_IDENT, 0.9, rf"{_I_AM} (?:a|an) (?!bit\b|little\b|lot\b)(?:[\w-]+ ){{0,2}}{_JOB}\b", needs_object=False),
    _rule(_IDENT, 0.9, rf"{_I_AM} \d{{1,3}}(?: years old)?$|I (?:just )?turned \d{{1,3}}\b", needs_object=False),
    _rule(_IDENT, 0.9, rf"I (?:work|study) (?:as|at|for|in)\b|{_I_AM} (?:working|employed) (?:as|at|for)\b"),
    _rule(_IDENT, 0.9, rf"{_I_AM} (?:married|single|divorced|engaged|widowed|retired)\b", needs_object=False),
    _rule(
        _LOC,
        0.9,
        r"(?:I|we)(?:'ve| have)? (?:still |currently |now |just |recently |finally )?"
        r"(?:live|reside|moved|relocated) (?:in|to|at|near|outside)\b",
    ),
    _rule(_LOC, 0.9, rf"{_WE_ARE} (?:currently |now )?(?:living|based|located) (?:in|at|near|out of)\b"),
    _rule(_LOC, 0.9, rf"{_I_AM} (?:originally )?from\b|I (?:come from|grew up in|was born in)\b"),
    _rule(_LOC, 0.9, r"my (?:home airport|local airport|home ?town|home address|address) is\b"),
    _rule(_LOC, 0.9, r"I (?:usually |always |normally )?fly (?:out of|from)\b"),
    _rule(_LOC, 0.8, r"I (?:don't|do not|no longer) live in\b"),
    _rule(_REL_, 0.85, rf"my {_REL}(?:'s name)?(?:,? (?:named |called )?(?-i:[A-Z])[\w-]*,?)? {_RELATION_VERB}\b"),
    _rule(_REL_, 0.85, rf"(?:I|we) (?:have|own|'ve got|have got) (?:a|an|one|two|three|four|\d+) (?:[\w-]+ )?{_REL}\b"),
    _rule(_REL_, 0.85, rf"{_I_AM} (?:married to|engaged to|dating)\b"),
    _rule(_PREF, 0.8, rf"I {_ADVERB}{_LIKE}\b"),
    _rule(
        _PREF,
        0.8,
        rf"I {_ADVERB}(?:don't|do not|never|no longer) (?:really )?(?:{_LIKE}|eat|drink|fly|mind|care for)\b",
    ),
    _rule(_PREF, 0.8, r"I(?:'d| would) (?:much )?(?:prefer|rather)\b|my (?:absolute |all-time |least )?favou?rite\b"),
    _rule(_PREF, 0.75, r"I (?:always|usually|normally|generally) (?:book|choose|pick|sit|take|order|get|go for)\b"),
    _rule(
        _PLAN,
        0.7,
        rf"{_WE_ARE} {_ON_THE_WAY}(?: to)?+ {_NOT_A_PLAN}",
    ),
    _rule(_PLAN, 0.7, rf"{_WE_ARE} (?:planning|about|scheduled|due) (?:to|on)\b|(?:I|we) (?:plan|intend) to\b"),
    _rule(_PLAN, 0.7, rf"(?:I|we)(?:'ll| will) {_NOT_A_PLAN}(?!be right\b)"),
    _rule(_PLAN, 0.7, rf"(?:I|we)(?:'ve got| have got| have) (?:a|an) (?:[\w-]+ )?{_EVENTS}\b"),
)
_HYPOTHETICAL = re.compile(
    r"\b(?:if|unless|whether|wish|suppose|imagine|maybe|perhaps|might|could|hope|hopefully|wonder)\b"
    r"|\bI(?:'d| would)\b(?! (?:much )?(?:prefer|rather)\b)",
    re.I,
)
_REPORTED = re.compile(
    r"\b(?:says?|said|tells?|told|thinks?|thought|believes?|claims?|claimed|mentioned|heard|reckons?|suggested|"
    r"according to)\b",
    re.I,
)
_SENTENCE = re.compile(r"(?<=[.!?…])\s+|\n+")
_CLAUSE = re.compile(r"\s*;\s*|,?\s+(?:and|but|so|plus)\s+(?=(?:I|my|we|our|she|he|it|they)\b)", re.I)
_QUESTION_TAIL = re.compile(
    r",\s+(?:can|could|would|will|what|where|when|how|do|does|did|is|are|any|should|which|who|why)\b", re.I
)
_LEAD_FILLER = re.compile(
    r"^(?:(?:oh|ah|well|so|um+|uh+|hmm+|ok(?:ay)?|yeah|yes|yep|no|nope|hey|hi|hello|also|and|but|plus|anyway|"
    r"anyways|actually|btw|by the way|fyi|just so you know|for the record|honestly|basically|right|sure|great|"
    r"cool|thanks|thank you)\b[,!.:]?\s+|(?:quick |small |big |short )?(?:update|news|note|fyi|ps|edit)\s*:\s+)",
    re.I,
)
_MID_FILLER = re.compile(r",?\s*\b(?:actually|by the way|btw|honestly|basically)\b,?", re.I)
_TAIL_FILLER = re.compile(
    r"(?:,?\s*\b(?:by the way|btw|actually|though|lol|haha|you know)\b)+$|\s*[:;]-?[()DPp]$", re.I
)
_SUBORDINATE = r"(?:when|whenever|while|after|before|since|during)"
_FRONTED = re.compile(
    rf"^(?:(?P<time>{_WHEN}\b[\w ]{{0,20}}?),?|(?P<sub>{_SUBORDINATE} [^,]{{1,60}}),)"
    r"\s+(?P<rest>(?:I|my|we)\b.*)$",
    re.I,
)
# Not "it": too often no pet at all ("it's raining").
_PRONOUN = re.compile(r"^(?:she|he|they)(?:'s|'re)?\b", re.I)
_RELATION_SUBJECT = re.compile(rf"^my {_REL}\b", re.I)
_EMPTY_OBJECT = frozenset("it that this them those these you there here so too one a an the lot very much".split())


class RuleExtractor:
    """Pattern-based extraction of the user's first-person facts; no model, deterministic."""

    def extract(self, messages: Sequence[tuple[str, str]]) -> list[ExtractedFact]:
        """The user's first-person facts, in conversation order, each once; assistant turns are ignored."""
        facts: list[ExtractedFact] = []
        seen: set[str] = set()
        for index, (role, text) in enumerate(check_messages(messages)):
            if role != "user":
                continue
            for kind, confidence, statement in _facts_of(text):
                key = statement.casefold()
                if key not in seen and len(statement) <= MAX_FACT_CHARS:
                    seen.add(key)
                    facts.append(ExtractedFact(statement, kind, role, index, confidence))
        return facts


def _facts_of(text: str) -> Iterator[tuple[FactKind, float, str]]:
    subject: str | None = None  # "my dog" of the last relation fact, for a following "she ..." in this message
    flat = text.replace("\u2019", "'").replace("\u2018", "'")
    for sentence in _SENTENCE.split(flat):
        for clause in _clauses(sentence):
            clause = _clean(clause)
            pronoun = _PRONOUN.match(clause)
            if pronoun and subject:
                verb = {"'s": " is", "'re": " are"}.get(pronoun.group(0)[-2:].lower(), "")
                clause = subject + verb + clause[pronoun.end() :]
            found = _classify(clause)
            if found is None:
                continue
            kind, confidence, statement = found
            relation = _RELATION_SUBJECT.match(statement)
            subject = relation.group(0).lower() if kind is FactKind.RELATION and relation else None
            yield kind, confidence, statement


def _clauses(sentence: str) -> list[str]:
    """The statement clauses of a sentence: questions dropped, hypothetical or reported sentences wholly."""
    body = " ".join(sentence.split())
    if body.endswith("?"):
        # "I live in Austin, can you find flights?" still states where the user lives.
        tails = list(_QUESTION_TAIL.finditer(body))
        if not tails:
            return []
        body = body[: tails[-1].start()]
    if not body or _HYPOTHETICAL.search(body) or _REPORTED.search(body):
        return []  # a condition or someone else's words colour every clause of the sentence
    parts = _CLAUSE.split(body.rstrip(" .!…"))
    out: list[str] = []
    for part in parts:
        # "My husband and I ..." is one subject, not two clauses.
        if out and len(out[-1].split()) <= 2 and out[-1].lower().startswith("my ") and part[:2].lower() == "i ":
            out[-1] = f"{out[-1]} and {part}"
        else:
            out.append(part)
    return out


def _clean(clause: str) -> str:
    """Fillers off, lowercase "i" fixed, trailing punctuation off."""
    text = clause.strip()
    while (stripped := _LEAD_FILLER.sub("", text, count=1)) != text:
        text = stripped
    text = _MID_FILLER.sub(" ", text)
    text = _TAIL_FILLER.sub("", text)
    text = re.sub(r"\bi\b", "I", re.sub(r"\b(?:i'm|im)\b", "I'm", text, flags=re.I))
    return " ".join(text.split()).rstrip(" ,.!:;-")


def _classify(clause: str) -> tuple[FactKind, float, str] | None:
    """The kind, confidence and rewritten statement of a clause, or None when it states no fact."""
    fronted = _FRONTED.match(clause)
    future = False
    if fronted:
        # "Last month I moved to Denver" → "I moved to Denver last month": first person must lead the sentence.
        when = fronted.group("time") or fronted.group("sub")
        future = bool(fronted.group("time")) and not re.match(r"(?:last|yesterday|recently)\b", when, re.I)
        clause = f"{fronted.group('rest')} {when[0].lower()}{when[1:]}"
    for rule in _RULES:
        match = rule.pattern.match(clause)
        if match is None:
            continue
        rest = {w.lower() for w in re.findall(r"[\w'-]+", clause[match.end() :])}
        if rule.needs_object and not rest - _EMPTY_OBJECT:
            return None
        return rule.kind, rule.confidence, _sentence(clause)
    if future and re.match(r"(?:I|we)\b", clause) and len(clause.split()) >= 4:
        return FactKind.PLAN, 0.6, _sentence(clause)  # "Next month I start at Acme": dated, so a plan
    return None


def _sentence(clause: str) -> str:
    text = re.sub(r"^my name's\b", "my name is", clause, flags=re.I)  # the slot detector knows "name is"
    text = re.sub(rf"^{_I_AM} (\d{{1,3}})$", r"I'm \1 years old", text)
    return f"{text[0].upper()}{text[1:]}."
