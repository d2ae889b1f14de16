"""The cached readings ``supersede.decide`` asks of a text answer as the patterns read afresh do."""

from __future__ import annotations

from tiermem.english.statements import CLAUSE, NEGATION
from tiermem.write.readings import clauses_of, is_negated

TEXTS = (
    "Orla keeps the canoe at the lake house.",
    "Orla does not keep the canoe at the lake house any more.",
    "Tam never learned to sail, while his cousin races dinghies on weekends.",
    "Tam can't swim; he rows instead of swimming.",
    "Nobody minds the noise, but the neighbours asked for quiet after ten.",
    "",
)


def test_cached_negation_and_clauses_match_the_patterns_read_afresh() -> None:
    for text in TEXTS:
        assert is_negated(text) is (NEGATION.search(text) is not None), text
        assert list(clauses_of(text)) == [c.strip(" ,") for c in CLAUSE.split(text)], text
    assert is_negated(TEXTS[1]) and not is_negated(TEXTS[0])  # the sample holds both kinds
    assert len(clauses_of(TEXTS[2])) == 2
