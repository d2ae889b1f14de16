"""(internal) The days a question names ("on 8 May, 2023", "in June", "yesterday", "last Friday"): recall's time prior.

English only. Relative days ("yesterday", "3 days ago", "last week") count back from the ``now`` of the search.
"""

from __future__ import annotations

import calendar
import contextlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta

__all__ = ["NamedDays", "named_days"]

_MONTH_NUMBER = {name: i for i, name in enumerate(calendar.month_name) if name} | {
    name: i for i, name in enumerate(calendar.month_abbr) if name
}
_MONTH_NUMBER["Sept"] = 9
# Capitalised only: "may" the verb is not May the month.
_MONTH = "(" + "|".join(sorted(_MONTH_NUMBER, key=len, reverse=True)) + r")\.?"
_ORDINAL = r"(?:st|nd|rd|th)?"
_TO_DAY = rf"(?:\s*[-\u2013]\s*(\d{{1,2}}){_ORDINAL})?"  # "May 8-10", "8-10 May": a range of days
_YEAR_AFTER = r"(?:(?:,\s*|\s+)(\d{4})\b)?"  # "May 8 2023", "May 8, 2023", "May 8,2023"
_DAY_FIRST = re.compile(rf"\b(\d{{1,2}}){_ORDINAL}{_TO_DAY}\s+(?:of\s+)?{_MONTH}\b{_YEAR_AFTER}")
_MONTH_FIRST = re.compile(rf"\b{_MONTH}\s+(\d{{1,2}}){_ORDINAL}{_TO_DAY}\b{_YEAR_AFTER}")
_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_MONTH_YEAR = re.compile(rf"\b{_MONTH},?\s+(\d{{4}})\b")
# A month without a day, after a word that makes it a time ("in June", "during May", "late August", "the third
# week of October"): a capitalised "May I ..." opens a question and names nothing.
_WEEK_OF = r"(?:(first|second|third|fourth|last)\s+week\s+of\s+)"
_IN_MONTH = re.compile(
    rf"\b(?i:(in|during|early|mid|late)(?:\s+|-)(?:the\s+)?{_WEEK_OF}?){_MONTH}(?:,?\s+(\d{{4}})\b|(?![\w-])(?!,?\s*\d))"
)
_WEEK_FIRST_DAY = {"first": 1, "second": 8, "third": 15, "fourth": 22}
_PART_OF_MONTH = {"early": (1, 10), "mid": (11, 20), "late": (21, 31)}
# A bare year of this or the last century ("2500 calories" is a quantity).
_YEAR = re.compile(r"\b((?:19|20)\d\d)\b")
# Two dates joined as a range: "between A and B", "from A to B".
_RANGE_START = re.compile(r"\b(between|from)\s*$", re.I)
_RANGE_JOIN = re.compile(r"^\s*(and|to|until|till|through|[-\u2013])\s*$", re.I)
_NUMBERS = {w: i for i, w in enumerate("zero one two three four five six seven eight nine ten".split())} | {
    "a": 1,
    "an": 1,
}
# "A couple of" and "a few" are approximate: as many units back as each may mean.
_ABOUT = {"couple": (1, 3), "few": (2, 4)}
_COUNT = rf"(\d{{1,3}}|{'|'.join(_NUMBERS)}|(?:a\s+)?couple(?:\s+of)?|(?:a\s+)?few)"
_AGO = re.compile(rf"\b{_COUNT}\s+(day|week|month|year)s?\s+ago\b", re.I)
_PAST = re.compile(rf"\bthe\s+(?:last|past)\s+(?:{_COUNT}\s+)?(day|week|month|year)s?\b", re.I)
_WEEKDAYS = [name.lower() for name in calendar.day_name]
# "my last week at Acme", "the last month" (a rolling span, read by _PAST) are not the previous calendar one.
_NOT_CALENDAR = "".join(rf"(?<!\b{w} )" for w in ("the", "my", "our", "his", "her", "your", "their", "its"))
_LAST = re.compile(rf"{_NOT_CALENDAR}\blast\s+(week|weekend|month|year|{'|'.join(_WEEKDAYS)})\b", re.I)
# "Before today" bounds an open span (everything so far), and "tonight" is most often a plan ("a film for tonight").
_NOT_BOUND = "".join(rf"(?<!\b{w} )" for w in ("before", "until", "till", "prior to", "up to"))
_THIS = re.compile(rf"{_NOT_BOUND}\b(today|this\s+(?:morning|afternoon|evening|week|month|year))\b", re.I)
_YESTERDAY = re.compile(r"\b(the\s+day\s+before\s+yesterday|yesterday|last\s+night)\b", re.I)
_WHICH_YEAR = re.compile(r"\b(last|this)\s+year\b", re.I)  # the year of "on May 8 last year"
_UNIT_DAYS = {"day": 1, "week": 7, "month": 30, "year": 365}
_LEAP_SEARCH = 8  # a year-less 29 February: leap years can be 8 apart (1896, 1904)


