"""Recall: hybrid candidates fused by reciprocal rank and re-scored by pluggable factors.

``search`` gathers candidates and ranks them, ``fusion`` fuses the lists, ``factors`` holds the re-scoring
factors (trust, recency, first hand, speaker, named day, quarantine), ``policy`` the knobs, ``newer`` the
newer-facts-first pass, ``current`` a closed fact's current version, ``passages`` per-sentence vectors.
"""
