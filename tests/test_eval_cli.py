"""`tiermem eval` end to end on tiny synthetic datasets with the hash embedder."""

from __future__ import annotations

import gzip
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from fake_openai import FakeOpenAI
from tiermem.cli.eval_commands import eval_group
from tiermem.cli.main import cli
from tiermem.embed import EMBED_URL_ENV, HashingEmbedder
from tiermem.eval.locomo import load_locomo
from tiermem.eval.longmemeval import _ingest, parse_question
from tiermem.memory import Memory
from tiermem.types import Scope

# Each turn has its own distinctive words, so a question naming them has exactly one right answer.
TOPICS = [
    "zebra stripes savanna",
    "violin concerto orchestra",
    "pottery kiln glaze",
    "glacier crampons summit",
    "sourdough starter flour",
    "telescope nebula galaxy",
    "marathon sneakers stopwatch",
    "origami crane paper",
    "beekeeping hive honey",
    "chess gambit knight",
    "kayak paddle rapids",
    "tulip bulbs garden",
]


def _run(*args: str) -> Any:
    # Through the tiermem command, as users run it: its help options reach each eval command's context.
    result = CliRunner().invoke(cli, ["eval", *args])
    assert result.exit_code == 0, result.output
    return result


def _json(*args: str) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(_run(*args, "--json", "--embedder", "hash").output)
    return out


def _locomo(tmp_path: Path, qa: list[dict[str, Any]] | None = None) -> Path:
    turns = [
        {"speaker": ("Bo", "Ann")[i % 2], "dia_id": f"D{1 + i // 6}:{1 + i % 6}", "text": f"My {topic}"}
        for i, topic in enumerate(TOPICS)
    ]
    sample = {
        "sample_id": "conv-toy",
        "conversation": {
            "speaker_a": "Ann",
            "speaker_b": "Bo",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": turns[:6],
            "session_2_date_time": "2:00 pm on 9 May, 2023",
            "session_2": turns[6:],
        },
        "qa": qa
        or [
            {"question": "zebra stripes savanna?", "category": 1, "evidence": ["D1:1"]},
            {"question": "telescope nebula galaxy?", "category": 4, "evidence": ["D:1:06"]},
            {"question": "kayak paddle rapids?", "category": 2, "evidence": ["D2:5; D9:9"]},
            {"question": "adversarial", "category": 5, "evidence": ["D1:2"]},
            {"question": "nothing left", "category": 3, "evidence": ["D7:7"]},
        ],
    }
    path = tmp_path / "locomo.json"
    path.write_text(json.dumps([sample]))
    return path


def test_locomo_perfect_retrieval_scores_one(tmp_path: Path) -> None:
    out = _json("locomo", str(_locomo(tmp_path)), "--k", "1,5")
    assert out["n"] == 3  # category 5 excluded, the question left without evidence skipped
    for key in ("recall@1", "all@1", "session_recall@1", "recall@5", "all@5", "session_recall@5"):
        assert out[key] == 1.0, key
    assert set(out["per_category"]) == {"multi-hop", "single-hop", "temporal"}
    assert out["per_category"]["temporal"] == {
        "n": 1,
        "recall@1": 1.0,
        "all@1": 1.0,
        "session_recall@1": 1.0,
        "recall@5": 1.0,
        "all@5": 1.0,
        "session_recall@5": 1.0,
    }
    assert out["timing"]["query_ms_p95"] >= out["timing"]["query_ms_p50"] > 0


def test_locomo_misleading_evidence_scores_zero(tmp_path: Path) -> None:
    # The question names the origami turn (D2:2, session 2) but the evidence says D1:1 (session 1).
    qa = [{"question": "origami crane paper?", "category": 4, "evidence": ["D1:1"]}]
    out = _json("locomo", str(_locomo(tmp_path, qa)), "--k", "1")
    assert (out["n"], out["recall@1"], out["all@1"], out["session_recall@1"]) == (1, 0.0, 0.0, 0.0)


def test_locomo_finds_a_reply_by_the_turn_before_it_only_with_context_turns(tmp_path: Path) -> None:
    # The question names the topic of D1:1; D1:2 is the evidence. Only D1:1's words lead to D1:2.
    qa = [{"question": "zebra stripes savanna?", "category": 4, "evidence": ["D1:2"]}]
    path = str(_locomo(tmp_path, qa))
    without = _json("locomo", path, "--k", "2", "--context-turns", "0")
    with_context = _json("locomo", path, "--k", "2", "--context-turns", "1")
    assert (without["recall@2"], with_context["recall@2"]) == (0.0, 1.0)


