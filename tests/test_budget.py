"""Budget arithmetic: the worked examples of context.budget, refusals of impossible budgets, the plot."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tiermem.context.budget import MAX_TURNS, BudgetReport, ContextBudget, plot, simulate
from tiermem.errors import ValidationError

SMALL = ContextBudget(window=8000, system=600, core=400, output_reserve=1000, retrieval_reserve=500)
LARGE = ContextBudget(window=32000, system=2500, core=1500, output_reserve=4000, retrieval_reserve=2000)


def test_worked_example_matches_design() -> None:
    report = simulate(SMALL, turn_tokens=250, turns=60)
    assert report.message_budget == 5500
    assert report.turns_kept == 22
    assert report.first_overflow_turn_without_paging == 25
    assert report.cumulative_keep_everything == 517_500
    assert report.cumulative_paged == 362_250
    assert report.savings_ratio == pytest.approx(0.30)


def test_large_window_example_over_100_turns() -> None:
    report = simulate(LARGE, turn_tokens=400, turns=100)
    assert report.message_budget == 22_000
    assert report.turns_kept == 55
    assert report.first_overflow_turn_without_paging == 61
    assert report.cumulative_keep_everything == 2_420_000
    assert report.cumulative_paged == 2_206_000
    assert report.savings_ratio == pytest.approx(0.08843)


def test_first_overflow_turn_is_computed_beyond_the_simulated_turns() -> None:
    assert simulate(LARGE, turn_tokens=400, turns=60).first_overflow_turn_without_paging == 61


def test_savings_are_negative_while_the_retrieval_reserve_outweighs_paging() -> None:
    report = simulate(LARGE, turn_tokens=400, turns=60)
    assert report.cumulative_paged > report.cumulative_keep_everything
    assert report.savings_ratio < 0


def test_overflow_turn_is_the_first_that_exceeds_the_prompt_limit() -> None:
    report = simulate(SMALL, turn_tokens=250, turns=60)
    over = [n for n, tokens in enumerate(report.prompt_tokens_keep_everything, 1) if tokens > SMALL.prompt_limit]
    assert over[0] == report.first_overflow_turn_without_paging
    assert report.prompt_tokens_keep_everything[24] == 7250  # turn 25: 7250 > 7000


def test_paged_prompt_plateaus_at_or_under_the_prompt_limit() -> None:
    report = simulate(SMALL, turn_tokens=250, turns=60)
    assert max(report.prompt_tokens_paged) <= SMALL.prompt_limit
    kept = report.turns_kept
    assert report.prompt_tokens_paged[0] == 600 + 400 + 500 + 250
    assert set(report.prompt_tokens_paged[kept - 1 :]) == {600 + 400 + 500 + kept * 250}
    assert report.prompt_tokens_paged[kept - 2] < report.prompt_tokens_paged[kept - 1]


def test_per_turn_lists_sum_to_the_cumulative_totals() -> None:
    report = simulate(SMALL, turn_tokens=250, turns=60)
    assert len(report.prompt_tokens_paged) == len(report.prompt_tokens_keep_everything) == 60
    assert sum(report.prompt_tokens_paged) == report.cumulative_paged
    assert sum(report.prompt_tokens_keep_everything) == report.cumulative_keep_everything


def test_budget_properties() -> None:
    assert SMALL.message_budget == 5500
    assert SMALL.prompt_limit == 7000
    assert LARGE.message_budget == 22_000
    assert LARGE.prompt_limit == 28_000


def test_budget_and_report_are_frozen() -> None:
    with pytest.raises(AttributeError):
        SMALL.window = 1  # type: ignore[misc]
    report = simulate(SMALL, 250, 3)
    with pytest.raises(AttributeError):
        report.turns = 4  # type: ignore[misc]


def test_report_to_json_round_trips_every_field() -> None:
    report = simulate(SMALL, turn_tokens=250, turns=60)
    data = json.loads(report.to_json())
    assert list(data) == [name for name in BudgetReport.__dataclass_fields__]
    assert data["cumulative_paged"] == 362_250
    assert data["prompt_tokens_paged"] == list(report.prompt_tokens_paged)
    restored: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items()}
    assert BudgetReport(**restored) == report


def test_message_budget_must_be_positive_names_the_numbers() -> None:
    with pytest.raises(ValidationError) as caught:
        ContextBudget(window=8000, system=600, core=400, output_reserve=1000, retrieval_reserve=7000)
    error = caught.value
    assert error.field == "message_budget"
    assert error.given == -1000
    message = str(error)
    for part in ("window 8000", "system 600", "core 400", "output 1000", "retrieval 7000", "= -1000", "> 0"):
        assert part in message


def test_message_budget_of_exactly_zero_is_refused() -> None:
    with pytest.raises(ValidationError, match="= 0 must be > 0"):
        ContextBudget(window=3000, system=600, core=400, output_reserve=1000, retrieval_reserve=1000)


def test_window_must_be_positive() -> None:
    with pytest.raises(ValidationError) as caught:
        ContextBudget(window=0, system=0, core=0, output_reserve=0, retrieval_reserve=0)
    assert caught.value.field == "window"
    assert caught.value.given == 0


@pytest.mark.parametrize("field", ["system", "core", "output_reserve", "retrieval_reserve"])
def test_negative_parts_are_refused_by_name(field: str) -> None:
    values = {"window": 8000, "system": 600, "core": 400, "output_reserve": 1000, "retrieval_reserve": 500}
    values[field] = -1
    with pytest.raises(ValidationError) as caught:
        ContextBudget(**values)
    assert caught.value.field == field
    assert caught.value.given == -1


@pytest.mark.parametrize("bad", [8000.0, "8000", True, None])
def test_non_integer_window_is_refused(bad: object) -> None:
    with pytest.raises(ValidationError, match="window: must be an integer"):
        ContextBudget(window=bad, system=0, core=0, output_reserve=0, retrieval_reserve=0)  # type: ignore[arg-type]


def test_zero_parts_are_allowed() -> None:
    budget = ContextBudget(window=100, system=0, core=0, output_reserve=0, retrieval_reserve=0)
    assert budget.message_budget == 100


@pytest.mark.parametrize(("turn_tokens", "turns", "field"), [(0, 10, "turn_tokens"), (250, 0, "turns")])
def test_simulate_refuses_non_positive_inputs(turn_tokens: int, turns: int, field: str) -> None:
    with pytest.raises(ValidationError) as caught:
        simulate(SMALL, turn_tokens=turn_tokens, turns=turns)
    assert caught.value.field == field


def test_simulate_refuses_a_turn_larger_than_the_message_budget() -> None:
    with pytest.raises(ValidationError) as caught:
        simulate(SMALL, turn_tokens=5501, turns=10)
    assert caught.value.field == "turn_tokens"
    assert caught.value.limit == 5500
    assert "5501" in str(caught.value)


def test_simulate_refuses_more_turns_than_the_maximum() -> None:
    with pytest.raises(ValidationError, match="turns: must be <="):
        simulate(SMALL, turn_tokens=250, turns=MAX_TURNS + 1)


def test_plot_writes_a_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    written = plot(simulate(SMALL, turn_tokens=250, turns=60), tmp_path / "budget.png")
    assert written == tmp_path / "budget.png"
    data = written.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(data) > 10_000


def test_plot_handles_overflow_beyond_the_simulated_turns(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    written = plot(simulate(LARGE, turn_tokens=400, turns=30), str(tmp_path / "short.png"))
    assert written.read_bytes().startswith(b"\x89PNG")
