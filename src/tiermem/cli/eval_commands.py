"""(internal) ``tiermem eval``: retrieval quality on LoCoMo, LongMemEval and knowledge-update data.

Heavy imports (the eval package, the store, the embedder, rich) happen inside the commands so that
``tiermem --help`` stays fast.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from tiermem.cli.options import embedder_option
from tiermem.errors import MemError

if TYPE_CHECKING:
    from tiermem.eval.report import ReportData
    from tiermem.memory import Memory

__all__ = ["eval_group", "parse_ks"]


def parse_ks(text: str) -> tuple[int, ...]:
    """Parse '5,10' into sorted distinct cut-offs, each from 1 to 100; ValueError says what is wrong."""
    from tiermem.recall.search import MAX_K

    values: set[int] = set()
    for part in text.split(","):
        part = part.strip()
        if not part.isdigit() or not 1 <= int(part) <= MAX_K:
            raise ValueError(f"each k must be a whole number from 1 to {MAX_K}, got {part!r} in {text!r}")
        values.add(int(part))
    return tuple(sorted(values))


def _ks_option(_ctx: click.Context, _param: click.Parameter, value: str) -> tuple[int, ...]:
    try:
        return parse_ks(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


_DATA = click.argument("path", type=click.Path(exists=True, dir_okay=False, readable=True, path_type=Path))
_KS = click.option(
    "--k",
    "ks",
    default="5,10",
    show_default=True,
    callback=_ks_option,
    help="Cut-offs, comma-separated (each 1-100).",
)
_JSON = click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of a table.")
_EMBEDDER = embedder_option("The model to measure.", envvar=None)
_REPORT = click.option(
    "--report",
    "report_dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Also write a Markdown report (and a bar chart when matplotlib is installed) into this directory.",
)
_LIMIT = click.option("--limit", type=click.IntRange(min=1), help="Score only the first N questions (quick runs).")
_DB = click.option(
    "--db",
    "db",
    metavar="URL",
    help="Run on this PostgreSQL database (postgresql://...), in a new schema dropped afterwards;"
    " default: a temporary SQLite file.",
)
_CACHE = click.option(
    "--embed-cache",
    "embed_cache",
    type=click.Path(file_okay=False, path_type=Path),
    help="Reuse embeddings kept in this directory (keyed by model and text) and add new ones: fast re-runs.",
)


@click.group("eval")
def eval_group() -> None:
    """Measure retrieval quality on public benchmarks (no LLM needed)."""


@contextmanager
def _temporary_memory(
    embedder_name: str, cache: Path | None = None, db: str | None = None
) -> Iterator[Callable[[], Memory]]:
    """Yield an opener of one temporary database (with one embedder, maybe cached), deleted afterwards: a SQLite
    file, or with ``db`` a new schema in that PostgreSQL database."""
    from tiermem.embed import Embedder, get_embedder
    from tiermem.eval.embed_cache import CachedEmbedder
    from tiermem.memory import Memory

    embedder: Embedder = get_embedder(embedder_name)
    cached = CachedEmbedder(embedder, cache) if cache is not None else None
    try:
        from tiermem.store.databases import scratch_database

        with scratch_database(db, "tiermem_eval") as url:
            yield lambda: Memory.open(url, embedder=cached or embedder)
    finally:
        if cached is not None:
            cached.close()


@contextmanager
def _progress(label: str, total: int | None) -> Iterator[Callable[[], None]]:
    """Yield an 'advance by one' callback; a rich progress bar only when stdout is a terminal."""
    if not sys.stdout.isatty():
        yield lambda: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=total)
        yield lambda: bar.advance(task)


@contextmanager
def _one_memory(
    embedder_name: str, label: str, total: int, cache: Path | None = None, db: str | None = None
) -> Iterator[tuple[Memory, Callable[[], None]]]:
    """One temporary memory for a whole run, closed afterwards, and a progress callback."""
    with _temporary_memory(embedder_name, cache, db) as open_memory, _progress(label, total) as advance:
        memory = open_memory()
        try:
            yield memory, advance
        finally:
            memory.close()


@contextmanager
def _edge() -> Iterator[None]:
    """Turn library errors into a clean CLI error message."""
    try:
        yield
    except MemError as exc:
        raise click.ClickException(str(exc)) from exc


def _emit(payload: Mapping[str, Any], as_json: bool, report: ReportData, report_dir: Path | None) -> None:
    if as_json:
        click.echo(json.dumps(payload, indent=2))
    else:
        _print_table(report)
    if report_dir is not None:
        from tiermem.eval.report import NO_PLOT, write_report

        files = write_report(report, report_dir)
        note = f"Chart: {files.chart}." if files.chart else NO_PLOT
        click.echo(f"Report written to {files.markdown}. {note}", err=as_json)


def _print_table(report: ReportData) -> None:
    metrics = list(report.overall)
    rows = [("overall", report.n, report.overall)]
    rows += [(name, report.group_n.get(name, 0), scores) for name, scores in report.groups.items()]
    width = max(len(str(name)) for name, _, _ in rows) + 2
    click.echo(f"{report.title}  ({report.command})")
    click.echo("".ljust(width) + "n".rjust(6) + "".join(m.rjust(max(len(m), 6) + 2) for m in metrics))
    for name, n, scores in rows:
        cells = "".join((f"{scores[m]:.3f}" if m in scores else "-").rjust(max(len(m), 6) + 2) for m in metrics)
        click.echo(name.ljust(width) + str(n).rjust(6) + cells)
    for note in report.notes:
        click.echo(f"  {note}")
    if report.floor is not None:
        from tiermem.eval.report import floor_lines

        click.echo("  " + floor_lines(report.floor, report.floor_label)[2])


def _command(name: str, path: Path, **options: object) -> str:
    parts = ["tiermem", "eval", name, str(path)]
    for key, value in options.items():
        if value is None or value is False:
            continue
        flag = "--" + key.replace("_", "-")
        text = ",".join(map(str, value)) if isinstance(value, tuple) else str(value)
        parts += [flag] if value is True else [flag, text]
    return " ".join(parts)


_OFFSET = click.option(
    "--offset", type=click.IntRange(min=0), default=0, help="Skip the first N items (held-out ranges)."
)
_CONTEXT = click.option(
    "--context-turns",
    type=click.IntRange(min=0, max=8),
    default=1,
    show_default=True,
    help="Write each turn with this many earlier turns of its session as search context (0: none).",
)


@dataclass(frozen=True, slots=True)
class _Run:
    """What LoCoMo and LongMemEval are both given: data, cut-offs, output, model, sample, store, context."""

    path: Path
    ks: tuple[int, ...]
    as_json: bool
    embedder: str
    report_dir: Path | None
    limit: int | None
    embed_cache: Path | None
    db: str | None
    context_turns: int

    def command(self, name: str, **options: object) -> str:
        """The command line that repeats this run (with the command's own ``options``)."""
        return _command(
            name,
            self.path,
            k=self.ks,
            embedder=self.embedder,
            limit=self.limit,
            context_turns=self.context_turns,
            **options,
        )

    def emit(self, payload: Mapping[str, Any], report: ReportData) -> None:
        """Print the result as this run asked, and write its report if one was asked for."""
        _emit(payload, self.as_json, report, self.report_dir)


def _conversation_run(func: Callable[..., None]) -> Callable[..., None]:
    """Add the options of a ``_Run`` to a command, which gets them as one ``_Run`` before its own options."""
    names = [f.name for f in fields(_Run)]

    @functools.wraps(func)
    def command(**options: Any) -> None:
        func(_Run(**{name: options.pop(name) for name in names}), **options)

    for option in (_CONTEXT, _DB, _CACHE, _LIMIT, _REPORT, _EMBEDDER, _JSON, _KS, _DATA):
        command = option(command)
    return command


def _span_option(_ctx: click.Context, _param: click.Parameter, value: str | None) -> tuple[int, int] | None:
    if value is None:
        return None
    first, _, last = value.partition("-")
    try:
        span = (int(first), int(last or first))
    except ValueError:
        raise click.BadParameter(f"expected FIRST-LAST or N (0-based, inclusive), given {value!r}") from None
    if span[0] < 0 or span[1] < span[0]:
        raise click.BadParameter(f"expected 0 <= FIRST <= LAST, given {value!r}")
    return span


@eval_group.command("locomo")
@_conversation_run
@click.option(
    "--conversations",
    "span",
    callback=_span_option,
    help="Only conversations FIRST-LAST (0-based, inclusive), e.g. 0-2: figures on held-out conversations.",
)
def locomo_command(run: _Run, span: tuple[int, int] | None) -> None:
    """LoCoMo: evidence recall@k per category.

    Ingests every turn of each conversation into a fresh scope, then scores recall@k, all-hit@k and
    session-level recall@k for each question (category 5 excluded, malformed evidence ids repaired). With two
    conversations or more, each question is also asked off-topic, in the next conversation's scope: the
    relevance floor's figures (share left empty, evidence recall kept) and its curve are reported.
    """
    from tiermem.eval.locomo import load_locomo, run_locomo
    from tiermem.eval.report import locomo_report

    with _edge():
        conversations = load_locomo(run.path)
        if span is not None:
            if span[1] >= len(conversations):
                raise click.BadParameter(
                    f"the file has conversations 0-{len(conversations) - 1}, given {span[0]}-{span[1]}",
                    param_hint="--conversations",
                )
            conversations = conversations[span[0] : span[1] + 1]
        total = sum(len(c.questions) for c in conversations)
        todo = min(total, run.limit or total)
        with _one_memory(run.embedder, "LoCoMo", todo, run.embed_cache, run.db) as (memory, advance):
            result = run_locomo(
                memory, conversations, run.ks, limit=run.limit, on_question=advance, context_turns=run.context_turns
            )
    command = run.command("locomo", conversations=None if span is None else f"{span[0]}-{span[1]}")
    run.emit(result.to_json(), locomo_report(result, command))


@eval_group.command("longmemeval")
@_conversation_run
@_OFFSET
def longmemeval_command(run: _Run, offset: int) -> None:
    """LongMemEval: session and turn recall and nDCG.

    Streams PATH (.json, .json.gz or .jsonl), ingests each question's haystack into a fresh scope and
    scores recall_any@k, recall_all@k and nDCG@k at session and turn level. Abstention questions (about
    things never said) are asked but not scored for recall: the relevance floor must leave them empty.
    """
    from itertools import islice

    from tiermem.eval.longmemeval import iter_longmemeval, run_longmemeval
    from tiermem.eval.report import longmemeval_report

    with (
        _edge(),
        _temporary_memory(run.embedder, run.embed_cache, run.db) as open_memory,
        _progress("LongMemEval", run.limit) as advance,
    ):
        questions = iter_longmemeval(run.path)
        result = run_longmemeval(
            open_memory,
            islice(questions, offset, None),
            run.ks,
            limit=run.limit,
            on_question=advance,
            context_turns=run.context_turns,
        )
    run.emit(result.to_json(), longmemeval_report(result, run.command("longmemeval", offset=offset or None)))


@eval_group.command("update")
@_DATA
@_JSON
@_EMBEDDER
@_REPORT
@_OFFSET
@_LIMIT
@_CACHE
@_DB
def update_command(
    path: Path,
    as_json: bool,
    embedder: str,
    report_dir: Path | None,
    offset: int,
    limit: int | None,
    embed_cache: Path | None,
    db: str | None,
) -> None:
    """Knowledge update: is the newer fact on top?

    Writes each item's facts, then the contradicting newer fact, asks the question and scores how often
    the newer fact is on top, top-1 accuracy (the top hit contains the answer), how often a superseded
    fact outranks the newer one, and the precision and recall of the write path's supersessions.
    """
    from tiermem.eval.report import update_report
    from tiermem.eval.update import iter_update_items, run_update

    with _edge():
        total = sum(1 for _ in iter_update_items(path))
        todo = max(0, min(total - offset, limit or total))
        with _one_memory(embedder, "Knowledge update", todo, embed_cache, db) as (memory, advance):
            result = run_update(memory, iter_update_items(path), offset=offset, limit=limit, on_item=advance)
    command = _command("update", path, embedder=embedder, offset=offset or None, limit=limit)
    _emit(result.to_json(), as_json, update_report(result, command), report_dir)