def test_locomo_conversations_selects_a_held_out_span(tmp_path: Path) -> None:
    one = json.loads(_locomo(tmp_path).read_text())[0]
    misleading = {
        **one,
        "sample_id": "conv-two",
        "qa": [{"question": "origami crane?", "category": 4, "evidence": ["D1:1"]}],
    }
    path = tmp_path / "two.json"
    path.write_text(json.dumps([one, misleading]))
    assert _json("locomo", str(path), "--k", "1")["n"] == 4
    assert _json("locomo", str(path), "--k", "1", "--conversations", "0")["recall@1"] == 1.0
    second = _json("locomo", str(path), "--k", "1", "--conversations", "1-1")
    assert (second["n"], second["recall@1"]) == (1, 0.0)
    for bad in ("2", "1-0", "x"):
        result = CliRunner().invoke(cli, ["eval", "locomo", str(path), "--conversations", bad])
        assert result.exit_code == 2 and "--conversations" in result.output, (bad, result.output)


def test_locomo_asks_a_day_after_the_last_session_so_yesterday_is_that_session(tmp_path: Path) -> None:
    # Ann speaks three turns in each session; the words tie them all, "yesterday" (9 May) picks session 2's.
    qa = [{"question": "What did Ann say yesterday?", "category": 2, "evidence": ["D2:2", "D2:4", "D2:6"]}]
    out = _json("locomo", str(_locomo(tmp_path, qa)), "--k", "3")
    assert (out["recall@3"], out["all@3"]) == (1.0, 1.0)


def test_a_conversation_is_asked_the_day_after_its_last_turn(tmp_path: Path) -> None:
    (conversation,) = load_locomo(_locomo(tmp_path))
    assert conversation.asked_at == datetime(2023, 5, 10, 14, 0, tzinfo=UTC)


def test_a_longmemeval_question_is_asked_at_its_question_date_else_after_its_last_session() -> None:
    entry = _lme_entry("q1", 2)
    assert parse_question(entry).asked_at == datetime(2023, 5, 7, 10, 0, tzinfo=UTC)
    dated = parse_question({**entry, "question_date": "2023/06/01 (Thu) 09:30"})
    assert dated.asked_at == datetime(2023, 6, 1, 9, 30, tzinfo=UTC)


def _lme_entry(qid: str, answer_topic: int) -> dict[str, Any]:
    sessions = [
        [
            {"role": "user", "content": f"Tell me about {TOPICS[i]}", "has_answer": i == answer_topic},
            {"role": "assistant", "content": f"Here is advice number {i}."},
        ]
        for i in range(6)
    ]
    return {
        "question_id": qid,
        "question_type": "single-session-user",
        "question": f"{TOPICS[answer_topic]}?",
        "answer": "x",
        "answer_session_ids": [f"answer_{answer_topic}"],
        "haystack_dates": [f"2023/05/0{i + 1} (Mon) 10:00" for i in range(6)],
        "haystack_session_ids": [f"answer_{i}" if i == answer_topic else f"s{i}" for i in range(6)],
        "haystack_sessions": sessions,
    }


@pytest.mark.parametrize("suffix", [".json", ".json.gz", ".jsonl"])
def test_longmemeval_perfect_retrieval_scores_one(tmp_path: Path, suffix: str) -> None:
    entries = [_lme_entry("q1", 2), _lme_entry("q2_abs", 3), _lme_entry("q3", 4)]
    path = tmp_path / f"lme{suffix}"
    text = "\n".join(map(json.dumps, entries)) if suffix == ".jsonl" else json.dumps(entries)
    path.write_bytes(gzip.compress(text.encode()) if suffix.endswith(".gz") else text.encode())
    out = _json("longmemeval", str(path), "--k", "1,3")
    assert out["n"] == 2  # the abstention question is skipped
    for level in ("session", "turn"):
        assert out[level] == {
            "recall_any@1": 1.0,
            "recall_all@1": 1.0,
            "ndcg@1": 1.0,
            "recall_any@3": 1.0,
            "recall_all@3": 1.0,
            "ndcg@3": 1.0,
        }
    assert out["per_type"]["single-session-user"]["n"] == 2
    assert out["per_type"]["single-session-user"]["session"] == out["session"]


def test_longmemeval_offset_selects_a_held_out_range(tmp_path: Path) -> None:
    entries = [_lme_entry("q1", 2), _lme_entry("q2", 3), _lme_entry("q3", 4)]
    path = tmp_path / "lme.json"
    path.write_text(json.dumps(entries))
    assert _json("longmemeval", str(path), "--offset", "1")["n"] == 2
    assert _json("longmemeval", str(path), "--offset", "1", "--limit", "1")["n"] == 1
    assert _json("longmemeval", str(path), "--offset", "3")["n"] == 0


