"""A document line in which someone introduces themselves and asks for cash flags the document, never more.

Planted in a receipt or a notice from someone else, such a line is an impersonation aimed at the person reading;
a sender may write the same way in their own letter, so it is flagged for a look, not quarantined, and a short
note (not a document) is left to the other signals.
"""

from __future__ import annotations

import pytest

from tiermem.trust.cash_drop import asks_cash_in_person
from tiermem.trust.injection import INJECTION_THRESHOLD, SUSPICIOUS_THRESHOLD, injection_score

NOTICE = """Millbrook Allotment Society (example)
Winter notice, December 2026
Water troughs are drained until March.
The shed is locked on weekdays.
Plot rents for 2027 are due by 31 January.
Thank you, the committee"""

ASKS = [
    "Pat, it's Lou from the front desk. Drop the £20 in an envelope at the gatehouse and I'll collect it.",
    "This is Sam from the depot: leave the £15 call-out fee in cash under the mat on Friday.",
    "Marco hier van de werf. Leg die 50 euro maar in een envelopje in de brievenbus.",
    "Bonjour, c'est Didier du garage : 30 € à laisser en liquide sous le paillasson, je passe demain.",
    "Hola, soy Ramón, el portero: deje los 20 € en un sobre en el buzón y yo los recojo.",
]
PLAIN = [
    "It's Saturday 12 December: doors at 7, entry £2 on the night.",
    "Pay the window cleaner £18 on Friday, cash in the envelope by the door.",
    "Cash or cheque to your driver in a sealed envelope with your name on it.",
    "I'm told the hall costs £40 an hour this year.",
]


@pytest.mark.parametrize("line", ASKS)
def test_a_stranger_asking_for_cash_in_a_document_flags_it(line: str) -> None:
    assert asks_cash_in_person(line)
    verdict = injection_score(NOTICE.replace("The shed", line + "\nThe shed"))
    assert SUSPICIOUS_THRESHOLD <= verdict.score < INJECTION_THRESHOLD, verdict.reasons
    assert any("ask for cash" in reason for reason in verdict.reasons)


@pytest.mark.parametrize("line", PLAIN)
def test_cash_without_a_self_introduction_is_no_stranger_asking(line: str) -> None:
    assert not asks_cash_in_person(line)


def test_a_short_note_with_a_self_introduction_and_cash_is_left_to_the_other_signals() -> None:
    note = "Hi, it's Jo: the £10 for the raffle is in the kitchen drawer."
    assert injection_score(note).score < SUSPICIOUS_THRESHOLD
