"""The eval harness's arithmetic on tiny hand-made cases whose right answers are worked out by hand."""

from __future__ import annotations

import gzip
import io
import json
import math
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tiermem.embed import HashingEmbedder
from tiermem.errors import ValidationError
from tiermem.eval import locomo, longmemeval, update
from tiermem.eval.metrics import (
    Averager,
    all_at_k,
    dcg,
    flatten_ranking,
    latency_json,
    ndcg_at_k,
    percentile,
    rank_sessions,
    recall_all,
    recall_any,
    recall_at_k,
    session_recall_at_k,
)
from tiermem.eval.report import NO_PLOT, ReportData, write_report
from tiermem.memory import Memory
from tiermem.write.messages import split_content

# --- recall, all-hit, any -------------------------------------------------------------------------------


def test_recall_at_k_counts_gold_found_over_gold_size() -> None:
    ranked = ["a", "b", "c", "d"]
    gold = {"b", "d", "x"}
    assert recall_at_k(ranked, gold, 1) == 0.0
    assert recall_at_k(ranked, gold, 2) == pytest.approx(1 / 3)
    assert recall_at_k(ranked, gold, 4) == pytest.approx(2 / 3)
    assert recall_at_k(ranked, gold, 50) == pytest.approx(2 / 3)  # k beyond the ranking is fine


def test_all_at_k_needs_every_gold_id() -> None:
    assert all_at_k(["a", "b", "c"], ["a", "b"], 2) == 1.0
    assert all_at_k(["a", "c", "b"], ["a", "b"], 2) == 0.0
    assert recall_all(["a", "c", "b"], ["a", "b"], 3) == 1.0


def test_recall_any_needs_one_gold_id() -> None:
    assert recall_any(["x", "y", "g"], {"g", "h"}, 2) == 0.0
    assert recall_any(["x", "y", "g"], {"g", "h"}, 3) == 1.0


def test_metrics_refuse_empty_gold_and_bad_k() -> None:
    with pytest.raises(ValidationError, match="gold"):
        recall_at_k(["a"], set(), 1)
    with pytest.raises(ValidationError, match="k"):
        ndcg_at_k(["a"], {"a"}, 0)


# --- nDCG (LongMemEval's definition) ---------------------------------------------------------------------


def test_dcg_gives_rank_one_and_two_full_weight() -> None:
    # LongMemEval: rel_1 + sum_{r>=2} rel_r / log2(r), so ranks 1 and 2 both weigh 1.
    assert dcg([1, 1, 1, 1], 4) == pytest.approx(1 + 1 + 1 / math.log2(3) + 0.5)
    assert dcg([], 3) == 0.0


def test_ndcg_hand_computed() -> None:
    # DCG = 0 + 1/log2(2) + 0 + 1/log2(4) = 1.5; ideal = 1 + 1 = 2.
    assert ndcg_at_k(["x", "g1", "y", "g2"], {"g1", "g2"}, 4) == pytest.approx(0.75)
    assert ndcg_at_k(["g1", "g2", "x"], {"g1", "g2"}, 3) == pytest.approx(1.0)
    assert ndcg_at_k(["x", "y"], {"g"}, 2) == 0.0


def test_ndcg_ideal_uses_min_of_k_and_gold() -> None:
    # Three gold ids but k = 2: ideal DCG is 1 + 1 = 2; one hit at rank 1 gives 1 / 2.
    assert ndcg_at_k(["a", "x", "b"], {"a", "b", "c"}, 2) == pytest.approx(0.5)
    # k = 1: a hit at rank 1 is perfect even though more gold exists.
    assert ndcg_at_k(["c", "x"], {"a", "b", "c"}, 1) == pytest.approx(1.0)


def _longmemeval_ndcg(rankings: list[int], correct: set[str], corpus: list[str], k: int) -> float:
    """LongMemEval's eval_utils.ndcg, transcribed: the oracle for the property test below."""

    def dcg_ref(rel: list[int], k: int) -> float:
        arr = np.asarray(rel, dtype=float)[:k]
        return float(arr[0] + np.sum(arr[1:] / np.log2(np.arange(2, arr.size + 1)))) if arr.size else 0.0

    relevances = [1 if doc in correct else 0 for doc in corpus]
    ideal = dcg_ref(sorted(relevances, reverse=True), k)
    actual = dcg_ref([relevances[i] for i in rankings[:k]], k)
    return 0.0 if ideal == 0 else actual / ideal


