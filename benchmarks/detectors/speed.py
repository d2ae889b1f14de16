"""What the detectors cost where they run: every write (credentials) and every prompt (PII).

- writes/s of ``Memory.remember`` (SQLite in memory, the hash embedder) with credential refusal on, against the
  same writes with it off (``ScanPolicy(refuse_secrets=False)``), interleaved in rounds; the median of each;
- ``PiiMasker.mask`` against counting the same prompt's tokens (``TiktokenCounter``), which every prompt pays
  anyway: prompts/s of each and the ratio;
- ``PiiMasker.mask`` of a large JSON tool result (``--records`` records of six fields, read string by string)
  against counting its tokens: milliseconds each.

The notes are everyday messages (most with numbers, a few with a URL, a hash or an order id) and none holds a
credential, as nearly every real write; a prompt is twenty of them.

    .venv/bin/python benchmarks/detectors/speed.py [--notes 600] [--rounds 5] [--records 500]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable

from tiermem import Memory, ScanPolicy, Scope, WritePolicy
from tiermem.tokens import TiktokenCounter
from tiermem.trust.pii import PiiMasker

TEMPLATES = [
    "Booked the table at Luigi's for {n} people on Friday at {h}:30.",
    "Remind me to call the dentist about the appointment on {d}/0{m}/2026.",
    "The flight lands at {h}:{mm} in terminal {t}; the gate might change.",
    "Order #{o} shipped; tracking says it arrives in {t} days.",
    "Anna prefers window seats and vegetarian meals on long flights.",
    "Spent ${n}.{mm} on groceries this week, mostly vegetables and rice.",
    "The release notes for v{t}.{m}.{n} mention a fix for the sync bug.",
    "Commit {hx} fixed the flaky test in the billing service.",
    "Read https://blog.example.org/posts/{o}/why-sleep-matters later.",
    "Kids' school closes at {h}:15 on Wednesdays; pick-up is at the side gate.",
    "Meeting with the landlord about the heating, room {n}, floor {t}.",
    "Running total for the marathon training: {n} km this month.",
    "My sister's birthday is in {m} weeks; she wants a book about birds.",
    "The wifi at the cabin is slow after {h} pm, download early.",
    "Quarterly report: revenue up {t}.{m}% and churn down to {m}.{t}%.",
]


def notes(count: int, seed: int = 7) -> list[str]:
    """Everyday notes with numbers, dates, versions, URLs and hashes in them."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        template = TEMPLATES[i % len(TEMPLATES)]
        out.append(
            template.format(
                n=rng.randint(2, 400),
                h=rng.randint(1, 12),
                mm=rng.randint(10, 59),
                d=rng.randint(10, 28),
                m=rng.randint(1, 9),
                t=rng.randint(1, 9),
                o=rng.randint(10**6, 10**8),
                hx="".join(rng.choice("0123456789abcdef") for _ in range(40)),
            )
        )
    return out


def tool_result(records: int) -> str:
    """A search tool's JSON answer: records of an id, a user name, a city, a note, a time and tags, no PII."""
    rows = [
        {"id": i, "name": f"user{i}", "city": "Paris", "note": "ordered 3 items, shipped", "ts": "2026-12-07T03:00:00Z"}
        | {"tags": ["a", "b"]}
        for i in range(records)
    ]
    return json.dumps({"results": rows})


def _milliseconds(call: Callable[[str], object], text: str) -> float:
    start = time.perf_counter()
    call(text)
    return (time.perf_counter() - start) * 1000


def _writes_per_second(texts: list[str], refuse: bool) -> float:
    policy = WritePolicy(scan=ScanPolicy(refuse_secrets=refuse))
    with Memory.open(":memory:", embedder="hash", write_policy=policy) as mem:
        scope = Scope("bench", "ann")
        start = time.perf_counter()
        for text in texts:
            mem.remember(scope, text)
        return len(texts) / (time.perf_counter() - start)


def _per_second(call: Callable[[str], object], prompts: list[str]) -> float:
    start = time.perf_counter()
    for prompt in prompts:
        call(prompt)
    return len(prompts) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--notes", type=int, default=600)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--records", type=int, default=500)
    args = parser.parse_args()
    texts = notes(args.notes)
    prompts = [" ".join(texts[i : i + 20]) for i in range(0, len(texts), 20)]
    counter = TiktokenCounter("o200k_base")
    masker = PiiMasker()
    _writes_per_second(texts[:50], True)  # warm up: imports, caches, the lazily loaded detect-secrets plugins
    masker.mask(prompts[0])
    result = tool_result(args.records)
    on, off, mask, count, mask_json, count_json = [], [], [], [], [], []
    for _ in range(args.rounds):
        off.append(_writes_per_second(texts, False))
        on.append(_writes_per_second(texts, True))
        mask.append(_per_second(masker.mask, prompts))
        count.append(_per_second(counter.count, prompts))
        mask_json.append(_milliseconds(masker.mask, result))
        count_json.append(_milliseconds(counter.count, result))
    w_on, w_off = statistics.median(on), statistics.median(off)
    m, c = statistics.median(mask), statistics.median(count)
    print(f"remember, refusal on : {w_on:8.1f} writes/s (median of {args.rounds} rounds of {len(texts)} notes)")
    print(f"remember, refusal off: {w_off:8.1f} writes/s")
    print(f"  on / off = {w_on / w_off:.3f}")
    print(f"mask a prompt        : {m:8.1f} prompts/s ({len(prompts)} prompts of 20 notes, ~{len(prompts[0])} chars)")
    print(f"count its tokens     : {c:8.1f} prompts/s")
    print(f"  mask time / count time = {c / m:.2f}")
    mj, cj = statistics.median(mask_json), statistics.median(count_json)
    print(f"mask a JSON result   : {mj:8.1f} ms ({args.records} records, {len(result):,} chars)")
    print(f"count its tokens     : {cj:8.1f} ms")


if __name__ == "__main__":
    main()
