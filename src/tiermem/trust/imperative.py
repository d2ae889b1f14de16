"""(internal) Whether a clause opens with an order: an English verb in its base form with something to act on.

A closed list of order verbs misses the verb an attack happens to pick ("refund", "wipe", "dispatch"); the
lexicon of lemminflect knows every English verb. A base form alone is not an order ("travel counsellors",
"record 12"), so the verb must be followed by what an order acts on: a determiner, a pronoun, a particle, a
preposition or an -ing form.
"""

from __future__ import annotations

import re
from functools import cache

__all__ = ["opens_with_order"]

_CLAUSE = re.compile(r"[,;:\u2013\u2014]\s*|\s+(?:then|and)\s+")
_WORDS = re.compile(r"[a-z]+(?:-[a-z]+)*(?:'[a-z]+)?")
# A verb written with a prefix and a hyphen is that verb: "e-mail them", "re-send it", "co-sign the form".
_PREFIXES = frozenset("e re co pre de un mis out over under double cross".split())
_OBJECT = frozenset(
    "the a an this that these those every each all any some no it them him her me us my our their his your its "
    "everything anything nothing everyone anyone someone up out off down back away about to into onto with for "
    "from over only on yourself yourselves himself herself themselves".split()
)
# After a word that addresses a machine, a base-form verb is an order unless what follows makes it a noun or a
# name: "Toilets by the pavilion", "Lunch at noon", "Record is 12".
_NOT_AN_OBJECT = frozenset(
    "at in by of on is are was were 's and or but as if when than near next per via de la le du".split()
)
# A quotation right after the verb is what it acts on: 'add "Free trial at..." to replies', 'say "yes"'.
_QUOTED_OBJECT = re.compile(r"^\W*[a-z]+(?:-[a-z]+)*\s+[\"\u201c\u2018]")
_NOT_ORDERS = frozenset("be is are was were been have has had do does did will would shall should may might".split())


@cache
def _base_verb(word: str) -> bool:
    """Whether ``word`` is an English verb in its base form (lemminflect's lexicon)."""
    prefix, _, rest = word.rpartition("-")
    if prefix:
        return prefix in _PREFIXES and _base_verb(rest)
    from lemminflect import getAllLemmas  # its lexicon loads on first use, not at import

    return word not in _NOT_ORDERS and word in getAllLemmas(word, upos="VERB").get("VERB", ())


def opens_with_order(text: str, *, addressed: bool = False) -> bool:
    """Whether a clause of ``text`` opens with a base-form verb followed by what it acts on ("refund all orders").

    With ``addressed`` (the clause follows a word that addresses a machine) any word but a preposition or a verb
    may follow the verb ("schedule people", "advise volunteers").
    """
    for clause in _CLAUSE.split(text):
        words = _WORDS.findall(clause[:60])
        if len(words) < 2 or not _base_verb(words[0]):
            continue
        if words[1] in _OBJECT or words[1].endswith("ing") or _QUOTED_OBJECT.match(clause):
            return True
        if addressed and words[1] not in _NOT_AN_OBJECT and words[1] not in _NOT_ORDERS:
            return True
    return False
