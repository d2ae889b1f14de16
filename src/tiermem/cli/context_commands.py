"""(internal) ``tiermem budget``: the budget arithmetic of the main context, as a table, JSON or a two-panel plot.

rich, matplotlib and the budget module are imported inside the command so ``tiermem --help`` stays fast.
Bad numbers raise tiermem.errors.ValidationError, which the main CLI maps to exit code 2.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from tiermem.errors import ValidationError

if TYPE_CHECKING:
    from tiermem.context.budget import BudgetReport

__all__ = ["JSON_KEYS", "budget"]

F = TypeVar("F", bound=Callable[..., Any])

JSON_KEYS = (
    "window",
    "system",
    "core",
    "output_reserve",
    "retrieval_reserve",
    "message_budget",
    "prompt_limit",
    "turn_tokens",
    "turns",
    "turns_kept",
    "first_overflow_turn_without_paging",
    "cumulative_keep_everything",
    "cumulative_paged",
    "savings_ratio",
    "prompt_tokens_paged",
    "prompt_tokens_keep_everything",
)


def _tokens(name: str, default: int, text: str) -> Callable[[F], F]:
    return click.option(f"--{name}", type=int, default=default, show_default=True, metavar="TOKENS", help=text)


@click.command("budget")
@_tokens("window", 8000, "Context window W.")
@_tokens("system", 600, "System prompt S.")
@_tokens("core", 400, "Core memory K.")
@_tokens("output", 1000, "Output reserve O (room for the reply).")
@_tokens("reserve", 500, "Retrieved-memory reserve R.")
@_tokens("turn", 250, "Average turn t.")
@click.option("--turns", type=int, default=60, show_default=True, help="Turns to simulate.")
@click.option("--json", "as_json", is_flag=True, help="Print the numbers as one JSON object.")
@click.option(
    "--plot",
    "plot_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    metavar="FILE.png",
    help="Also write a two-panel PNG: prompt tokens per turn, cumulative input tokens.",
)
def budget(
    window: int,
    system: int,
    core: int,
    output: int,
    reserve: int,
    turn: int,
    turns: int,
    as_json: bool,
    plot_path: Path | None,
) -> None:
    """Print how many turns fit, when an agent without paging overflows, and what paging saves.

    M = W - S - K - O - R is the message budget and floor(M / t) the turns kept. Without paging, turn n fits
    only while S + K + n*t <= W - O. JSON keys: window, system, core, output_reserve, retrieval_reserve,
    message_budget, prompt_limit, turn_tokens, turns, turns_kept, first_overflow_turn_without_paging,
    cumulative_keep_everything, cumulative_paged, savings_ratio (1 - paged / keep-everything),
    prompt_tokens_paged and prompt_tokens_keep_everything (per turn), and plot (the PNG path or null).
    """
    from tiermem.context.budget import ContextBudget, plot, simulate

    context = ContextBudget(window=window, system=system, core=core, output_reserve=output, retrieval_reserve=reserve)
    report = simulate(context, turn_tokens=turn, turns=turns)
    written: Path | None = None
    if plot_path is not None:
        if not plot_path.parent.is_dir():
            raise ValidationError("plot", "the folder to write the plot into does not exist", given=str(plot_path))
        written = plot(report, plot_path)
    if as_json:
        data = report.to_dict()
        data["prompt_limit"] = report.prompt_limit
        out = {key: data[key] for key in JSON_KEYS}
        out["plot"] = None if written is None else str(written)
        click.echo(json.dumps(out, indent=2))
        return
    _print_table(report)
    if written is not None:
        click.echo(f"plot written to {written}")


def _print_table(report: BudgetReport) -> None:
    from rich.console import Console
    from rich.table import Table

    r = report
    table = Table(title="Context budget", title_justify="left")
    table.add_column("quantity")
    table.add_column("arithmetic")
    table.add_column("value", justify="right")
    table.add_row("window W", "", f"{r.window:,}")
    table.add_row("system S", "", f"{r.system:,}")
    table.add_row("core K", "", f"{r.core:,}")
    table.add_row("output reserve O", "", f"{r.output_reserve:,}")
    table.add_row("retrieval reserve R", "", f"{r.retrieval_reserve:,}")
    table.add_row(
        "message budget M",
        f"{r.window:,} - {r.system:,} - {r.core:,} - {r.output_reserve:,} - {r.retrieval_reserve:,}",
        f"{r.message_budget:,}",
    )
    table.add_row("prompt limit", f"W - O = {r.window:,} - {r.output_reserve:,}", f"{r.prompt_limit:,}")
    table.add_row("turn t", "", f"{r.turn_tokens:,}")
    table.add_row("turns kept", f"floor({r.message_budget:,} / {r.turn_tokens:,})", f"{r.turns_kept:,}")
    n = r.first_overflow_turn_without_paging
    beyond = "" if n <= r.turns else f" (beyond the {r.turns} simulated)"
    table.add_row(
        "first overflow without paging",
        f"turn {n}{beyond}: {r.system:,} + {r.core:,} + {n} x {r.turn_tokens:,} = "
        f"{r.system + r.core + n * r.turn_tokens:,} > {r.prompt_limit:,}",
        "",
    )
    table.add_row(
        f"input over {r.turns} turns, keep everything", "sum of S + K + n*t", f"{r.cumulative_keep_everything:,}"
    )
    table.add_row(f"input over {r.turns} turns, paged", "sum of S + K + R + min(n, kept)*t", f"{r.cumulative_paged:,}")
    saving = f"{r.savings_ratio:.1%} less" if r.savings_ratio >= 0 else f"{-r.savings_ratio:.1%} more"
    table.add_row("paged vs keep everything", "1 - paged / keep everything", saving)
    Console().print(table)
