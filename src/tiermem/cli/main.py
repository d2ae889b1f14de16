"""(internal) The ``tiermem`` command line. Heavy modules are imported inside commands so ``--help`` stays instant.

Exit codes: 0 ok, 1 an operation failed, 2 bad input (usage or validation), 3 not found, 4 ``tiermem scan`` found
text that reaches quarantine.
"""

from __future__ import annotations

import json
import os
import sys

# The write path's matrix products (nearest neighbours, consolidation) are small: BLAS threads only contend with
# the requests running beside them. Set before numpy is first imported; an explicit setting by the user wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
from datetime import datetime
from typing import TYPE_CHECKING, Any, NoReturn

import click

from tiermem.cli.context_commands import budget
from tiermem.cli.database import open_memory, removed_if_failed
from tiermem.cli.eval_commands import eval_group
from tiermem.cli.import_command import import_command
from tiermem.cli.init_command import init_command
from tiermem.cli.lifecycle_commands import erase_command, sweep_command
from tiermem.cli.mcp_command import mcp_command
from tiermem.cli.messages_command import add_messages_command
from tiermem.cli.migrate_command import migrate_command
from tiermem.cli.options import scope_of, store_options
from tiermem.cli.pending_commands import pending_group
from tiermem.cli.render import emit_json, report_done, say
from tiermem.cli.scan_commands import eval_injection, quarantine_group, scan_command
from tiermem.cli.serve_commands import keys_group, serve_command
from tiermem.errors import MemError, NotFoundError, ValidationError

if TYPE_CHECKING:
    from tiermem.types import Hit


class _Group(click.Group):
    """Maps errors to a one-line message and an exit code: a user never sees a traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise  # click prints these itself (usage errors exit 2)
        except NotFoundError as exc:
            _fail(ctx, 3, str(exc))
        except ValidationError as exc:
            _fail(ctx, 2, str(exc))
        except MemError as exc:
            _fail(ctx, 1, str(exc))
        except OSError as exc:  # a file the command itself writes or reads (--output, an import file)
            _fail(ctx, 1, f"{exc.strerror or exc}" + (f": {exc.filename}" if exc.filename else ""))
        except Exception as exc:  # the last wall: a bug still ends in one line and exit 1
            if os.environ.get("TIERMEM_DEBUG"):
                raise
            _fail(ctx, 1, f"unexpected {type(exc).__name__}: {exc} (a bug; TIERMEM_DEBUG=1 shows the traceback)")


def _fail(ctx: click.Context, code: int, message: str) -> NoReturn:
    say(f"error: {message}", err=True)
    ctx.exit(code)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tiermem")
def cli() -> None:
    """tiermem: long-term memory for LLM agents, in one SQLite file."""


def _time(value: str | None, field: str) -> datetime | None:
    from tiermem.types import aware_time

    return None if value is None else aware_time(field, value)


def _print(table: Any) -> None:
    from rich.console import Console

    Console().print(table)


def hit_json(h: Hit) -> dict[str, Any]:
    """A hit as JSON: the record, the score and its parts."""
    return {
        "score": h.score,
        "relevance": h.relevance,
        "parts": {p.name: {"rank": p.rank, "raw": p.raw, "contribution": p.contribution} for p in h.parts},
        "flags": list(h.flags),
        "record": h.record.to_json(),
    }


@cli.command()
@store_options
@click.argument("content")
@click.option("--type", "type_", default="semantic", show_default=True, help="episodic, semantic or procedural.")
@click.option(
    "--source",
    default="user",
    show_default=True,
    help="user[:<name>], agent[:<name>], system, tool:<n>, web:<url>, import:<n>.",
)
@click.option("--tag", "tags", multiple=True, help="A tag (repeatable).")
@click.option("--ttl", type=float, default=None, help="Seconds until the memory expires.")
@click.option("--valid-from", default=None, help="When the fact became true (ISO 8601 with offset).")
def add(
    db: str | None,
    tenant: str,
    user: str,
    embedder: str,
    as_json: bool,
    content: str,
    type_: str,
    source: str,
    tags: tuple[str, ...],
    ttl: float | None,
    valid_from: str | None,
) -> None:
    """Remember CONTENT for a user; says which records it superseded and why, or the id of a held write."""
    from tiermem.cli.render import write_lines

    scope = scope_of(tenant, user)
    when = _time(valid_from, "valid_from")
    with removed_if_failed(db), open_memory(db, embedder, create=True) as mem:
        result = mem.remember(scope, content, type=type_, source=source, tags=tags, ttl=ttl, valid_from=when)
    if as_json:
        emit_json(result.to_json())
        return
    for line in write_lines(result):
        say(line)
    if result.pending_id is not None:
        where = f"--tenant {tenant} --user {user}" if tenant != "default" else f"--user {user}"
        click.echo(f"  held for approval: tiermem pending approve|reject {where} {result.pending_id}")


@cli.command()
@store_options
@click.argument("query")
@click.option("-k", "--k", "k", type=int, default=10, show_default=True, help="How many results (1-100).")
@click.option("--type", "types", multiple=True, help="Only these memory types (repeatable).")
@click.option("--as-of", default=None, help="What was valid at this time (ISO 8601 with offset).")
@click.option("--include-quarantined", is_flag=True, help="Also return quarantined notes (flagged, down-ranked).")
def search(
    db: str | None,
    tenant: str,
    user: str,
    embedder: str,
    as_json: bool,
    query: str,
    k: int,
    types: tuple[str, ...],
    as_of: str | None,
    include_quarantined: bool,
) -> None:
    """Hybrid search of a user's memories: each hit quoted, with id, time, source, trust and flags (--json: parts)."""
    from tiermem.types import Filter, MemoryType

    if not query.strip():  # as `add ""` is refused: an empty query can only ever find nothing
        raise ValidationError("query", "must not be empty", given=query)
    scope = scope_of(tenant, user)
    filter_ = Filter(types=frozenset(MemoryType.parse(t) for t in types))
    with open_memory(db, embedder, create=False) as mem:
        when = _time(as_of, "as_of")
        hits = mem.recall(scope, query, k=k, filter=filter_, as_of=when, include_quarantined=include_quarantined)
    if as_json:
        emit_json([hit_json(h) for h in hits])
    else:
        from tiermem.trust.provenance import MEMORY_IS_DATA, quote, render_hits

        header = f"{len(hits)} hits for {quote(query)}, best first ({MEMORY_IS_DATA}: each hit is quoted data):"
        say(render_hits(hits, header))


