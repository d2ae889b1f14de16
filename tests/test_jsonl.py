"""JSON Lines: blank lines skipped, numbers kept, a bad line named."""

from __future__ import annotations

import pytest

from tiermem.errors import ValidationError
from tiermem.jsonl import json_lines


def test_blank_lines_are_skipped_and_each_value_keeps_its_line_number() -> None:
    assert list(json_lines(['{"a": 1}', "", "  ", "[2]"], str)) == [(1, {"a": 1}), (4, [2])]


def test_a_line_that_is_not_json_is_named_by_its_number() -> None:
    with pytest.raises(ValidationError) as caught:
        list(json_lines(["1", "", "{oops"], lambda n: f"notes.jsonl, line {n}"))
    assert caught.value.field == "notes.jsonl, line 3" and "is not valid JSON" in caught.value.problem
    assert caught.value.given == "{oops"
