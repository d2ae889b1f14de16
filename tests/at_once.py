"""Test helper: callables run in their own threads, released together; a failure in any is raised here."""

from __future__ import annotations

import threading
from collections.abc import Callable


def at_once(*jobs: Callable[[], None], timeout: float = 120.0) -> None:
    """Run each job in its own thread, all started at one barrier; raise the first failure any of them met."""
    start = threading.Barrier(len(jobs))
    failures: list[BaseException] = []

    def run(job: Callable[[], None]) -> None:
        start.wait()
        try:
            job()
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout)
    if any(thread.is_alive() for thread in threads):
        raise AssertionError(f"a job was still running after {timeout:g} s")
    if failures:
        raise failures[0]