def test_longmemeval_turns_get_the_turn_before_them_in_their_own_session_as_context() -> None:
    question = parse_question(_lme_entry("q1", 2))
    with Memory.open(":memory:", embedder=HashingEmbedder()) as memory:
        turns_of = _ingest(memory, Scope("eval", "lme"), question, context_turns=1)
        records = memory.store.get_many(Scope("eval", "lme"), list(turns_of))
    context_of = {key: records[rid].context for rid, keys in turns_of.items() for key in keys}
    assert context_of["2:0"] is None  # a session's first turn: the previous session is not its context
    assert context_of["2:1"] == f"Tell me about {TOPICS[2]}"


def _update_items(tmp_path: Path) -> Path:
    facts = [f"The {topic} belongs to the club." for topic in TOPICS[:10]]
    item = {
        "input": "Who owns the chess gambit knight now?",
        "ground_truth": "Nora",
        "agent_args": {
            "extra": {
                "facts": facts,
                "contradicting_fact": '"Nora owns the chess gambit knight now."',
                "contradicting_answer": "Nora",
                "supporting_fact_indices": [9],
            }
        },
    }
    path = tmp_path / "update.jsonl"
    path.write_text(json.dumps(item) + "\n\n" + json.dumps(item) + "\n")
    return path


def test_update_reports_accuracy_and_stale_rate(tmp_path: Path) -> None:
    out = _json("update", str(_update_items(tmp_path)))
    assert out["n"] == 2
    assert out["top1_accuracy"] == 1.0
    assert out["stale_above_new_rate"] == 0.0
    assert out["new_top1_rate"] == 1.0
    assert _json("update", str(_update_items(tmp_path)), "--limit", "1")["n"] == 1
    assert out["top1_accuracy_answerable"] == 1.0 and out["top1_accuracy_answerable_n"] == 2
    assert out["supersessions_called_for"] == 2 and 0.0 <= out["supersession_precision"] <= 1.0


def test_update_offset_selects_a_held_out_range(tmp_path: Path) -> None:
    assert _json("update", str(_update_items(tmp_path)), "--offset", "1")["n"] == 1
    assert _json("update", str(_update_items(tmp_path)), "--offset", "1", "--limit", "5")["n"] == 1
    assert _json("update", str(_update_items(tmp_path)), "--offset", "2")["n"] == 0


def test_report_writes_markdown(tmp_path: Path) -> None:
    report_dir = tmp_path / "reports"
    result = _run("locomo", str(_locomo(tmp_path)), "--embedder", "hash", "--report", str(report_dir))
    assert "Report written to" in result.output
    text = (report_dir / "locomo.md").read_text()
    assert "## By category" in text and "| temporal | 1 |" in text
    assert "recall@5" in result.output  # the plain table


@pytest.mark.parametrize("ks", ["0", "5,abc", "101", ""])
def test_bad_k_is_a_usage_error(tmp_path: Path, ks: str) -> None:
    result = CliRunner().invoke(cli, ["eval", "locomo", str(_locomo(tmp_path)), "--k", ks])
    assert result.exit_code == 2
    assert "each k must be a whole number from 1 to 100" in result.output


def test_missing_path_is_a_usage_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["eval", "longmemeval", str(tmp_path / "nope.json")])
    assert result.exit_code == 2 and "does not exist" in result.output


@pytest.mark.parametrize("command", ["locomo", "longmemeval", "update"])
def test_malformed_data_is_a_clear_error(tmp_path: Path, command: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"not": "a dataset"}\n')
    result = CliRunner().invoke(cli, ["eval", command, str(path), "--embedder", "hash"])
    assert result.exit_code == 1
    assert "Error:" in result.output and "bad.json" in result.output