@dataclass(frozen=True, slots=True)
class NamedDays:
    """The spans of days a question names, each (first, last); a record is as near as its nearest span."""

    spans: tuple[tuple[date, date], ...]

    def distance(self, first: date, last: date | None = None) -> int:
        """Days between a record's days (``first``, or ``first`` to ``last``) and the nearest span: 0 on overlap."""
        end = last if last is not None and last >= first else first
        return min(max(0, (start - end).days, (first - stop).days) for start, stop in self.spans)


def named_days(question: str, now: datetime) -> NamedDays | None:
    """The days ``question`` names, if any (calendar dates first; relative days only when it names none)."""
    today = now.date()
    spans = _calendar(question, today)
    # Beside a date ("the weekend before 12 June, 2023") a relative phrase is relative to it: the date says when.
    if not spans:
        spans = _relative(question, today)
    return NamedDays(tuple(spans)) if spans else None


@dataclass(frozen=True, slots=True)
class _Mention:
    start: int
    end: int
    month: int
    day: int
    last_day: int | None
    year: int | None


def _calendar(question: str, today: date) -> list[tuple[date, date]]:
    """Spans of the calendar dates in ``question``, in the order it names them."""
    # Text a date took, resolved or not ("31 February 2023" names no month either), is not read again.
    taken = bytearray(len(question))
    mentions: list[_Mention] = []
    for match in _DAY_FIRST.finditer(question):
        day, to_day = int(match[1]), _int(match[2])
        mentions.append(_Mention(*match.span(), _MONTH_NUMBER[match[3]], day, to_day, _int(match[4])))
        _take(match.span(), taken)
    for match in _MONTH_FIRST.finditer(question):
        if not _overlaps(match.span(), taken):
            day, to_day = int(match[2]), _int(match[3])
            mentions.append(_Mention(*match.span(), _MONTH_NUMBER[match[1]], day, to_day, _int(match[4])))
            _take(match.span(), taken)
    for match in _ISO.finditer(question):
        mentions.append(_Mention(*match.span(), int(match[2]), int(match[3]), None, int(match[1])))
        _take(match.span(), taken)
    mentions.sort(key=lambda m: m.start)
    spans: list[tuple[int, int, date, date]] = []
    year = _named_year(question, mentions, today)
    for mention in mentions:
        resolved = _resolve(mention, year, today)
        if resolved is not None:
            spans.append((mention.start, mention.end, *resolved))
    for match in _IN_MONTH.finditer(question):
        in_year = int(match[4]) if match[4] else _month_year(_MONTH_NUMBER[match[3]], year, today)
        if in_year >= 1 and not _overlaps(match.span(), taken):
            spans.append((*match.span(), *_month_part(match, in_year)))
            _take(match.span(), taken)
    for match in _MONTH_YEAR.finditer(question):
        month, named = _MONTH_NUMBER[match[1]], int(match[2])
        if named >= 1 and not _overlaps(match.span(), taken):
            end = date(named, month, calendar.monthrange(named, month)[1])
            spans.append((*match.span(), date(named, month, 1), end))
    spans.sort()
    return _join_ranges(question, spans)


def _month_year(month: int, year: int | None, today: date) -> int:
    """The year of a year-less month: the named year, else the latest such month that has begun."""
    if year is not None:
        return year
    return today.year if month <= today.month else today.year - 1


def _month_part(match: re.Match[str], year: int) -> tuple[date, date]:
    """The days of "in June", "late June" or "the second week of June" in ``year``."""
    month = _MONTH_NUMBER[match[3]]
    days = calendar.monthrange(year, month)[1]
    if match[2] is not None:  # a week of the month
        week = match[2].lower()
        first = days - 6 if week == "last" else _WEEK_FIRST_DAY[week]
        return date(year, month, first), date(year, month, min(first + 6, days))
    low, high = _PART_OF_MONTH.get(match[1].lower(), (1, days))
    return date(year, month, low), date(year, month, min(high, days))


def _named_year(question: str, mentions: list[_Mention], today: date) -> int | None:
    """The year a year-less date takes: one a date names, a bare year, or "this year" / "last year"."""
    years = [m.year for m in mentions if m.year is not None] or [int(y) for y in _YEAR.findall(question)]
    if years:
        return years[-1]
    year = _WHICH_YEAR.search(question)
    if year is None:
        return None
    return today.year - 1 if year[1].lower() == "last" else today.year


def _resolve(mention: _Mention, year: int | None, today: date) -> tuple[date, date] | None:
    """The span a mention names; a year-less one without a named year is the latest not after today."""
    if mention.year is not None or year is not None:
        candidates = [mention.year if mention.year is not None else year or 0]
    else:
        candidates = [today.year - back for back in range(_LEAP_SEARCH + 1)]
    for y in candidates:
        try:
            first = date(y, mention.month, mention.day)
            last = date(y, mention.month, mention.last_day) if mention.last_day else first
        except ValueError:  # 31 February, year 0, day 40
            continue
        if mention.year is None and year is None and first > today:
            continue
        return (first, last) if last >= first else (first, first)
    return None