@given(
    order=st.permutations(list(range(8))),
    gold_mask=st.lists(st.booleans(), min_size=8, max_size=8).filter(any),
    k=st.integers(1, 10),
)
def test_ndcg_matches_longmemeval_reference(order: list[int], gold_mask: list[bool], k: int) -> None:
    corpus = [f"d{i}" for i in range(8)]
    gold = {doc for doc, is_gold in zip(corpus, gold_mask, strict=True) if is_gold}
    ranked = [corpus[i] for i in order]
    assert ndcg_at_k(ranked, gold, k) == pytest.approx(_longmemeval_ndcg(order, gold, corpus, k))


# --- sessions, flattening, percentiles, averages ---------------------------------------------------------


def test_rank_sessions_orders_by_first_turn() -> None:
    session_of = {"t1": "s2", "t2": "s1", "t3": "s2", "t4": "s3"}
    assert rank_sessions(["t1", "t2", "t3", "t4"], session_of) == ["s2", "s1", "s3"]
    with pytest.raises(ValidationError):
        rank_sessions(["nope"], session_of)


def test_session_recall_counts_sessions_touched_by_top_k() -> None:
    session_of = {"D1:1": "s1", "D1:2": "s1", "D2:1": "s2", "D3:1": "s3"}
    ranked = ["D1:2", "D3:1", "D2:1"]
    assert session_recall_at_k(ranked, {"s1", "s2"}, session_of, 1) == pytest.approx(0.5)
    assert session_recall_at_k(ranked, {"s1", "s2"}, session_of, 2) == pytest.approx(0.5)
    assert session_recall_at_k(ranked, {"s1", "s2"}, session_of, 3) == pytest.approx(1.0)


def test_flatten_ranking_keeps_first_occurrence() -> None:
    assert flatten_ranking([["a", "b"], ["c"], ["a"], ["d", "c"]]) == ["a", "b", "c", "d"]


def test_percentile_interpolates_like_numpy() -> None:
    values = [4.0, 1.0, 3.0, 2.0]
    assert percentile(values, 50) == pytest.approx(2.5)
    assert percentile(values, 95) == pytest.approx(3.85)
    assert percentile([7.0], 95) == 7.0
    rng = np.random.default_rng(0)
    sample = list(rng.random(37))
    for q in (0, 5, 50, 95, 100):
        assert percentile(sample, q) == pytest.approx(float(np.percentile(sample, q)))
    with pytest.raises(ValidationError):
        percentile([], 50)


def test_latency_json_gives_p50_and_p95_and_none_for_a_run_that_asked_nothing() -> None:
    assert latency_json([1.0, 2.0, 3.0, 4.0]) == {
        "query_ms_p50": pytest.approx(2.5),
        "query_ms_p95": pytest.approx(3.85),
    }
    assert latency_json([]) == {"query_ms_p50": None, "query_ms_p95": None}


def test_averager_means_overall_and_per_group() -> None:
    averager = Averager()
    averager.add("a", {"m": 1.0})
    averager.add("a", {"m": 0.0})
    averager.add("b", {"m": 1.0, "only_b": 0.5})
    assert averager.count() == 3 and averager.count("a") == 2
    assert averager.means() == {"m": pytest.approx(2 / 3), "only_b": 0.5}
    assert averager.means("a") == {"m": 0.5}
    assert averager.groups() == ["a", "b"]


# --- LoCoMo loading and repair ---------------------------------------------------------------------------

KNOWN = {"D8:6", "D9:17", "D11:26", "D30:5", "D1:1"}


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (["D8:6; D9:17"], ("D8:6", "D9:17")),
        (["D:11:26"], ("D11:26",)),
        (["D30:05"], ("D30:5",)),
        (["D1:1", "D", "D99:1"], ("D1:1",)),
        (["D1:1", "D1:1"], ("D1:1",)),
    ],
)
def test_repair_evidence(raw: list[str], expected: tuple[str, ...]) -> None:
    assert locomo.repair_evidence(raw, KNOWN)[0] == expected


def test_repair_evidence_counts_repairs_and_drops() -> None:
    assert locomo.repair_evidence(["D8:6; D9:17", "D:11:26", "D", "D99:1", "D1:1"], KNOWN)[1:] == (3, 2)


def _sample() -> dict[str, object]:
    return {
        "sample_id": "conv-x",
        "conversation": {
            "speaker_a": "Ann",
            "speaker_b": "Bo",
            "session_2_date_time": "9:00 am on 2 June, 2023",
            "session_2": [{"speaker": "Bo", "dia_id": "D2:1", "text": "Hi again"}],
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {"speaker": "Ann", "dia_id": "D1:1", "text": "Hello"},
                {"speaker": "Bo", "dia_id": "D1:2", "text": "Look", "blip_caption": "a photo of a cat"},
            ],
        },
        "qa": [
            {"question": "q1", "category": 1, "evidence": ["D1:1; D2:1"]},
            {"question": "q5", "category": 5, "evidence": ["D1:1"]},
            {"question": "q-bad", "category": 2, "evidence": ["D7:1", "D"]},
            {"question": "q-none", "category": 3, "evidence": []},
            {"question": "q4", "category": 4, "evidence": ["D:1:02"]},
        ],
    }


