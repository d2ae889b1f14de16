"""``tiermem demo``: a short scripted session on a fresh temporary database."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from rich.console import Console

from tiermem.embed import get_embedder
from tiermem.memory import Memory, NewMemory
from tiermem.render import hits_table
from tiermem.types import Hit, Scope

__all__ = ["run_demo"]

_ALICE_NOTES = [
    NewMemory("My name is Alice and I live in Seattle."),
    NewMemory("My home airport is SEA; I always pick an aisle seat."),
    NewMemory("My dog is called Biscuit; she stays with my sister when I travel."),
    NewMemory("I am allergic to peanuts."),
    NewMemory("We booked the cabin at Lake Chelan for the first week of July.", type="episodic"),
    NewMemory("Hotel review page: the Chelan Lodge has a pool.", source="web:https://example.com/chelan"),
]
_BOB_NOTES = [
    NewMemory("I'm Bob. My cat Miso hates the vet."),
    NewMemory("I prefer window seats and fly out of PDX."),
]


def _show(console: Console, title: str, hits: list[Hit]) -> None:
    console.print(hits_table(hits, title))


def run_demo(embedder_name: str = "minilm") -> None:
    """Two users' memories: add, search with scores, isolation, forget."""
    console = Console()
    alice, bob = Scope("demo", "alice"), Scope("demo", "bob")
    with tempfile.TemporaryDirectory(prefix="tiermem-demo-") as tmp:
        path = Path(tmp) / "demo.db"
        console.rule("[bold]tiermem demo[/bold]")
        console.print(f"fresh database: {path}")
        start = time.perf_counter()
        with Memory.open(path, embedder=get_embedder(embedder_name)) as mem:
            added = mem.remember_many(alice, _ALICE_NOTES) + mem.remember_many(bob, _BOB_NOTES)
            again = mem.remember_many(alice, _ALICE_NOTES)
            console.print(
                f"remembered {len(added)} notes for alice and bob "
                f"({time.perf_counter() - start:.1f} s incl. model load); "
                f"re-ingesting alice's {len(again)} notes added "
                f"{sum(r.status.value == 'added' for r in again)} rows"
            )
            _show(
                console,
                "alice asks: what is my dog's name and where does she stay?",
                mem.recall(alice, "what is my dog's name and where does she stay?", k=3),
            )
            _show(console, "alice asks: which seat do I like?", mem.recall(alice, "which seat do I like?", k=3))
            _show(
                console,
                "alice asks: does the lodge have a pool? (a web page's note is flagged and down-ranked)",
                mem.recall(alice, "does the lodge have a pool?", k=2),
            )
            bob_hits = mem.recall(bob, "what is my dog's name and where does she stay?", k=3)
            _show(console, "bob asks the same dog question: he only ever sees his own notes", bob_hits)
            assert all(h.record.scope.user == "bob" for h in bob_hits)
            allergy = mem.recall(alice, "allergies", k=1)[0].record
            mem.forget(alice, allergy.id)
            remaining = [h.record.content for h in mem.recall(alice, "allergic to peanuts", k=5)]
            console.print(
                f"forgot [bold]{allergy.content!r}[/bold]; searching for it again finds: "
                f"{[c for c in remaining if 'peanut' in c] or 'nothing'}"
            )
            console.print(f"alice now holds {mem.store.count(alice)} records, bob {mem.store.count(bob)}")
        console.rule(f"done in {time.perf_counter() - start:.1f} s; the temporary database is deleted")
