"""What the writers were told: every operation, and for each acknowledged one what must now be in the database.

An operation is acknowledged when its door said it was done: a 2xx answer (REST, the inspector's redirect after
a form), an MCP tool result that is not an error, a CLI exit status 0. Only acknowledged operations leave
expectations; an operation whose answer never came (its server was killed, the retries ran out) may or may not
have been stored, and nothing is expected of it.
"""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Present:
    """This exact text is stored in the user's scope (in ``session`` when given)."""

    store: str
    user: str
    text: str
    session: str | None = None


@dataclass(frozen=True, slots=True)
class PresentId:
    """The record the answer named is stored in the user's scope (a duplicate or a paraphrase was folded in it)."""

    store: str
    user: str
    record_id: str


@dataclass(frozen=True, slots=True)
class InBlock:
    """This line is in the core block exactly once."""

    store: str
    user: str
    agent: str
    block: str
    line: str


@dataclass(frozen=True, slots=True)
class EditedTo:
    """The record holds the text of its last acknowledged edit, or of an edit sent after it (answer lost)."""

    store: str
    user: str
    record_id: str
    texts: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Erased:
    """Nothing of the user is left but its redacted audit entries."""

    store: str
    user: str


Expectation = Present | PresentId | InBlock | EditedTo | Erased


@dataclass(frozen=True, slots=True)
class Op:
    """One operation as its writer saw it: where, what, and how it ended."""

    door: str  # rest, mcp, cli, inspector
    kind: str  # note, batch, transcript, append, slot, race, held, approve, edit, erase
    store: str
    outcome: str  # acked, unresolved (no answer within the retry window), refused (4xx), failed (5xx)
    writes: int = 0  # records or lines it wrote when acknowledged
    attempts: int = 1
    detail: str = ""
    server: str = ""  # the server that acknowledged it (MCP, REST, inspector)


@dataclass
class Ledger:
    """Thread-safe: operations, expectations, and events (kills)."""

    ops: list[Op] = field(default_factory=list)
    expectations: list[Expectation] = field(default_factory=list)
    events: Counter[str] = field(default_factory=Counter)
    down: dict[str, list[float]] = field(default_factory=dict)  # what was killed -> seconds until it served again
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, op: Op, *expect: Expectation | bool | None) -> None:
        """Note an operation and, if it was acknowledged, what it promises (falsy entries: nothing)."""
        with self._lock:
            self.ops.append(op)
            if op.outcome == "acked":
                self.expectations.extend(e for e in expect if e and not isinstance(e, bool))

    def expect(self, *expect: Expectation) -> None:
        """Add expectations that follow several operations (an edited record's final text)."""
        with self._lock:
            self.expectations.extend(expect)

    def event(self, name: str) -> None:
        with self._lock:
            self.events[name] += 1

    def downtime(self, what: str, seconds: float) -> None:
        with self._lock:
            self.down.setdefault(what, []).append(seconds)

    def downtimes(self) -> dict[str, str]:
        """Per kind of process killed: the seconds from each kill until it served again, as "min-max"."""
        with self._lock:
            return {k: f"{min(v):.1f}-{max(v):.1f}" for k, v in sorted(self.down.items())}

    def acked_writes(self, store: str | None = None) -> int:
        """Records and lines written by acknowledged operations."""
        with self._lock:
            return sum(o.writes for o in self.ops if o.outcome == "acked" and store in (None, o.store))

    def acked_by_server(self) -> dict[str, int]:
        """Writes acknowledged by each server process."""
        out: Counter[str] = Counter()
        with self._lock:
            for op in self.ops:
                if op.outcome == "acked" and op.server:
                    out[op.server] += op.writes
        return dict(sorted(out.items()))

    def troubles(self, shown: int = 3) -> dict[str, list[str]]:
        """A few details of the operations that were not acknowledged, per door, kind and outcome."""
        out: dict[str, list[str]] = {}
        with self._lock:
            for op in self.ops:
                if op.outcome != "acked":
                    row = out.setdefault(f"{op.door} {op.kind} {op.outcome}", [])
                    if len(row) < shown:
                        row.append(op.detail)
        return dict(sorted(out.items()))

    def summary(self) -> dict[str, dict[str, int]]:
        """Operations per door and kind, by outcome."""
        out: dict[str, dict[str, int]] = {}
        with self._lock:
            for op in self.ops:
                row = out.setdefault(f"{op.door} {op.kind}", {})
                row[op.outcome] = row.get(op.outcome, 0) + 1
        return dict(sorted(out.items()))
