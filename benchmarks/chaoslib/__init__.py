"""The chaos harness behind ``benchmarks/chaos.py``: its servers, writers, ledger and checks."""
