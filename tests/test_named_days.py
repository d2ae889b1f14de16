"""Named days: a question that names a day ranks the records of that day higher."""

from __future__ import annotations

from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import pytest

from tiermem import Memory, NewMemory, Scope
from tiermem.english.named_days import NamedDays, named_days
from tiermem.errors import ValidationError
from tiermem.recall.search import RecallPolicy, rank
from tiermem.store.base import Candidate
from tiermem.types import MemoryType

ALICE = Scope("acme", "alice")
NOW = datetime(2026, 3, 1, 12, tzinfo=UTC)


@pytest.mark.parametrize(
    ("question", "first", "last"),
    [
        ("What did Lars cook on 1 May, 2022?", date(2022, 5, 1), date(2022, 5, 1)),
        ("What happened on October 13, 2023?", date(2023, 10, 13), date(2023, 10, 13)),
        ("Who called on the 5th of June 2023?", date(2023, 6, 5), date(2023, 6, 5)),
        ("What did we plan on Sept. 9th, 2024?", date(2024, 9, 9), date(2024, 9, 9)),
        ("Any notes from 2025-12-24?", date(2025, 12, 24), date(2025, 12, 24)),
        ("Where did Omar stay between July 4 and July 9 2023?", date(2023, 7, 4), date(2023, 7, 9)),
        ("Where did Omar stay between July 4 and 9, 2023?", date(2023, 7, 4), date(2023, 7, 4)),
        ("What did I do in June 2023?", date(2023, 6, 1), date(2023, 6, 30)),
        # No year: the latest such day not after now.
        ("What did I eat on February 14?", date(2026, 2, 14), date(2026, 2, 14)),
        ("What did I buy on 24 December?", date(2025, 12, 24), date(2025, 12, 24)),
        ("What did I do on May 8-10, 2023?", date(2023, 5, 8), date(2023, 5, 10)),
        ("What did I do on 8-10 May 2023?", date(2023, 5, 8), date(2023, 5, 10)),
        ("Where was I between December 28, 2022 and January 3?", date(2022, 12, 28), date(2023, 1, 3)),
        ("What did I do from May 3 to May 9, 2023?", date(2023, 5, 3), date(2023, 5, 9)),
        ("What did I do on May 8 last year?", date(2025, 5, 8), date(2025, 5, 8)),
        # A month without a day, after "in", "during", "early / mid / late" or "the Nth week of": the named year,
        # else the latest such month that has begun.
        ("When did Nadia go sailing in June?", date(2025, 6, 1), date(2025, 6, 30)),
        ("What did I plan in March?", date(2026, 3, 1), date(2026, 3, 31)),
        ("In July last year, where was I?", date(2025, 7, 1), date(2025, 7, 31)),
        ("What did I do during August 2021?", date(2021, 8, 1), date(2021, 8, 31)),
        ("Where was Omar in the third week of October?", date(2025, 10, 15), date(2025, 10, 21)),
        ("Who visited in the last week of February?", date(2026, 2, 22), date(2026, 2, 28)),
        ("What did I read in early May?", date(2025, 5, 1), date(2025, 5, 10)),
        ("Who came over mid-July?", date(2025, 7, 11), date(2025, 7, 20)),
        ("What did I read in late February 2024?", date(2024, 2, 21), date(2024, 2, 29)),
        # A quantity is not a year.
        ("I ate 2500 calories on March 3, what else?", date(2025, 3, 3), date(2025, 3, 3)),
        ("Where was the photo posted on October 3,2023 taken?", date(2023, 10, 3), date(2023, 10, 3)),
    ],
)
def test_named_days_reads_the_days_a_question_names(question: str, first: date, last: date) -> None:
    assert named_days(question, NOW) == NamedDays(((first, last),))


WEDNESDAY = datetime(2026, 3, 4, 12, tzinfo=UTC)


