"""What the writers share: the store under test, its users, unique texts, and what a write's answer promises."""

from __future__ import annotations

import itertools
import queue
import random
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from chaoslib.clients import Answer, Rest
from chaoslib.fleet import Server
from chaoslib.ledger import Expectation, Ledger, Present, PresentId

TENANT = "chaos"
GENERAL = tuple(f"u{i}" for i in range(6))  # every door writes notes here
SLOTS = tuple(f"s{i}" for i in range(4))  # only facts of one slot, from every door: at most one current each
SLOT_PREFIX = "My favourite drink is"
HELD = "h0"  # procedural notes from an untrusted source, held until the inspector approves them
EDITED = "i0"  # the inspector's own notes, which it edits
VICTIMS = ("v0", "v1")  # written, then erased through the inspector
BLOCK = "notes"
BLOCK_LIMIT = 300  # tokens (the server's core budget per agent is 400)
LINES_PER_BLOCK = 10  # ~12 tokens a line: a block never reaches its cap
_SYLLABLES = "ba be bi bo bu da de di do du fa fe fi fo fu ka ke ki ko ku la le li lo lu ma me mi mo mu".split()


class Words:
    """Pseudo-words: random ones, and ones unique for the run (so no two writes send the same text by chance)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.serial = itertools.count(1)
        self.lock = threading.Lock()

    def unique(self) -> str:
        """A word no other call returns: the serial number spelt in syllables."""
        with self.lock:
            n = next(self.serial)
        word = ""
        while True:
            n, digit = divmod(n, len(_SYLLABLES))
            word += _SYLLABLES[digit]
            if n == 0:
                return "z" + word

    def some(self, k: int) -> str:
        with self.lock:
            return " ".join("".join(self.rng.choices(_SYLLABLES, k=3)) for _ in range(k))

    def note(self, door: str) -> str:
        """A text no other write sends, sharing few words with any other."""
        return f"{door} note {self.unique()} {self.some(4)}"

    def fact(self) -> str:
        """A new value for the one slot every slot user's facts fill."""
        return f"{SLOT_PREFIX} now {self.unique()}"


@dataclass
class BlockPool:
    """The core block appends go to: the same block for several writers at once, a fresh one when it is full."""

    store: str
    rng: random.Random
    lock: threading.Lock = field(default_factory=threading.Lock)
    serial: itertools.count[int] = field(default_factory=itertools.count)
    current: tuple[str, str] | None = None  # (user, agent)
    used: int = 0

    def take(self, rest: Rest) -> tuple[str, str] | None:
        """The (user, agent) of the block for one more line (defined first if new); None: no server answered."""
        with self.lock:
            if self.current is None or self.used >= LINES_PER_BLOCK:
                user, agent = self.rng.choice(GENERAL), f"b{next(self.serial)}"
                answer = rest.call(
                    "PUT", f"/v1/core/{BLOCK}", params={"user": user, "agent": agent},
                    body={"limit": BLOCK_LIMIT, "description": "lines appended by the chaos harness"},
                )  # fmt: skip
                if not answer.ok:
                    return None
                self.current, self.used = (user, agent), 0
            self.used += 1
            return self.current


@dataclass
class Target:
    """One store under test and everything its writers need."""

    store: str  # sqlite or postgres
    db: str  # the file or URL (the CLI's --db)
    servers: Sequence[Server]
    admin: str  # an admin key of the tenant (REST with ?user=, the inspector)
    user_keys: dict[str, str]  # a key per user (MCP: the scope is the key's)
    blocks: BlockPool
    held: queue.Queue[tuple[str, str]] = field(default_factory=queue.Queue)  # (pending id, text) to approve


@dataclass
class Run:
    """The shared state of one harness run."""

    ledger: Ledger
    words: Words
    stop: threading.Event
    retry_for: float
    seed: int
    keys: itertools.count[int] = field(default_factory=itertools.count)

    def key(self, door: str) -> str:
        """A new idempotency key."""
        return f"chaos-{self.seed}-{door}-{next(self.keys)}"


def promised(store: str, user: str, text: str, result: dict[str, Any]) -> Expectation | None:
    """What an acknowledged write's result promises: its text stored, or the record it was folded into kept."""
    status = result.get("status")
    if status in ("added", "superseded"):
        return Present(store, user, text)
    if status in ("unchanged", "merged"):
        return PresentId(store, user, str(result["record"]["id"]))
    return None  # pending: held, nothing stored yet


def outcome(answer: Answer) -> str:
    """acked, unresolved (no answer in time), refused (4xx) or failed (5xx: a bug of the server)."""
    if answer.status is None:
        return "unresolved"
    if answer.ok:
        return "acked"
    return "failed" if answer.status >= 500 else "refused"
