"""The inspector's erase in a real server process leaves SQLite's locks and the file whole.

SQLite's locks are per process: had the erase page read the database's files itself, closing that descriptor
would have dropped the server's locks, and keys made by another process afterwards went unseen, revoked ones
kept working and acknowledged writes went missing. These tests run the sequence against ``tiermem serve``.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import time
from pathlib import Path

import httpx

from served_process import TIERMEM, env_for, make_key, served
from ui_fixtures import csrf_of

TENANT = "acme"
CACHE_SECONDS = 1.0  # the server's credential cache: a revoked key is refused at most this late


def _key_json(db: Path, user: str) -> dict[str, str]:
    create = [*TIERMEM, "keys", "create", "--tenant", TENANT, "--user", user, "--json"]
    out = subprocess.run(create, env=env_for(db), capture_output=True, text=True, check=True).stdout
    return dict(json.loads(out))


def _revoke(db: Path, key_id: str) -> None:
    subprocess.run([*TIERMEM, "keys", "revoke", key_id], env=env_for(db), capture_output=True, check=True)


def _remember(url: str, key: str, text: str) -> httpx.Response:
    return httpx.post(f"{url}/v1/memories", json={"content": text}, headers={"Authorization": f"Bearer {key}"})


def _erase_in_inspector(url: str, admin: str, target: str) -> str:
    with httpx.Client(base_url=url, follow_redirects=False) as ui:
        page = ui.get("/ui/login")
        signed = ui.post("/ui/login", data={"csrf": csrf_of(page.text), "credential": admin})
        assert signed.status_code == 303, signed.text
        form = ui.get("/ui/erase")
        done = ui.post("/ui/erase", data={"csrf": csrf_of(form.text), "target": target, "confirm": target})
        assert done.status_code == 200, done.text
        return done.text


def test_keys_made_and_revoked_by_another_process_after_an_inspector_erase_take_effect(tmp_path: Path) -> None:
    db = tmp_path / "served.db"
    subprocess.run([*TIERMEM, "init"], env=env_for(db), capture_output=True, check=True)
    admin = subprocess.run(
        [*TIERMEM, "keys", "create", "--tenant", TENANT, "--user", "root", "--role", "admin"],
        env=env_for(db),
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    ann = make_key(db, TENANT, "ann")
    acknowledged: list[str] = []
    with served(db) as url:
        for run in range(3):  # three erases in one server's life, each followed by the other process's key work
            victim = f"victim{run}"
            victim_key = make_key(db, TENANT, victim)
            assert _remember(url, victim_key, f"note {run} of the erased user").status_code == 201
            page = _erase_in_inspector(url, admin, victim)
            assert "found in the database file" in page

            fresh = _key_json(db, f"fresh{run}")  # made by another process after the erase
            assert _remember(url, fresh["secret"], f"first note of fresh{run}").status_code == 201
            _revoke(db, fresh["id"])
            time.sleep(CACHE_SECONDS + 0.2)
            assert _remember(url, fresh["secret"], "after revocation").status_code == 401

            for i in range(5):
                text = f"ann's acknowledged note {run}.{i}"
                assert _remember(url, ann, text).status_code == 201
                acknowledged.append(text)
    with sqlite3.connect(db) as conn:  # the server has stopped: nothing holds the file
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        stored = {content for (content,) in conn.execute("SELECT content FROM records WHERE user_key = 'ann'")}
    assert set(acknowledged) <= stored
