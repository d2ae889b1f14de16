"""Budget arithmetic of the main context: how many turns fit, when a naive agent overflows, what paging saves.

Window W, system S, core K, output reserve O, retrieved-memory reserve R, average turn t (tokens):

    message budget   M = W - S - K - O - R          turns kept = floor(M / t)
    prompt limit         W - O                      (the prompt may use the window less the reply)

Worked example: W 8000, S 600, K 400, O 1000, R 500, t 250 -> M 5500, 22 turns kept, turn 25
overflows an agent that keeps everything (7250 > 7000), and over 60 turns the paged agent reads 362,250
input tokens against 517,500 (30% less).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, fields
from itertools import accumulate
from pathlib import Path
from typing import Any

from tiermem.errors import ConfigError, ValidationError

__all__ = ["MAX_TURNS", "BudgetReport", "ContextBudget", "plot", "simulate"]

MAX_TURNS = 100_000
"""Most turns ``simulate`` accepts: its report holds per-turn lists, so this bounds its memory."""


def _require_int(field: str, value: object, minimum: int) -> None:
    # bool is an int subclass; True as a window is a bug, not a budget of one token.
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValidationError(field, "must be an integer number of tokens", given=value)
    if value < minimum:
        raise ValidationError(field, f"must be >= {minimum}", given=value, limit=f">= {minimum}")


@dataclass(frozen=True, slots=True)
class ContextBudget:
    """Token budget of one prompt: window, fixed parts and reserves; what is left is for messages."""

    window: int
    system: int
    core: int
    output_reserve: int
    retrieval_reserve: int

    def __post_init__(self) -> None:
        _require_int("window", self.window, 1)
        for field in ("system", "core", "output_reserve", "retrieval_reserve"):
            _require_int(field, getattr(self, field), 0)
        budget = self.message_budget
        if budget <= 0:
            raise ValidationError(
                "message_budget",
                f"window {self.window} - system {self.system} - core {self.core} - output "
                f"{self.output_reserve} - retrieval {self.retrieval_reserve} = {budget} must be > 0",
                given=budget,
                limit="> 0",
            )

    @property
    def message_budget(self) -> int:
        """M = W - S - K - O - R: tokens left for the most recent messages."""
        return self.window - self.system - self.core - self.output_reserve - self.retrieval_reserve

    @property
    def prompt_limit(self) -> int:
        """W - O: the most tokens a prompt may hold and still leave room for the reply."""
        return self.window - self.output_reserve


@dataclass(frozen=True, slots=True)
class BudgetReport:
    """What ``simulate`` found: the budget, the per-turn prompt sizes and their totals."""

    window: int
    system: int
    core: int
    output_reserve: int
    retrieval_reserve: int
    message_budget: int
    turn_tokens: int
    turns: int
    turns_kept: int
    first_overflow_turn_without_paging: int
    prompt_tokens_paged: tuple[int, ...]
    prompt_tokens_keep_everything: tuple[int, ...]
    cumulative_keep_everything: int
    cumulative_paged: int
    savings_ratio: float

    @property
    def prompt_limit(self) -> int:
        """W - O, the line a prompt must stay under."""
        return self.window - self.output_reserve

    def to_dict(self) -> dict[str, Any]:
        """The report as plain JSON-ready values (tuples become lists)."""
        return {f.name: _plain(getattr(self, f.name)) for f in fields(self)}

    def to_json(self, indent: int | None = 2) -> str:
        """The report as a JSON object, fields in declaration order."""
        return json.dumps(self.to_dict(), indent=indent)


def _plain(value: object) -> object:
    return list(value) if isinstance(value, tuple) else value


def simulate(budget: ContextBudget, turn_tokens: int, turns: int) -> BudgetReport:
    """Prompt sizes over ``turns`` turns of ``turn_tokens`` each, with paging and keeping everything.

    The per-turn model (turn n = 1..turns; a turn's prompt holds that turn's message too):

        keep everything   S + K + n*t                     (no retrieval; grows without bound)
        paged             S + K + R + min(n, kept)*t      (kept = floor(M / t); R assumed full)

    The keep-everything figure is what that prompt would cost if the window allowed it; from
    ``first_overflow_turn_without_paging`` = floor((W - O - S - K) / t) + 1 on it does not fit. That turn
    is computed from the budget and may lie beyond ``turns``. The paged prompt never exceeds W - O
    because kept*t <= M. ``savings_ratio`` = 1 - cumulative_paged / cumulative_keep_everything, rounded
    to 6 places; it is negative while R, paid on every paged turn, outweighs the turns paged out.
    For the worked example of the module docstring (60 turns): 517,500 = sum(1000 + 250n) and
    362,250 = 60*1500 + 250*(1+...+22 + 38*22).
    """
    _require_int("turn_tokens", turn_tokens, 1)
    _require_int("turns", turns, 1)
    if turns > MAX_TURNS:
        raise ValidationError("turns", f"must be <= {MAX_TURNS}", given=turns, limit=MAX_TURNS)
    message_budget = budget.message_budget
    if turn_tokens > message_budget:
        # Not even the current turn fits beside S, K and R; "0 turns kept" would describe no real prompt.
        raise ValidationError(
            "turn_tokens",
            f"a turn of {turn_tokens} tokens does not fit the message budget {message_budget}",
            given=turn_tokens,
            limit=message_budget,
        )
    fixed = budget.system + budget.core
    turns_kept = message_budget // turn_tokens
    first_overflow = (budget.prompt_limit - fixed) // turn_tokens + 1
    keep_everything = tuple(fixed + n * turn_tokens for n in range(1, turns + 1))
    paged = tuple(fixed + budget.retrieval_reserve + min(n, turns_kept) * turn_tokens for n in range(1, turns + 1))
    total_keep, total_paged = sum(keep_everything), sum(paged)
    return BudgetReport(
        window=budget.window,
        system=budget.system,
        core=budget.core,
        output_reserve=budget.output_reserve,
        retrieval_reserve=budget.retrieval_reserve,
        message_budget=message_budget,
        turn_tokens=turn_tokens,
        turns=turns,
        turns_kept=turns_kept,
        first_overflow_turn_without_paging=first_overflow,
        prompt_tokens_paged=paged,
        prompt_tokens_keep_everything=keep_everything,
        cumulative_keep_everything=total_keep,
        cumulative_paged=total_paged,
        savings_ratio=round(1 - total_paged / total_keep, 6),
    )


def plot(report: BudgetReport, path: str | os.PathLike[str]) -> Path:
    """Write a two-panel PNG: prompt tokens per turn against the limit, and cumulative input tokens."""
    try:
        # Figure + the Agg canvas directly, not pyplot: no global backend switch, no GUI, no state kept.
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
        from matplotlib.ticker import StrMethodFormatter
    except ImportError as exc:
        raise ConfigError("plotting needs matplotlib; install the extra: tiermem[plot]") from exc

    out = Path(path)
    turns = list(range(1, report.turns + 1))
    limit = report.prompt_limit
    # Paging can cost more than keeping everything while a large R is paid on every early turn.
    ratio = report.savings_ratio
    saving = f"{ratio:.0%} less" if ratio >= 0 else f"{-ratio:.0%} more"
    figure = Figure(figsize=(12, 4.8), layout="constrained")
    FigureCanvasAgg(figure)
    per_turn, cumulative = figure.subplots(1, 2)

    per_turn.plot(turns, report.prompt_tokens_keep_everything, color="tab:red", label="keep everything")
    per_turn.plot(turns, report.prompt_tokens_paged, color="tab:blue", label="paged (tiermem)")
    per_turn.axhline(
        limit,
        color="dimgray",
        linestyle="--",
        linewidth=1.5,
        zorder=1,
        label=f"prompt limit W - O = {limit:,}",
    )
    overflow = report.first_overflow_turn_without_paging
    if overflow <= report.turns:
        per_turn.axvline(overflow, color="tab:red", linestyle=":", linewidth=1)
        per_turn.annotate(
            f"turn {overflow} overflows",
            xy=(overflow, limit),
            xytext=(6, 10),
            textcoords="offset points",
            color="tab:red",
        )
    per_turn.set_title(f"Prompt tokens per turn ({report.turns_kept} turns kept)")
    per_turn.set_xlabel("turn")
    per_turn.set_ylabel("prompt tokens")
    # Headroom above the highest of limit and curves, so the limit line is never hidden by the frame.
    highest = max(limit, *report.prompt_tokens_keep_everything, *report.prompt_tokens_paged)
    per_turn.set_ylim(0, highest * 1.12)
    per_turn.legend(loc="lower right")
    per_turn.grid(alpha=0.3)

    cumulative.plot(
        turns,
        list(accumulate(report.prompt_tokens_keep_everything)),
        color="tab:red",
        label=f"keep everything: {report.cumulative_keep_everything:,}",
    )
    cumulative.plot(
        turns,
        list(accumulate(report.prompt_tokens_paged)),
        color="tab:blue",
        label=f"paged: {report.cumulative_paged:,} ({saving})",
    )
    cumulative.set_title("Cumulative input tokens")
    cumulative.set_xlabel("turn")
    cumulative.set_ylabel("input tokens")
    cumulative.legend(loc="upper left")
    cumulative.grid(alpha=0.3)

    for axes in (per_turn, cumulative):
        axes.yaxis.set_major_formatter(StrMethodFormatter("{x:,.0f}"))
    figure.suptitle(
        f"W {report.window:,}, S {report.system:,}, K {report.core:,}, O {report.output_reserve:,}, "
        f"R {report.retrieval_reserve:,}, t {report.turn_tokens:,}: message budget {report.message_budget:,}"
    )
    figure.savefig(out, format="png", dpi=100)
    return out
