"""Benchmarks of the embedded store: search latency at scale and write-path throughput (internal)."""