@pytest.mark.parametrize(
    ("question", "now", "first", "last"),
    [
        ("What did I do yesterday?", WEDNESDAY, date(2026, 3, 3), date(2026, 3, 3)),
        ("What did I eat the day before yesterday?", WEDNESDAY, date(2026, 3, 2), date(2026, 3, 2)),
        ("What did I buy today?", WEDNESDAY, date(2026, 3, 4), date(2026, 3, 4)),
        ("Which song did I listen to today?", WEDNESDAY, date(2026, 3, 4), date(2026, 3, 4)),
        ("Who called 3 days ago?", WEDNESDAY, date(2026, 3, 1), date(2026, 3, 1)),
        ("Who called a week ago?", WEDNESDAY, date(2026, 2, 22), date(2026, 2, 28)),
        ("What did we plan last week?", WEDNESDAY, date(2026, 2, 23), date(2026, 3, 1)),
        ("Where did I go last Friday?", WEDNESDAY, date(2026, 2, 27), date(2026, 2, 27)),
        ("Where did I go last Wednesday?", WEDNESDAY, date(2026, 2, 25), date(2026, 2, 25)),
        ("What did I do this week?", WEDNESDAY, date(2026, 3, 2), date(2026, 3, 4)),
        ("What did I read last month?", WEDNESDAY, date(2026, 2, 1), date(2026, 2, 28)),
        ("Where did I travel last year?", WEDNESDAY, date(2025, 1, 1), date(2025, 12, 31)),
        # The latest weekend that is over: on a Sunday, the one before; on a Monday, the one just past.
        ("What did I do last weekend?", WEDNESDAY, date(2026, 2, 28), date(2026, 3, 1)),
        ("What did I do last weekend?", datetime(2026, 3, 8, tzinfo=UTC), date(2026, 2, 28), date(2026, 3, 1)),
        ("What did I do last weekend?", datetime(2026, 3, 9, tzinfo=UTC), date(2026, 3, 7), date(2026, 3, 8)),
        ("What did I do last night?", WEDNESDAY, date(2026, 3, 3), date(2026, 3, 3)),
        ("What did I read this year?", WEDNESDAY, date(2026, 1, 1), date(2026, 3, 4)),
        ("What happened a year ago?", WEDNESDAY, date(2024, 9, 3), date(2025, 9, 2)),
        # "The last month" is the rolling span, not the previous calendar month.
        ("What did I read in the last month?", WEDNESDAY, date(2026, 2, 2), date(2026, 3, 4)),
        ("Who did I meet in the past 2 weeks?", WEDNESDAY, date(2026, 2, 18), date(2026, 3, 4)),
        # Approximate counts span what they may mean: "a couple" 1-3 units back, "a few" 2-4.
        ("What did I cook a couple of days ago?", WEDNESDAY, date(2026, 3, 1), date(2026, 3, 3)),
        ("What did I cook a couple days ago?", WEDNESDAY, date(2026, 3, 1), date(2026, 3, 3)),
        ("Which car did I test a few weeks ago?", WEDNESDAY, date(2026, 2, 1), date(2026, 2, 21)),
        ("Who did I meet the past few days?", WEDNESDAY, date(2026, 2, 28), date(2026, 3, 4)),
        ("What did I buy in the last couple of days?", WEDNESDAY, date(2026, 3, 1), date(2026, 3, 4)),
        # A leap day without a year: the latest one.
        ("What did I do on February 29?", datetime(2023, 3, 1, tzinfo=UTC), date(2020, 2, 29), date(2020, 2, 29)),
        # Beside a date, a relative phrase does not count from now.
        ("What did Petra do last weekend before June 12, 2023?", WEDNESDAY, date(2023, 6, 12), date(2023, 6, 12)),
    ],
)
def test_named_days_counts_relative_days_back_from_now(question: str, now: datetime, first: date, last: date) -> None:
    assert named_days(question, now) == NamedDays(((first, last),))


@pytest.mark.parametrize(
    "question",
    [
        "What may I bring to the party?",  # the verb, not the month
        "What did Marta paint?",
        "What happened on 31 February 2023?",  # no such day
        "How many of the 12 books did I read?",
        "How many days ago did I buy it?",  # asks for a distance, names no day
        "I had a few questions about the days ago listed",
        "What did I learn in my last week at Acme?",  # someone's last week, not the calendar's
        "What happened in May 0000?",  # no such year
        "Any notes from 0000-05-01?",
        "May I ask what Marta paints?",  # a capitalised verb opening the question
        "What did I do in Mayfair?",
        "Which airlines did I fly with before today?",  # an open span up to now, not today alone
        "Any film to watch tonight?",  # most often a plan, not a day to look back on
    ],
)
def test_named_days_finds_none_where_no_day_is_named(question: str) -> None:
    assert named_days(question, NOW) is None


@pytest.mark.parametrize("question", ["What did I do last year?", "Who called 999 months ago?"])
def test_named_days_counted_back_past_the_calendar_are_none(question: str) -> None:
    assert named_days(question, datetime(1, 3, 1, tzinfo=UTC)) is None


def test_named_days_keeps_separate_dates_apart() -> None:
    # Two dates that are not a range name two days, not the months between them.
    days = named_days("The concert on March 3 or the dinner on April 2?", datetime(2024, 3, 15, tzinfo=UTC))
    assert days == NamedDays(((date(2024, 3, 3), date(2024, 3, 3)), (date(2023, 4, 2), date(2023, 4, 2))))
    days = named_days("What did I do on 3 January 2023 or on 5 June 2023?", NOW)
    assert days is not None and days.distance(date(2023, 3, 15)) > 60


def test_distance_is_zero_within_the_days_and_counts_days_outside() -> None:
    days = NamedDays(((date(2023, 8, 11), date(2023, 8, 15)), (date(2023, 9, 1), date(2023, 9, 1))))
    assert days.distance(date(2023, 8, 13)) == 0
    assert days.distance(date(2023, 8, 9)) == 2
    assert days.distance(date(2023, 8, 18)) == 3  # nearer the first span than the second
    assert days.distance(date(2023, 8, 30)) == 2
    assert days.distance(date(2021, 1, 1), date(2024, 1, 1)) == 0  # a validity covering the days


