"""The detectors measured through the doors users take: credentials in every field, PII through the chat route.

Credentials: each ``secret`` case (and each near miss) is written with ``Memory.remember`` as the content, as a
metadata value, as a tag and inside a source's name; a case is refused in a field when the write gate raises
``SecretRefusedError`` there (a field whose own rules refuse the text first, a tag with a space say, is counted
apart; a metadata value is stored under the name its case gives, as a user would store it).

PII: a ``tiermem serve`` on a temporary database with ``--pii-mask always`` and a recording fake of the OpenAI
API as its model; each case is said in a chat turn of its own, and a value counts as masked when it does not
occur in what the model received (a near miss counts as altered when its text does not occur whole).

    .venv/bin/python benchmarks/detectors/doors.py --set fresh
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[1] / "tests"))

from run import FILES, load  # noqa: E402

from fake_openai import FakeOpenAI  # noqa: E402
from live_server import live_server  # noqa: E402
from tiermem import Memory, NewMemory, Scope  # noqa: E402
from tiermem.errors import SecretRefusedError, ValidationError  # noqa: E402

SCOPE = Scope("bench", "ann")
FIELDS = {
    "content": lambda case: NewMemory(case["text"]),
    "metadata": lambda case: NewMemory("a plain note", metadata={case.get("name", "note"): case["text"]}),
    "tag": lambda case: NewMemory("a plain note", tags=[case["text"]]),
    "source": lambda case: NewMemory("a plain note", source=f"tool:{case['text']}"),
}


def credentials(cases: list[dict[str, str]]) -> None:
    """Refused share per field, for the credentials and for their near misses."""
    with Memory.open(":memory:", embedder="hash") as memory:
        for label in ("secret", "near_miss"):
            chosen = [c for c in cases if c["label"] == label]
            print(f"{label}: {len(chosen)} cases of {len({c['kind'] for c in chosen})} kinds")
            for name, make in FIELDS.items():
                outcome: Counter[str] = Counter()
                for case in chosen:
                    try:
                        memory.remember_many(SCOPE, [make(case)])
                        outcome["stored"] += 1
                    except SecretRefusedError:
                        outcome["refused"] += 1
                    except ValidationError:
                        outcome["field rules"] += 1
                judged = outcome["refused"] + outcome["stored"]
                share = outcome["refused"] / max(1, judged)
                print(f"  {name:9} refused {share:.3f} ({outcome['refused']}/{judged}); refused by the field's "
                      f"own rules first: {outcome['field rules']}")  # fmt: skip


def pii(cases: list[dict[str, str]]) -> None:
    """Masked share per kind through the chat route, and altered share of the near misses."""
    masked: dict[str, list[int]] = {}
    with (
        tempfile.TemporaryDirectory() as folder,
        FakeOpenAI() as model,
        live_server(Path(folder) / "pii.db", llm_url=model.base_url, llm_model="m", pii_mask="always") as s,
        s.client(s.key(SCOPE.tenant, SCOPE.user)) as http,
    ):
        for i, case in enumerate(cases):
            model.reply("ok")
            said = http.post(f"/v1/sessions/pii-{i}/messages", json={"text": case["text"]})
            if said.status_code != 200:
                print(f"  not sent ({said.status_code}): {case['kind']}")
                continue
            seen = json.dumps(model.chat_requests[-1].body, ensure_ascii=False)
            if case["label"] == "pii":
                hit = case["value"] not in seen
                kind = f"{case['kind']}" + (f" {case['region']}" if case.get("region") else "")
            else:
                hit = json.dumps(case["text"], ensure_ascii=False)[1:-1] not in seen
                kind = f"near miss: {case['kind']}"
            row = masked.setdefault(kind, [0, 0])
            row[0] += hit
            row[1] += 1
    for positive in (True, False):
        rows = {k: v for k, v in masked.items() if k.startswith("near miss") != positive}
        done, total = sum(v[0] for v in rows.values()), sum(v[1] for v in rows.values())
        print(f"{'masked' if positive else 'near misses altered'}: {done / max(1, total):.3f} ({done}/{total})")
        for kind, (hit, n) in sorted(rows.items()):
            print(f"  {kind:32} {hit} / {n}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", choices=sorted(FILES), default="fresh")
    args = parser.parse_args()
    secrets_file, pii_file = FILES[args.set]
    print(f"credentials in every field ({args.set}):")
    credentials(load(secrets_file))
    print(f"PII through the chat route with --pii-mask always ({args.set}):")
    pii(load(pii_file))


if __name__ == "__main__":
    main()
