"""Recall: hybrid candidates fused by reciprocal rank and re-scored by trust, time and speaker."""