@cli.command()
@store_options
@click.argument("record_id")
def get(db: str | None, tenant: str, user: str, embedder: str, as_json: bool, record_id: str) -> None:
    """Show one record of the user."""
    with open_memory(db, embedder, create=False) as mem:
        record = mem.get(scope_of(tenant, user), record_id)
    if as_json:
        emit_json(record.to_json())
    else:
        from tiermem.cli.render import records_table

        _print(records_table([record], record.id))


@cli.command()
@store_options
@click.argument("entity")
@click.option("--limit", type=int, default=20, show_default=True, help="At most this many records (1-200).")
def related(db: str | None, tenant: str, user: str, embedder: str, as_json: bool, entity: str, limit: int) -> None:
    """What a user's memory holds around a person, place or thing: the records naming it, those of their sessions
    and days and their other versions, each with how it connects; the other names that occur with it."""
    with open_memory(db, embedder, create=False) as mem:
        found = mem.related(scope_of(tenant, user), entity, limit=limit)
    if as_json:
        emit_json(found.to_json())
    else:
        from tiermem.cli.render import neighbours_table, related_table

        _print(related_table(found.records, f"{len(found.records)} records around {found.entity!r}"))
        if found.neighbours:
            _print(neighbours_table(found.neighbours, "named with it"))


@cli.command("list")
@store_options
@click.option("--limit", type=int, default=50, show_default=True, help="Records per page (1-1000).")
@click.option("--cursor", default=None, help="The next_cursor of the previous page.")
def list_(db: str | None, tenant: str, user: str, embedder: str, as_json: bool, limit: int, cursor: str | None) -> None:
    """List a user's live records, newest first."""
    with open_memory(db, embedder, create=False) as mem:
        page = mem.list(scope_of(tenant, user), limit=limit, cursor=cursor)
    if as_json:
        emit_json({"records": [r.to_json() for r in page.records], "next_cursor": page.next_cursor})
    else:
        from tiermem.cli.render import records_table

        _print(records_table(page.records, f"{len(page.records)} records"))
        if page.next_cursor:
            click.echo(f"more: --cursor {page.next_cursor}")


