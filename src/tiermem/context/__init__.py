"""The two-tier runtime: budget, core blocks, message queue, eviction, summary, compile."""
