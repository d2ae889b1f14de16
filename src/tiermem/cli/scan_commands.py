"""(internal) ``tiermem scan``, ``tiermem eval injection`` and ``tiermem quarantine list|release``.

``tiermem scan PATH|-`` scores text for prompt injection before it is ingested: each line of a text file, or
each record of a JSON array or JSON Lines file (its ``text`` field, or ``--field``). It prints one verdict per
item (clean, suspicious, quarantine) with the score and the reasons. Exit status: 0 when no item reaches
quarantine, 4 when at least one does (so a script can refuse the document), 2 for unreadable input (a JSON
file that is not JSON, a record without the field), 1 for other failures.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from tiermem.cli.database import open_memory
from tiermem.cli.options import embedder_option, scope_of, store_options
from tiermem.cli.render import emit_json, say
from tiermem.errors import ValidationError
from tiermem.jsonl import json_lines, load_json

if TYPE_CHECKING:
    from tiermem.types import MemoryRecord

__all__ = ["QUARANTINE_FOUND_EXIT", "eval_injection", "quarantine_group", "scan_command"]

QUARANTINE_FOUND_EXIT = 4


def _items(text: str, name: str, field: str) -> list[tuple[str, str]]:
    """(where, text) pairs: JSON records' ``field`` for .json/.jsonl (or text that parses as such), else lines."""
    stripped = text.lstrip()
    looks_json = name.endswith((".json", ".jsonl", ".ndjson")) or stripped.startswith(("[", "{"))
    if not looks_json:
        return [(f"line {n}", line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    records: list[tuple[str, Any]] = []
    try:
        parsed = load_json(text, "input")
        rows = parsed if isinstance(parsed, list) else [parsed]
        records = [(f"record {n}", row) for n, row in enumerate(rows, 1)]
    except json.JSONDecodeError:
        records = [(f"line {n}", row) for n, row in json_lines(text.splitlines(), lambda n: f"input, line {n}")]
    out: list[tuple[str, str]] = []
    for where, row in records:
        value = row.get(field, row.get("content")) if isinstance(row, dict) else row
        if not isinstance(value, str):
            raise ValidationError("input", f"{where} has no string '{field}' field", given=row)
        out.append((where, value))
    return out


@click.command("scan")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("--field", default="text", show_default=True, help="The text field of JSON records.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list instead of lines.")
@click.option("--all", "show_all", is_flag=True, help="Also list clean items (by default only flagged ones).")
@embedder_option("The model whose vectors the learned signal scores (minilm; any other: the rules alone).")
def scan_command(path: str, field: str, as_json: bool, show_all: bool, embedder: str) -> None:
    """Score each line (or JSON record) of PATH (- for standard input) for prompt injection.

    Exit status 0: nothing reaches quarantine; 4: at least one item does; 2: unreadable input.
    """
    from tiermem.embed import get_embedder
    from tiermem.trust.injection import ScanLevel
    from tiermem.trust.provenance import quote
    from tiermem.write.path import scan_texts

    text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    items = _items(text, path, field)
    verdicts = scan_texts([item for _, item in items], get_embedder(embedder))
    results = [(where, item, verdict) for (where, item), verdict in zip(items, verdicts, strict=True)]
    worst = sum(v.verdict is ScanLevel.QUARANTINE for _, _, v in results)
    if as_json:
        emit_json(
            [
                {"where": w, "verdict": v.verdict.value, "score": v.score, "reasons": list(v.reasons), "text": t}
                for w, t, v in results
            ]
        )
    else:
        for where, item, verdict in results:
            if verdict.verdict is ScanLevel.CLEAN and not show_all:
                continue
            shown = item if len(item) <= 100 else item[:97] + "..."
            say(f"{where}: {verdict.verdict.value} (score {verdict.score:.2f}) {quote(shown)}")
            for reason in verdict.reasons:
                say(f"  - {reason}")
        suspicious = sum(v.verdict is ScanLevel.SUSPICIOUS for _, _, v in results)
        clean = len(results) - worst - suspicious
        click.echo(f"{len(results)} items: {worst} quarantine, {suspicious} suspicious, {clean} clean")
    if worst:
        click.get_current_context().exit(QUARANTINE_FOUND_EXIT)


@click.command("injection")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, readable=True, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of tables.")
@click.option(
    "--threshold",
    type=click.FloatRange(0.0, 1.0, min_open=True),
    default=None,
    help="Score that counts as detected (default: the quarantine threshold, 0.5).",
)
@embedder_option("The model whose vectors the learned signal scores (minilm; any other: the rules alone).")
def eval_injection(path: Path, as_json: bool, threshold: float | None, embedder: str) -> None:
    """Detection and false-positive rates of the injection scorer on a labelled corpus, per split and technique."""
    from tiermem.embed import get_embedder
    from tiermem.eval.injection import injection_rates, load_corpus
    from tiermem.trust.injection import INJECTION_THRESHOLD

    chosen = threshold if threshold is not None else INJECTION_THRESHOLD
    report = injection_rates(load_corpus(path), chosen, get_embedder(embedder))
    if as_json:
        emit_json(report)
        return
    from rich.console import Console
    from rich.table import Table

    console = Console()
    for name, split in report["splits"].items():
        console.print(
            f"[bold]{name}[/bold]: detection {split['detection_rate']} on {split['hostile']} hostile notes, "
            f"false positives {split['false_positive_rate']} on {split['benign']} benign "
            f"(suspicious or worse: {split['benign_suspicious_rate']}; threshold {report['threshold']})"
        )
        table = Table(title=f"{name}: per technique", title_justify="left")
        for col in ("label", "technique", "notes", "rate"):
            table.add_column(col)
        for label, key in (("hostile", "hostile_by_technique"), ("benign", "benign_by_technique")):
            for technique, row in split[key].items():
                table.add_row(label, technique, str(row["n"]), f"{row['rate']:.3f}")
        console.print(table)
    how = "rules and the learned signal" if report["learned"] else "rules alone"
    console.print(f"{report['notes']} notes scored ({how}) in {report['seconds']} s ({report['ms_per_note']} ms each)")


def _flagged_json(record: MemoryRecord) -> dict[str, Any]:
    from tiermem.trust.injection import REASONS_KEY, SCORE_KEY, stored_level

    level = stored_level(record)
    return {
        "id": record.id,
        "verdict": None if level is None else level.value,
        "score": record.metadata.get(SCORE_KEY),
        "reasons": record.metadata.get(REASONS_KEY),
        "source": str(record.source),
        "created_at": record.created_at.isoformat(),
        "content": record.content,
    }


@click.group("quarantine")
def quarantine_group() -> None:
    """Review notes the write path quarantined or flagged, and release the ones an operator trusts."""


@quarantine_group.command("list")
@store_options
@click.option("--limit", type=int, default=100, show_default=True, help="Notes to show (1-1000).")
def list_quarantined(db: str | None, tenant: str, user: str, embedder: str, as_json: bool, limit: int) -> None:
    """List a user's quarantined and suspicious notes, newest first, with the verdict and its reasons."""
    from tiermem.trust.injection import QUARANTINE_TAG, SUSPICIOUS_TAG
    from tiermem.types import Filter

    with open_memory(db, embedder, create=False) as mem:
        page = mem.list(
            scope_of(tenant, user), filter=Filter(tags=frozenset({QUARANTINE_TAG, SUSPICIOUS_TAG})), limit=limit
        )
    rows = [_flagged_json(r) for r in page.records]
    if as_json:
        emit_json(rows)
        return
    from tiermem.trust.provenance import quote

    for row in rows:
        score = f"{row['score']:.2f}" if isinstance(row["score"], float) else "-"
        say(f"{row['id']} {row['verdict']} (score {score}) source={row['source']} {quote(row['content'])}")
        if row["reasons"]:
            say(f"  reasons: {row['reasons']}")
    click.echo(f"{len(rows)} flagged notes")


@quarantine_group.command("release")
@store_options
@click.argument("record_id")
@click.option("--actor", default="operator", show_default=True, help="Who releases it (kept in the audit log).")
def release_command(
    db: str | None, tenant: str, user: str, embedder: str, as_json: bool, record_id: str, actor: str
) -> None:
    """Release a quarantined or suspicious note: recall returns it as clean from now on (audited)."""
    with open_memory(db, embedder, create=False) as mem:
        record = mem.release(scope_of(tenant, user), record_id, actor=actor)
    if as_json:
        emit_json({"released": record.id, "version": record.version, "record": record.to_json()})
    else:
        click.echo(f"released {record.id} (version {record.version}, by {actor})")
