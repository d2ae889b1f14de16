"""The days a question names ("on 8 May, 2023", "in June 2023", "yesterday", "last Friday"): recall's time prior.

English only. Relative days ("yesterday", "3 days ago", "last week") count back from the ``now`` of the search.
"""

from __future__ import annotations

import calendar
import re
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
_DAY_FIRST = re.compile(rf"\b(\d{{1,2}}){_ORDINAL}\s+(?:of\s+)?{_MONTH},?(?:\s+(\d{{4}}))?\b")
_MONTH_FIRST = re.compile(rf"\b{_MONTH}\s+(\d{{1,2}}){_ORDINAL}\b(?:,?\s+(\d{{4}})\b)?")
_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_MONTH_YEAR = re.compile(rf"\b{_MONTH},?\s+(\d{{4}})\b")
_YEAR = re.compile(r"\b(1[89]\d\d|2\d\d\d)\b")
_NUMBERS = {w: i for i, w in enumerate("zero one two three four five six seven eight nine ten".split())} | {
    "a": 1,
    "an": 1,
}
_AGO = re.compile(rf"\b(\d{{1,3}}|{'|'.join(_NUMBERS)})\s+(day|week|month)s?\s+ago\b", re.I)
_WEEKDAYS = [name.lower() for name in calendar.day_name]
_LAST = re.compile(rf"\blast\s+(week|weekend|month|year|{'|'.join(_WEEKDAYS)})\b", re.I)
_THIS = re.compile(r"\b(today|tonight|this\s+(?:morning|afternoon|evening|week|month))\b", re.I)
_YESTERDAY = re.compile(r"\b(?:the\s+day\s+before\s+)?yesterday\b", re.I)
# Half the width of the span "N weeks ago" and "N months ago" stand for.
_AROUND = {"day": 0, "week": 3, "month": 15}
_UNIT_DAYS = {"day": 1, "week": 7, "month": 30}


@dataclass(frozen=True, slots=True)
class NamedDays:
    """The span of days a question names, first to last (one day, a range, or a whole month)."""

    first: date
    last: date

    def distance(self, when: datetime) -> int:
        """Days from ``when`` to the span: 0 inside it."""
        day = when.date()
        if day < self.first:
            return (self.first - day).days
        return max(0, (day - self.last).days)


def named_days(question: str, now: datetime) -> NamedDays | None:
    """The days ``question`` names, if any; a date without a year takes the year the question names, else the
    latest such date not after ``now``."""
    found: list[tuple[int, int, int | None]] = []  # (month, day, year or None)
    taken: list[tuple[int, int]] = []
    for match in _DAY_FIRST.finditer(question):
        found.append((_MONTH_NUMBER[match[2]], int(match[1]), _year(match[3])))
        taken.append(match.span())
    for match in _MONTH_FIRST.finditer(question):
        if not _overlaps(match.span(), taken):
            found.append((_MONTH_NUMBER[match[1]], int(match[2]), _year(match[3])))
            taken.append(match.span())
    for match in _ISO.finditer(question):
        found.append((int(match[2]), int(match[3]), int(match[1])))
        taken.append(match.span())
    days = _resolve(found, [int(y) for y in _YEAR.findall(question)], now)
    months = [m for m in _MONTH_YEAR.finditer(question) if not _overlaps(m.span(), taken)]
    for match in months:
        year, month = int(match[2]), _MONTH_NUMBER[match[1]]
        if year >= 1:  # "May 0000" names no day
            days += [date(year, month, 1), date(year, month, calendar.monthrange(year, month)[1])]
    # Beside a date ("the weekend before 10 April, 2023") a relative phrase is relative to it: the date says when.
    if not days:
        try:
            days = _relative(question, now.date())
        except (OverflowError, ValueError):  # counted back past the first year the calendar has
            days = []
    return NamedDays(min(days), max(days)) if days else None


def _relative(question: str, today: date) -> list[date]:
    """The first and last day of each span named relative to today."""
    out: list[date] = []
    for match in _YESTERDAY.finditer(question):
        out.append(today - timedelta(days=2 if match[0].lower().startswith("the") else 1))
    for match in _THIS.finditer(question):
        word = match[1].lower().split()[-1]
        start = {"week": today - timedelta(days=today.weekday()), "month": today.replace(day=1)}.get(word, today)
        out += [start, today]
    for match in _AGO.finditer(question):
        count = int(match[1]) if match[1].isdigit() else _NUMBERS[match[1].lower()]
        unit = match[2].lower()
        centre = today - timedelta(days=count * _UNIT_DAYS[unit])
        out += [centre - timedelta(days=_AROUND[unit]), centre + timedelta(days=_AROUND[unit])]
    for match in _LAST.finditer(question):
        out += _last(match[1].lower(), today)
    return out


def _last(unit: str, today: date) -> list[date]:
    """The span "last <unit>" names: the previous calendar week, month or year, the latest weekend or weekday."""
    if unit == "week":
        monday = today - timedelta(days=today.weekday() + 7)
        return [monday, monday + timedelta(days=6)]
    if unit == "weekend":
        # The latest weekend that is over: on a Saturday or Sunday, the one before.
        saturday = today - timedelta(days=(today.weekday() - 5) % 7 or 7)
        if saturday + timedelta(days=1) >= today:
            saturday -= timedelta(days=7)
        return [saturday, saturday + timedelta(days=1)]
    if unit == "month":
        end = today.replace(day=1) - timedelta(days=1)
        return [end.replace(day=1), end]
    if unit == "year":
        return [date(today.year - 1, 1, 1), date(today.year - 1, 12, 31)]
    back = (today.weekday() - _WEEKDAYS.index(unit)) % 7 or 7  # "last Friday" on a Friday: a week ago
    return [today - timedelta(days=back)]


def _year(text: str | None) -> int | None:
    return int(text) if text else None


def _overlaps(span: tuple[int, int], taken: list[tuple[int, int]]) -> bool:
    return any(span[0] < end and start < span[1] for start, end in taken)


def _resolve(found: list[tuple[int, int, int | None]], named_years: list[int], now: datetime) -> list[date]:
    """Dates with their years filled in ("August 11 and 15, 2023": 2023); impossible dates (31 February) dropped."""
    years = [year for _, _, year in found if year is not None] or named_years
    out: list[date] = []
    for month, day, year in found:
        candidates = [year] if year is not None else [years[-1]] if years else [now.year, now.year - 1]
        for y in candidates:
            try:
                when = date(y, month, day)
            except ValueError:
                continue
            if year is not None or years or when <= now.date():
                out.append(when)
                break
    return out
