"""The threads that embed a query beside recall's reads: results, errors, concurrency, a forked child."""

from __future__ import annotations

import os
import threading

import pytest

from tiermem.threads import TaskThreads


def test_a_task_gives_its_result_and_an_error_reaches_the_caller() -> None:
    threads = TaskThreads("test-tasks", workers=2)
    assert threads.submit(lambda: 6 * 7).result(timeout=5) == 42

    def fail() -> int:
        raise ValueError("no vector")

    with pytest.raises(ValueError, match="no vector"):
        threads.submit(fail).result(timeout=5)
    assert threads.submit(lambda: "still running").result(timeout=5) == "still running"


def test_tasks_run_side_by_side_up_to_the_number_of_threads() -> None:
    threads = TaskThreads("test-side-by-side", workers=3)
    arrived = threading.Barrier(3, timeout=5)  # passes only when three tasks run at once
    futures = [threads.submit(arrived.wait) for _ in range(3)]
    assert sorted(f.result(timeout=5) for f in futures) == [0, 1, 2]


def test_a_cancelled_task_never_runs() -> None:
    threads = TaskThreads("test-cancel", workers=1)
    gate = threading.Event()
    ran: list[str] = []
    busy = threads.submit(lambda: gate.wait(5))
    queued = threads.submit(lambda: ran.append("queued"))
    assert queued.cancel()
    gate.set()
    busy.result(timeout=5)
    assert threads.submit(lambda: "after").result(timeout=5) == "after" and ran == []


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is POSIX")
def test_a_forked_child_runs_its_tasks_on_threads_of_its_own() -> None:
    threads = TaskThreads("test-fork", workers=1)
    assert threads.submit(os.getpid).result(timeout=5) == os.getpid()  # started in the parent
    child = os.fork()
    if child == 0:  # the parent's threads are gone here: the first task starts new ones
        code = 1
        try:
            code = 0 if threads.submit(os.getpid).result(timeout=5) == os.getpid() else 1
        finally:
            os._exit(code)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