def test_parse_conversation_excludes_category_5_and_skips_questions_left_without_evidence() -> None:
    conv = locomo.parse_conversation(_sample())
    assert [q.question for q in conv.questions] == ["q1", "q4"]
    assert conv.questions[0].evidence == ("D1:1", "D2:1")
    assert conv.questions[1].evidence == ("D1:2",)
    assert conv.skipped_questions == 2
    assert conv.dropped_ids == 2
    # Sessions in numeric order, each turn timed by its session date, captions kept in the content.
    assert [t.dia_id for t in conv.turns] == ["D1:1", "D1:2", "D2:1"]
    assert conv.turns[0].time == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert conv.turns[1].content == "Bo: Look [image: a photo of a cat]"


def test_locomo_score_question() -> None:
    conv = locomo.parse_conversation(_sample())
    scores = locomo.score_question(["D1:2", "D2:1", "D1:1"], conv.questions[0], conv.session_of(), [1, 2, 3])
    # Gold D1:1, D2:1 (sessions 1 and 2); top-1 is D1:2 from session 1.
    assert scores["recall@1"] == 0.0 and scores["session_recall@1"] == 0.5
    assert scores["recall@2"] == 0.5 and scores["all@2"] == 0.0 and scores["session_recall@2"] == 1.0
    assert scores["recall@3"] == 1.0 and scores["all@3"] == 1.0


def test_parse_locomo_date_rejects_other_forms() -> None:
    with pytest.raises(ValidationError, match="session date"):
        locomo.parse_locomo_date("2023-05-08")


# --- LongMemEval streaming and scoring -------------------------------------------------------------------


@pytest.mark.parametrize("chunk", [1, 2, 7, 1 << 20])
def test_iter_json_array_streams_any_chunking(chunk: int) -> None:
    text = ' [ {"a": [1, 2, "]"]}, 12345 , {"b": {}} ] '
    assert list(longmemeval.iter_json_array(io.StringIO(text), chunk_size=chunk)) == json.loads(text)


@pytest.mark.parametrize("text", ["", "{}", "[1 2]", "[1,", '[{"a": 1}'])
def test_iter_json_array_rejects_malformed(text: str) -> None:
    with pytest.raises(ValidationError):
        list(longmemeval.iter_json_array(io.StringIO(text), chunk_size=2))


def _lme_entry(qid: str = "q1") -> dict[str, object]:
    return {
        "question_id": qid,
        "question_type": "single-session-user",
        "question": "What?",
        "answer_session_ids": ["s_ans", "s_gone"],
        "haystack_dates": ["2023/04/21 (Fri) 07:24", "2023/04/22 (Sat) 08:00"],
        "haystack_session_ids": ["s_other", "s_ans"],
        "haystack_sessions": [
            [{"role": "user", "content": "u0"}, {"role": "assistant", "content": "a0"}],
            [{"role": "user", "content": "u1", "has_answer": True}, {"role": "assistant", "content": "a1"}],
        ],
    }


@pytest.mark.parametrize("suffix", [".json", ".json.gz", ".jsonl"])
def test_iter_longmemeval_reads_every_format(tmp_path: Path, suffix: str) -> None:
    entries = [_lme_entry("q1"), _lme_entry("q2_abs")]
    path = tmp_path / f"data{suffix}"
    text = "\n".join(json.dumps(e) for e in entries) if suffix == ".jsonl" else json.dumps(entries)
    if suffix.endswith(".gz"):
        path.write_bytes(gzip.compress(text.encode()))
    else:
        path.write_text(text)
    questions = list(longmemeval.iter_longmemeval(path))
    assert [q.question_id for q in questions] == ["q1", "q2_abs"]
    assert [q.abstention for q in questions] == [False, True]
    assert [t.key for t in questions[0].turns] == ["0:0", "0:1", "1:0", "1:1"]
    assert questions[0].turns[2].time == datetime(2023, 4, 22, 8, 0, tzinfo=UTC)


def test_longmemeval_score_question_by_hand() -> None:
    question = longmemeval.parse_question(_lme_entry())
    # Turn ranking: other session's turn first, then the gold turn; sessions rank as [s_other, s_ans].
    scores = longmemeval.score_question(["0:1", "1:0", "0:0"], question, [1, 2])
    # Gold sessions are those present in the haystack: only s_ans ("s_gone" is not there).
    assert scores["session.recall_any@1"] == 0.0 and scores["session.recall_any@2"] == 1.0
    assert scores["session.recall_all@2"] == 1.0
    assert scores["session.ndcg@2"] == pytest.approx(1.0)  # rank 2 weighs 1 in LongMemEval's DCG
    assert scores["turn.recall_any@1"] == 0.0 and scores["turn.recall_all@2"] == 1.0
    assert scores["turn.ndcg@1"] == 0.0


