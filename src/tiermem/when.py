"""The days a question names ("on 8 May, 2023", "May 8th", "in June 2023"): recall's time prior. English only."""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, datetime

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
        days += [date(year, month, 1), date(year, month, calendar.monthrange(year, month)[1])]
    return NamedDays(min(days), max(days)) if days else None


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
