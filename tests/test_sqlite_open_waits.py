"""Opening a SQLite store waits for another process that holds the file, past the 5 s busy timeout."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from tiermem.store.sqlite import SQLiteStore

HOLD = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("CREATE TABLE IF NOT EXISTS other (x)")
conn.execute("BEGIN EXCLUSIVE")
print("held", flush=True)
time.sleep(float(sys.argv[2]))
conn.execute("COMMIT")
"""


def test_open_waits_for_a_process_holding_the_file_longer_than_the_busy_timeout(tmp_path: Path) -> None:
    db = tmp_path / "shared.db"
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(db), "6.5"], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        started = time.monotonic()
        store = SQLiteStore(str(db))
        waited = time.monotonic() - started
        try:
            assert store.schema_version() > 0
        finally:
            store.close()
        assert waited > 5.0  # it did wait for the holder, beyond one statement's busy timeout
    finally:
        holder.wait(timeout=30)