def test_longmemeval_skips_a_turn_that_shows_nothing_as_it_skips_an_empty_one(tmp_path: Path) -> None:
    entry = _lme_entry()
    sessions = entry["haystack_sessions"]
    assert isinstance(sessions, list)
    sessions[0].append({"role": "user", "content": "\u200b "})  # a zero-width space: no message to remember
    sessions[1].append({"role": "assistant", "content": ""})
    questions = iter([longmemeval.parse_question(entry)])
    result = longmemeval.run_longmemeval(
        lambda: Memory.open(tmp_path / "lme.db", embedder=HashingEmbedder()), questions, [1, 2]
    )
    assert result.n == 1  # scored: such a turn is left out, not an error that stops the run


def test_split_content_drops_empty_and_cuts_long_turns() -> None:
    assert split_content("   ") == []
    assert split_content(" short ") == ["short"]
    pieces = split_content("word " * 10, limit=12)
    assert all(len(p) <= 12 for p in pieces) and " ".join(pieces).split() == ["word"] * 10


# --- knowledge update ------------------------------------------------------------------------------------


def test_update_score_hits() -> None:
    def score(ids: list[str], top: str | None) -> dict[str, float]:
        return update.score_hits(ids, top, "new", {"old"}, "Berlin")

    assert score(["new", "old"], "Bob lives in berlin") == {
        "top1_accuracy": 1.0,
        "new_top1_rate": 1.0,
        "stale_above_new_rate": 0.0,
    }
    assert score(["old", "new"], "Bob lives in Paris")["stale_above_new_rate"] == 1.0
    assert score(["old"], "Bob lives in Paris")["stale_above_new_rate"] == 1.0  # new one missing
    assert score(["x"], "nothing")["stale_above_new_rate"] == 0.0  # neither retrieved
    assert score([], None)["top1_accuracy"] == 0.0
    assert score(["old", "new"], "Bob lived in Berlin")["top1_accuracy"] == 0.0  # a stale fact is never right


def test_top1_accuracy_ignores_case_quotes_and_punctuation_but_needs_whole_words() -> None:
    assert update.contains_answer("She moved to \u201cNew-York\u201d, finally.", "new york")
    assert update.contains_answer("Ines Park\u2019s book", "Ines Park's book")
    assert update.contains_answer("Hugo Brandt's debut novel", "Hugo Brandt")
    assert update.contains_answer("He exhibited his sculptures.", "sculpture")
    assert not update.contains_answer("Nonetheless she stayed.", "none")
    assert not update.contains_answer("anything", "  ")


def test_top1_accuracy_answerable_counts_only_items_whose_newer_fact_holds_the_answer() -> None:
    scores = update.score_hits(["new"], "Nora lives in Berlin.", "new", set(), "Berlin", "Nora lives in Berlin.")
    assert scores["top1_accuracy_answerable"] == 1.0
    assert "top1_accuracy_answerable" not in update.score_hits(["new"], "x", "new", set(), "zero", "never went")


def test_parse_update_item_unquotes_and_checks_indices() -> None:
    def raw(indices: list[int]) -> dict[str, object]:
        extra = {"facts": ["A"], "contradicting_fact": '"B now"', "supporting_fact_indices": indices}
        return {"input": "Where?", "ground_truth": "B", "agent_args": {"extra": extra}}

    item = update.parse_update_item(raw([0]))
    assert item.contradicting_fact == "B now" and item.superseded == (0,)
    with pytest.raises(ValidationError, match="supporting_fact_indices"):
        update.parse_update_item(raw([3]))


# --- report ----------------------------------------------------------------------------------------------


def test_write_report_has_tables_and_chart_or_says_why_not(tmp_path: Path) -> None:
    data = ReportData(
        name="locomo",
        title="LoCoMo",
        command="tiermem eval locomo x",
        overall={"recall@5": 0.5},
        n=2,
        groups={"temporal": {"recall@5": 1.0}, "multi-hop": {"recall@5": 0.0}},
        group_n={"temporal": 1, "multi-hop": 1},
        chart_metrics=("recall@5",),
    )
    files = write_report(data, tmp_path / "out")
    text = files.markdown.read_text()
    assert "| temporal | 1 | 1.000 |" in text and "| multi-hop | 1 | 0.000 |" in text
    if files.chart is None:
        assert NO_PLOT in text
    else:
        assert files.chart.exists() and files.chart.name in text
