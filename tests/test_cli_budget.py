"""``tiermem budget``: the worked examples of context.budget, the plot, and refusals that name the numbers."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from tiermem.cli.context_commands import JSON_KEYS, budget

SMALL = "--window 8000 --system 600 --core 400 --output 1000 --reserve 500 --turn 250 --turns 60"
LARGE = "--window 32000 --system 2500 --core 1500 --output 4000 --reserve 2000 --turn 400 --turns 60"


def main_cli() -> click.Group:
    """The real ``tiermem`` group (for its error mapping), with ``budget`` registered if it is not yet."""
    from tiermem.cli import cli

    if "budget" not in cli.commands:
        cli.add_command(budget)
    return cli


def run_json(args: str) -> dict[str, object]:
    result = CliRunner().invoke(main_cli(), ["budget", *args.split(), "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, object] = json.loads(result.output)
    return data


def test_small_window_worked_example_as_json() -> None:
    data = run_json(SMALL)
    assert data["message_budget"] == 5500
    assert data["turns_kept"] == 22
    assert data["first_overflow_turn_without_paging"] == 25
    assert data["cumulative_keep_everything"] == 517_500
    assert data["cumulative_paged"] == 362_250
    assert data["prompt_limit"] == 7000
    assert data["savings_ratio"] == pytest.approx(0.30)


def test_large_window_worked_example_as_json() -> None:
    data = run_json(LARGE)
    assert data["message_budget"] == 22_000
    assert data["turns_kept"] == 55
    assert data["first_overflow_turn_without_paging"] == 61


def test_json_has_the_documented_keys_in_order() -> None:
    data = run_json(SMALL)
    assert list(data) == [*JSON_KEYS, "plot"]
    assert data["plot"] is None
    assert len(data["prompt_tokens_paged"]) == 60  # type: ignore[arg-type]
    for key in JSON_KEYS:
        assert key in (budget.help or "")


def test_table_shows_the_arithmetic() -> None:
    result = CliRunner().invoke(main_cli(), ["budget", *SMALL.split()], env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    for text in ("5,500", "floor(5,500 / 250)", "22", "turn 25", "7,250 > 7,000", "517,500", "362,250", "30.0% less"):
        assert text in result.output


def test_table_says_when_the_overflow_lies_beyond_the_simulated_turns() -> None:
    result = CliRunner().invoke(main_cli(), ["budget", *LARGE.split()], env={"COLUMNS": "160"})
    assert "turn 61 (beyond the 60 simulated)" in result.output


def test_plot_writes_a_png(tmp_path: Path) -> None:
    out = tmp_path / "budget.png"
    data = run_json(f"{SMALL} --plot {out}")
    assert data["plot"] == str(out)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_into_a_missing_folder_is_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(main_cli(), ["budget", "--plot", str(tmp_path / "nope" / "b.png")])
    assert result.exit_code == 2
    assert "plot" in result.output and "does not exist" in result.output


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (
            "--window 2000 --system 600 --core 400 --output 1000 --reserve 500",
            ["2000", "600", "400", "1000", "500", "-500"],
        ),
        ("--turn 6000", ["6000", "5500"]),
        ("--output -1", ["output_reserve", "-1"]),
        ("--turns 0", ["turns", "0"]),
    ],
)
def test_invalid_configurations_exit_non_zero_naming_the_numbers(args: str, named: list[str]) -> None:
    result = CliRunner().invoke(main_cli(), ["budget", *args.split()])
    assert result.exit_code == 2
    for number in named:
        assert number in result.output


def test_standalone_command_fails_on_invalid_input() -> None:
    result = CliRunner().invoke(budget, ["--window", "100"])
    assert result.exit_code != 0
    assert "window 100" in str(result.exception)


def test_help_documents_every_option() -> None:
    result = CliRunner().invoke(main_cli(), ["budget", "--help"])
    assert result.exit_code == 0
    for option in ("--window", "--system", "--core", "--output", "--reserve", "--turn", "--turns", "--json", "--plot"):
        assert option in result.output


def test_importing_the_command_loads_no_heavy_modules() -> None:
    code = (
        "import sys, tiermem.cli.context_commands; "
        "print([m for m in ('rich', 'matplotlib', 'tiermem.context.budget') if m in sys.modules])"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