def _two_days(mem: Memory) -> tuple[str, str]:
    may, june = mem.remember_many(
        ALICE,
        [
            NewMemory(
                "Ann: we went to the lake and swam",
                type=MemoryType.EPISODIC,
                valid_from=datetime(2023, 5, 8, tzinfo=UTC),
            ),
            NewMemory(
                "Ann: we went to the lake and fished",
                type=MemoryType.EPISODIC,
                valid_from=datetime(2023, 6, 3, tzinfo=UTC),
            ),
        ],
    )
    return may.record.id, june.record.id


@pytest.mark.parametrize(("day", "first"), [("8 May, 2023", 0), ("June 3, 2023", 1), ("June 4th, 2023", 1)])
def test_a_question_naming_a_day_ranks_the_records_of_that_day_first(mem: Memory, day: str, first: int) -> None:
    ids = _two_days(mem)
    hits = mem.recall(ALICE, f"What did Ann do at the lake on {day}?", k=2, now=NOW)
    assert hits[0].record.id == ids[first]
    part = hits[0].part("named_day")
    assert part is not None and part.contribution > hits[1].part("named_day").contribution  # type: ignore[union-attr]


def test_a_question_about_yesterday_ranks_yesterdays_record_first(mem: Memory) -> None:
    ids = _two_days(mem)
    hits = mem.recall(ALICE, "What did Ann do at the lake yesterday?", k=2, now=datetime(2023, 6, 4, 9, tzinfo=UTC))
    assert hits[0].record.id == ids[1]


def test_without_the_prior_the_day_named_changes_nothing(mem: Memory) -> None:
    _two_days(mem)
    plain = Memory(mem.store, mem.embedder, policy=RecallPolicy(date_weight=0.0))
    for day in ("8 May, 2023", "June 3, 2023"):
        hits = plain.recall(ALICE, f"What did Ann do at the lake on {day}?", k=2, now=NOW)
        assert all(h.part("named_day") is None for h in hits)
    assert all(h.part("named_day") is None for h in mem.recall(ALICE, "What did Ann do at the lake?", k=2, now=NOW))


def test_a_question_naming_a_day_rescores_every_candidate_not_only_the_first_fifty(mem: Memory) -> None:
    # 40 records both lists rank, 19 each list alone, and the day's record last in one list: 60th when fused.
    january, may = datetime(2023, 1, 10, tzinfo=UTC), datetime(2023, 5, 8, tzinfo=UTC)
    written = mem.remember_many(
        ALICE,
        [NewMemory(f"Ann: lake note {i}", type=MemoryType.EPISODIC, valid_from=january) for i in range(59)]
        + [NewMemory("Ann: we went to the lake", type=MemoryType.EPISODIC, valid_from=may)],
    )
    ids = [w.record.id for w in written]
    both, keyword_only, vector_only, day = ids[:40], ids[40:49], ids[49:59], ids[59]
    keyword = [Candidate(i, 1.0) for i in [*both, *keyword_only, day]]
    vector = [Candidate(i, 0.5) for i in [*both, *vector_only]]
    lists = RecallPolicy().fusion().lists(keyword=keyword, vector=vector)
    hits = rank(mem.store, ALICE, lists, k=10, now=NOW, query="lake on 8 May, 2023")
    assert hits[0].record.id == day  # counted double for its day, it outranks records that both lists placed first


def test_days_are_read_in_the_zone_of_now(mem: Memory) -> None:
    evening = datetime(2023, 5, 8, 19, tzinfo=ZoneInfo("America/Los_Angeles"))  # 9 May in UTC
    mem.remember_many(ALICE, [NewMemory("Ann: we went to the lake", type=MemoryType.EPISODIC, valid_from=evening)])
    now = datetime(2023, 6, 1, tzinfo=ZoneInfo("America/Los_Angeles"))
    hit = mem.recall(ALICE, "What did Ann do on 8 May, 2023?", k=1, now=now)[0]
    assert hit.part("named_day").raw == 0.0  # type: ignore[union-attr]


def test_a_fact_is_as_near_as_its_validity(mem: Memory) -> None:
    fact, event = mem.remember_many(
        ALICE,
        [
            NewMemory("I live in Porto", valid_from=datetime(2021, 1, 1, tzinfo=UTC)),
            NewMemory("I went to a concert", type=MemoryType.EPISODIC, valid_from=datetime(2023, 6, 2, tzinfo=UTC)),
        ],
    )
    hits = mem.recall(ALICE, "Where did I live in June 2023?", k=2, now=NOW)
    parts = {h.record.id: h.part("named_day") for h in hits}
    assert parts[fact.record.id].raw == 0.0  # type: ignore[union-attr]
    assert parts[event.record.id].raw == 0.0  # type: ignore[union-attr]


def test_a_naive_now_is_refused_with_a_clear_error(mem: Memory) -> None:
    _two_days(mem)
    with pytest.raises(ValidationError, match="now"):
        mem.recall(ALICE, "What did Ann do on 8 May, 2023?", now=datetime(2023, 6, 1))
