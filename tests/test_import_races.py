"""Imports racing each other and the user's other writes, through two handles on one store (two Memory objects on a
SQLite file, as two processes would have, and PostgreSQL).

An import writes through the same serialised write path as any write: a text the other writer stored (or the
other import) is stored once, the full-text statistics recall weighs words by agree with the records, and an
import that lost a race on a core block fails whole with ConflictError saying retry; run again, it adds nothing.
"""

from __future__ import annotations

import contextlib
import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from at_once import at_once
from tiermem.embed import HashingEmbedder
from tiermem.errors import ConflictError
from tiermem.integrations.letta_import import import_letta
from tiermem.integrations.mem0_import import Mem0Defaults, import_mem0
from tiermem.memory import Memory
from tiermem.store.base import TermStatistics
from tiermem.tokens import counter_for_model
from tiermem.types import Scope

ROUNDS = 4
AGENT_FILE = Path(__file__).parent / "fixtures" / "letta_agent.af"
TEXTS = [f"Kestrel fact {w}: the {w} lantern hangs by the quarry gate." for w in ("amber", "basil", "cobalt", "delta")]


@pytest.fixture(params=["sqlite-two", "postgres"])
def pair(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Memory, Memory]]:
    url = (
        request.getfixturevalue("pg_server").schema_url("imports")
        if request.param == "postgres"
        else str(tmp_path / "races.db")
    )
    with contextlib.ExitStack() as stack:
        one = stack.enter_context(Memory.open(url, embedder=HashingEmbedder(dim=64)))
        yield one, stack.enter_context(Memory.open(url, embedder=HashingEmbedder(dim=64)))


def _stored_once_and_counted(memory: Memory, scope: Scope) -> None:
    records = memory.store.scope_records(scope)
    # A text may stand twice only as a closed statement and its restatement (a user saying again what an import's
    # later fact superseded); never two current copies, and never an import's memory twice.
    live = Counter((r.content, r.scope.session) for r in records if r.valid_to is None)
    twice = {text: n for text, n in live.items() if n > 1}
    assert not twice, f"stored twice: {twice}"
    imported = Counter(r.content for r in records if str(r.source).startswith("import:"))
    assert all(n == 1 for n in imported.values()), f"imported twice: {imported}"
    store = memory.store
    assert isinstance(store, TermStatistics)
    docs, counts = store.term_document_counts(scope, ["kestrel"])
    assert (docs, counts["kestrel"]) == (len(records), sum("Kestrel" in r.content for r in records))


def test_two_mem0_imports_racing_the_users_writes_store_each_text_once(pair: tuple[Memory, Memory]) -> None:
    one, two = pair
    for n in range(ROUNDS):
        scope = Scope("acme", f"mem0-{n}")
        data = {"results": [{"memory": text, "user_id": scope.user} for text in TEXTS]}
        at_once(
            lambda data=data: import_mem0(one, data, Mem0Defaults("acme")),
            lambda data=data: import_mem0(two, data, Mem0Defaults("acme")),
            lambda scope=scope: [two.remember(scope, text) for text in TEXTS[::2]],
        )
        _stored_once_and_counted(one, scope)


def test_two_letta_imports_at_once_store_each_message_once_and_the_loser_says_retry(
    pair: tuple[Memory, Memory],
) -> None:
    one, two = pair
    data = json.loads(AGENT_FILE.read_text())
    counter = counter_for_model("gpt-4o")
    for n in range(ROUNDS):
        scope = Scope("acme", f"letta-{n}")
        lost: list[ConflictError] = []

        def run(memory: Memory, scope: Scope = scope, lost: list[ConflictError] = lost) -> None:
            try:
                import_letta(memory, data, scope, core_budget=400, counter=counter)
            except ConflictError as exc:  # the other import defined a core block first
                lost.append(exc)

        at_once(lambda: run(one), lambda: run(two))
        assert all("retry" in str(error) for error in lost)
        _stored_once_and_counted(one, scope)
        held = len(one.store.scope_records(scope))
        again = import_letta(two, data, scope, core_budget=400, counter=counter)  # the retry: nothing new
        assert not any(n for what, n in again.counts.items() if what.endswith(" added") or what.endswith("defined"))
        assert len(one.store.scope_records(scope)) == held
