"""Retrieval evaluation on public benchmarks (LoCoMo, LongMemEval, knowledge update), without an LLM."""

from __future__ import annotations

from tiermem.eval.locomo import Conversation, LocomoResult, load_locomo, repair_evidence, run_locomo
from tiermem.eval.longmemeval import LmeQuestion, LmeResult, iter_longmemeval, run_longmemeval
from tiermem.eval.metrics import (
    all_at_k,
    ndcg_at_k,
    percentile,
    rank_sessions,
    recall_all,
    recall_any,
    recall_at_k,
    session_recall_at_k,
)
from tiermem.eval.report import ReportData, write_report
from tiermem.eval.update import UpdateItem, UpdateResult, iter_update_items, run_update

__all__ = [
    "Conversation",
    "LmeQuestion",
    "LmeResult",
    "LocomoResult",
    "ReportData",
    "UpdateItem",
    "UpdateResult",
    "all_at_k",
    "iter_longmemeval",
    "iter_update_items",
    "load_locomo",
    "ndcg_at_k",
    "percentile",
    "rank_sessions",
    "recall_all",
    "recall_any",
    "recall_at_k",
    "repair_evidence",
    "run_locomo",
    "run_longmemeval",
    "run_update",
    "session_recall_at_k",
    "write_report",
]