@cli.command()
@store_options
@click.argument("record_id")
def forget(db: str | None, tenant: str, user: str, embedder: str, as_json: bool, record_id: str) -> None:
    """Delete one record (text, full-text index and vector)."""
    with open_memory(db, embedder, create=False) as mem:
        mem.forget(scope_of(tenant, user), record_id)
    report_done(as_json, "forgotten", record_id)


@cli.command()
@store_options
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Write to this file instead of standard output.",
)
def export(db: str | None, tenant: str, user: str, embedder: str, as_json: bool, output: str | None) -> None:
    """Export everything held about a user as JSON (records with history, core blocks, audit log...)."""
    with open_memory(db, embedder, create=False) as mem:
        data = mem.export(scope_of(tenant, user))
    if output:
        with open(output, "w", encoding="utf-8") as fh:
            fh.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
        click.echo(f"exported {len(data['records'])} records to {output}", err=True)
    else:
        emit_json(data)


@cli.command()
@store_options
@click.option("--dry-run", is_flag=True, help="Show what would change without writing.")
def consolidate(db: str | None, tenant: str, user: str, embedder: str, as_json: bool, dry_run: bool) -> None:
    """Merge paraphrases and close superseded facts already stored for a user (safe to re-run)."""
    with open_memory(db, embedder, create=False) as mem:
        actions = mem.consolidate(scope_of(tenant, user), dry_run=dry_run)
    if as_json:
        emit_json([{"kind": a.kind.value, "keep": a.keep, "retire": a.retire, "reason": a.reason} for a in actions])
        return
    verb = "would " if dry_run else ""
    for a in actions:
        say(f"{verb}{a.kind.value}: keep {a.keep}, retire {a.retire} ({a.reason})")
    click.echo(f"{len(actions)} change(s){' (dry run: nothing written)' if dry_run else ''}")


@cli.command()
@click.option("--embedder", type=click.Choice(["minilm", "hash"]), default="minilm", show_default=True)
def demo(embedder: str) -> None:
    """A short scripted session on a fresh temporary database."""
    from tiermem.cli.demo import run_demo

    run_demo(embedder)


@cli.command()
@click.option(
    "--records",
    type=click.IntRange(100, 2_000_000),
    default=100_000,
    show_default=True,
    help="Records in the one large scope.",
)
@click.option(
    "--scopes",
    type=click.IntRange(1, 100_000),
    default=1000,
    show_default=True,
    help="Scopes of 100 records each in the multi-scope run.",
)
@click.option("--queries", type=click.IntRange(10, 100_000), default=200, show_default=True)
@click.option(
    "--embed-sample",
    type=click.IntRange(32, 100_000),
    default=2000,
    show_default=True,
    help="Records ingested with the real model to measure records/s.",
)
@click.option("--embedder", type=click.Choice(["minilm", "hash"]), default="minilm", show_default=True)
@click.option("--write-path", is_flag=True, help="Measure writes/s through the full write path at 10k and --records.")
@click.option("--json", "as_json", is_flag=True)
def bench(
    records: int, scopes: int, queries: int, embed_sample: int, embedder: str, write_path: bool, as_json: bool
) -> None:
    """Measure ingest rate, search latency and bytes per record (or, with --write-path, writes/s)."""
    if write_path:
        from tiermem.bench.write import run_write_bench

        emit_json(run_write_bench(sizes=tuple(sorted({min(10_000, records), records})), embedder=embedder))
        return
    from tiermem.bench.recall import run_bench

    report = run_bench(
        records=records,
        scopes=scopes,
        queries=queries,
        embed_sample=embed_sample,
        embedder=embedder,
        progress=not as_json and sys.stderr.isatty(),
    )
    if as_json:
        emit_json(report)
    else:
        from tiermem.bench.recall import print_report

        print_report(report)


# Commands defined in their own modules; each keeps its heavy imports inside its functions.
cli.add_command(eval_group)
cli.add_command(budget)
cli.add_command(sweep_command)
cli.add_command(erase_command)
cli.add_command(import_command)
cli.add_command(pending_group)
cli.add_command(serve_command)
cli.add_command(keys_group)
cli.add_command(mcp_command)
cli.add_command(scan_command)
cli.add_command(quarantine_group)
eval_group.add_command(eval_injection)
cli.add_command(migrate_command)
cli.add_command(init_command)
cli.add_command(add_messages_command)


def main() -> None:
    """Console-script entry point."""
    cli(prog_name="tiermem")