def test_eval_measures_a_model_served_over_the_openai_embeddings_api(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with FakeOpenAI(embedding_dim=16) as server:
        monkeypatch.setenv(EMBED_URL_ENV, server.base_url)
        result = _run("locomo", str(_locomo(tmp_path)), "--k", "1,5", "--json", "--embedder", "openai:toy-embed")
        sent = [r.body for r in server.requests if r.path == "/v1/embeddings"]
    out = json.loads(result.output)
    assert out["n"] == 3 and out["recall@5"] == 1.0
    assert sent and all(body["model"] == "toy-embed" for body in sent)
    assert any("zebra stripes savanna" in text for body in sent for text in body["input"])


def test_eval_with_a_served_model_but_no_url_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(EMBED_URL_ENV, raising=False)
    result = CliRunner().invoke(cli, ["eval", "locomo", str(_locomo(tmp_path)), "--embedder", "openai:toy-embed"])
    assert result.exit_code == 1 and EMBED_URL_ENV in result.output


def test_an_unknown_embedder_is_a_usage_error_naming_the_choices(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["eval", "locomo", str(_locomo(tmp_path)), "--embedder", "bert"])
    assert result.exit_code == 2 and "minilm, hash, openai:<model>" in result.output


def test_every_eval_command_has_help() -> None:
    for name, command in eval_group.commands.items():
        assert command.help, name
        assert _run(name, "--help").output.startswith("Usage:")


def _two_conversations(tmp_path: Path) -> Path:
    """Two conversations on disjoint topics, each with questions only its own turns answer."""
    samples = []
    for c, topics in enumerate((TOPICS[:6], TOPICS[6:])):
        turns = [
            {"speaker": ("Bo", "Ann")[i % 2], "dia_id": f"D1:{1 + i}", "text": f"My {topic}"}
            for i, topic in enumerate(topics)
        ]
        qa = [{"question": f"{topic}?", "category": 4, "evidence": [f"D1:{1 + i}"]} for i, topic in enumerate(topics)]
        conversation = {"speaker_a": "Ann", "speaker_b": "Bo", "session_1_date_time": "1:56 pm on 8 May, 2023"}
        samples.append({"sample_id": f"conv-{c}", "conversation": {**conversation, "session_1": turns}, "qa": qa})
    path = tmp_path / "two.json"
    path.write_text(json.dumps(samples))
    return path


def test_locomo_asks_each_question_off_topic_in_the_other_conversation(tmp_path: Path) -> None:
    out = _json("locomo", str(_two_conversations(tmp_path)), "--k", "1,10")
    relevance = out["relevance"]
    assert relevance["off_topic_n"] == relevance["answerable_n"] == out["n"] == 12
    assert relevance["off_topic_empty_rate"] == 1.0  # no word of another conversation's question is here
    assert relevance["recall@10_kept"] == 1.0  # and every answerable question keeps its evidence
    assert relevance["recall@10"] == out["recall@10"]
    curve = relevance["curve"]
    assert [row["floor"] for row in curve][:3] == [0.0, 0.05, 0.1] and len(curve) == 20
    assert curve[0]["off_topic_empty_rate"] == 0.0  # no floor: every off-topic question gets its top k


def test_locomo_report_shows_the_floor_curve(tmp_path: Path) -> None:
    _run("locomo", str(_two_conversations(tmp_path)), "--embedder", "hash", "--report", str(tmp_path / "r"))
    report = (tmp_path / "r" / "locomo.md").read_text()
    assert "Relevance floor" in report and "| 0.35 |" in report


def test_longmemeval_abstention_questions_are_asked_and_must_come_back_empty(tmp_path: Path) -> None:
    unanswerable = {**_lme_entry("q2_abs", 3), "question": "quantum chromodynamics lecture notes?"}
    path = tmp_path / "lme.json"
    path.write_text(json.dumps([_lme_entry("q1", 2), unanswerable]))
    out = _json("longmemeval", str(path), "--k", "1,3")
    assert out["n"] == 1 and out["data"]["skipped_abstention"] == 1  # asked, but not scored for recall
    assert out["relevance"]["abstention_n"] == 1
    assert out["relevance"]["abstention_empty_rate"] == 1.0
    assert out["relevance"]["recall@10_kept"] == 1.0


def test_an_update_file_line_that_is_not_json_is_named_by_its_path_and_number(tmp_path: Path) -> None:
    path = _update_items(tmp_path)
    path.write_text(path.read_text() + "{not json\n")
    result = CliRunner().invoke(cli, ["eval", "update", str(path), "--embedder", "hash"])
    assert result.exit_code == 1
    assert f"{path}:4" in result.output and "is not valid JSON" in result.output


DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
# Enough of each dev set to reach what a whole run meets (LongMemEval's first questions hold a turn of hidden
# characters alone), with the hash embedder so no model runs.
DEV_RUNS = {
    "locomo": ("locomo/locomo-dev.json", ["--conversations", "0-0", "--limit", "20"]),
    "longmemeval": ("longmemeval/longmemeval_s_subset60.json.gz", ["--limit", "4"]),
    "update": ("knowledge-update/update-dev.jsonl", ["--limit", "20"]),
}


@pytest.mark.slow
@pytest.mark.parametrize("command", sorted(DEV_RUNS))
def test_every_eval_command_runs_on_the_dev_data_the_benchmarks_cite(command: str) -> None:
    name, options = DEV_RUNS[command]
    path = DATA / name
    if not path.exists():
        pytest.skip(f"needs the dev data in {DATA}")
    report = _json(command, str(path), *options)
    assert report  # a whole JSON report, where a turn or an item the data holds could have stopped the run