def _join_ranges(question: str, spans: list[tuple[int, int, date, date]]) -> list[tuple[date, date]]:
    """Merge "between A and B" / "from A to B" into one span; a year-less B before A is in the next year."""
    out: list[tuple[date, date]] = []
    i = 0
    while i < len(spans):
        start, end, first, last = spans[i]
        if i + 1 < len(spans):
            nxt_start, _, _, nxt_last = spans[i + 1]
            if _opens_a_range(question, start) and _RANGE_JOIN.match(question[end:nxt_start]):
                if nxt_last < first:
                    nxt_last = _next_year(nxt_last)
                out.append((first, max(last, nxt_last)))
                i += 2
                continue
        out.append((first, last))
        i += 1
    return out


def _relative(question: str, today: date) -> list[tuple[date, date]]:
    """The spans named relative to today; a phrase counting back past year 1 names nothing."""
    spans: list[tuple[date, date]] = []
    for pattern, span_of in _RELATIVE:
        for match in pattern.finditer(question):
            with contextlib.suppress(OverflowError, ValueError):  # before the first year the calendar has
                spans.append(span_of(match, today))
    return spans


def _yesterday(match: re.Match[str], today: date) -> tuple[date, date]:
    day = today - timedelta(days=2 if match[1].lower().startswith("the") else 1)
    return day, day


def _this(match: re.Match[str], today: date) -> tuple[date, date]:
    """From the first day of "this week / month / year" to today; today alone for "today", "this morning"."""
    word = match[1].lower().split()[-1]
    if word == "week":
        return today - timedelta(days=today.weekday()), today
    if word == "month":
        return today.replace(day=1), today
    if word == "year":
        return today.replace(month=1, day=1), today
    return today, today


def _ago(match: re.Match[str], today: date) -> tuple[date, date]:
    """ "N units ago": the unit-long span centred on that day (a count of weeks or months is approximate)."""
    unit = _UNIT_DAYS[match[2].lower()]
    fewest, most = _counts(match[1])
    return today - timedelta(days=most * unit + unit // 2), today - timedelta(days=fewest * unit - unit // 2)


def _past(match: re.Match[str], today: date) -> tuple[date, date]:
    """ "The last / past (N) units": the rolling span up to today."""
    most = _counts(match[1])[1] if match[1] else 1
    return today - timedelta(days=most * _UNIT_DAYS[match[2].lower()]), today


def _last(match: re.Match[str], today: date) -> tuple[date, date]:
    """The span "last <unit>" names: the previous calendar week, month or year, the latest weekend or weekday."""
    unit = match[1].lower()
    if unit == "week":
        monday = today - timedelta(days=today.weekday() + 7)
        return monday, monday + timedelta(days=6)
    if unit == "weekend":
        # The latest weekend that is over: on a Saturday or Sunday, the one before.
        saturday = today - timedelta(days=(today.weekday() - 5) % 7 or 7)
        if saturday + timedelta(days=1) >= today:
            saturday -= timedelta(days=7)
        return saturday, saturday + timedelta(days=1)
    if unit == "month":
        end = today.replace(day=1) - timedelta(days=1)
        return end.replace(day=1), end
    if unit == "year":
        return date(today.year - 1, 1, 1), date(today.year - 1, 12, 31)
    back = (today.weekday() - _WEEKDAYS.index(unit)) % 7 or 7  # "last Friday" on a Friday: a week ago
    day = today - timedelta(days=back)
    return day, day


_RELATIVE: tuple[tuple[re.Pattern[str], Callable[[re.Match[str], date], tuple[date, date]]], ...] = (
    (_YESTERDAY, _yesterday),
    (_THIS, _this),
    (_AGO, _ago),
    (_PAST, _past),
    (_LAST, _last),
)


def _next_year(day: date) -> date:
    try:
        return day.replace(year=day.year + 1)
    except ValueError:  # 29 February, or year 9999
        return day


def _counts(words: str) -> tuple[int, int]:
    """The fewest and most units a count means: (3, 3) for "three", (1, 3) for "a couple of"."""
    if words.isdigit():
        return int(words), int(words)
    word = words.lower()
    about = next((span for key, span in _ABOUT.items() if key in word.split()), None)
    return about or (_NUMBERS[word], _NUMBERS[word])


def _int(text: str | None) -> int | None:
    return int(text) if text else None


def _opens_a_range(question: str, start: int) -> bool:
    """ "between" or "from" (then only white space) comes just before ``start``."""
    # Searching only the last word's room keeps a question full of dates linear, not quadratic.
    head = question[:start].rstrip()
    return _RANGE_START.search(head, max(0, len(head) - len("between"))) is not None


def _overlaps(span: tuple[int, int], taken: bytearray) -> bool:
    """``span`` shares a character with text already ``taken``."""
    return taken.find(1, *span) != -1


def _take(span: tuple[int, int], taken: bytearray) -> None:
    taken[span[0] : span[1]] = b"\x01" * (span[1] - span[0])
