"""A real full disk: the database on a 2 MiB tmpfs. Writes fail with 507 or 503, nothing acknowledged is lost,
and the server takes writes again once space returns.

Mounting needs root (or CAP_SYS_ADMIN): without it the test skips and says so; the always-run variant is
``test_a_full_disk_is_507_and_the_server_recovers`` in test_server_http.py (SQLite's max_page_count).
"""

from __future__ import annotations

import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from live_server import live_server
from tiermem.server.settings import RateLimit


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "small"
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(folder)], capture_output=True, text=True
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here (needs root): {mounted.stderr.strip() or mounted.returncode}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def test_a_really_full_filesystem_fails_writes_loses_nothing_and_recovers(small_disk: Path) -> None:
    db = small_disk / "memory.db"
    acknowledged: dict[str, str] = {}
    failures: list[int] = []
    with live_server(db, rate=RateLimit(per_second=0)) as server, server.client(server.key("acme", "alice")) as c:
        filler = small_disk / "filler"
        filler.write_bytes(b"\0" * (1200 * 1024))  # most of the disk taken by something else
        for n in range(400):
            content = f"Inventory note {n}: shelf {n % 17} holds " + ("boxes of assorted screws " * 40).rstrip()
            response = c.post("/v1/memories", json={"content": content})
            if response.status_code == 201:
                acknowledged[response.json()["record"]["id"]] = content
                continue
            failures.append(response.status_code)
            assert response.headers["content-type"] == "application/problem+json"
            if len(failures) >= 3:
                break
        assert failures, "the disk never filled"
        assert set(failures) <= {503, 507}, failures
        assert acknowledged, "nothing was written before the disk filled"
        for record_id, content in acknowledged.items():  # still served while the disk is full
            got = c.get(f"/v1/memories/{record_id}")
            assert got.status_code == 200 and got.json()["content"] == content
        filler.unlink()  # space returns
        again = c.post("/v1/memories", json={"content": "Written after the space came back."})
        assert again.status_code == 201, again.text
        acknowledged[again.json()["record"]["id"]] = "Written after the space came back."
    with sqlite3.connect(db) as check:
        assert check.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        stored = dict(check.execute("SELECT id, content FROM records").fetchall())
    for record_id, content in acknowledged.items():
        assert stored.get(record_id) == content
