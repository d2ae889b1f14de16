"""Files written by earlier versions migrate to the current schema: API-key tables, folded index, audit index,
window revisions and turn leases (with their renewal times)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tiermem.memory import Memory
from tiermem.types import Scope

SCOPE = Scope("t", "u")
NOTES = ("私の犬の名前はポチです。", "Der Schlüssel hängt neben der Tür.", "The kettle is on the top shelf.")
# The full-text triggers as migration 4 made them: the index holds each record's raw text.
_RAW_TRIGGERS = (
    "DROP TRIGGER records_ai",
    "DROP TRIGGER records_ad",
    "DROP TRIGGER records_au",
    "CREATE TRIGGER records_ai AFTER INSERT ON records BEGIN INSERT INTO records_fts (rowid, content, context,"
    " scope_tok) VALUES (new.rowid, new.content, new.context, new.scope_tok); END",
    "CREATE TRIGGER records_ad AFTER DELETE ON records BEGIN INSERT INTO records_fts (records_fts, rowid,"
    " content, context, scope_tok) VALUES ('delete', old.rowid, old.content, old.context, old.scope_tok);"
    " DELETE FROM vectors WHERE record_rowid = old.rowid; END",
    "CREATE TRIGGER records_au AFTER UPDATE OF content, context, tenant, user_key ON records BEGIN"
    " INSERT INTO records_fts (records_fts, rowid, content, context, scope_tok)"
    " VALUES ('delete', old.rowid, old.content, old.context, old.scope_tok);"
    " INSERT INTO records_fts (rowid, content, context, scope_tok)"
    " VALUES (new.rowid, new.content, new.context, new.scope_tok); END",
    "INSERT INTO records_fts (records_fts) VALUES ('rebuild')",
)


def _found(memory: Memory, query: str) -> list[str]:
    return [hit.record.content for hit in memory.recall(SCOPE, query, k=10)]


def _as_written_at(url: str, version: int) -> None:
    """A file at schema ``version``: made now, then taken back to what that version held."""
    with Memory.open(url, embedder=None) as memory:
        for note in NOTES:
            memory.remember(SCOPE, note)
        conn = memory.store._conn  # type: ignore[attr-defined]
        if version < 6:
            for statement in _RAW_TRIGGERS:
                conn.execute(statement)
        if version < 5:
            conn.execute("DROP TABLE session_bindings")
            conn.execute("DROP TABLE api_keys")
        if version < 7:
            conn.execute("DROP INDEX audit_mentions")
        if version < 8:
            conn.execute("DROP INDEX records_newest")
        if version < 9:
            conn.execute("DROP TABLE idempotency_keys")
        elif version < 13:  # an answer kept by a version that did not record its caller
            conn.execute("ALTER TABLE idempotency_keys DROP COLUMN caller")
            conn.execute(
                "INSERT INTO idempotency_keys (tenant, user_key, key, fingerprint, status, body, created_at)"
                " VALUES ('t', '', 'k', 'f', 200, x'7b7d', 0)"
            )
        if version < 10:
            conn.execute("ALTER TABLE context_windows DROP COLUMN revision")
        if version < 11:
            conn.execute("DROP TABLE turn_leases")
        elif version < 12:
            conn.execute("ALTER TABLE turn_leases DROP COLUMN renewed_at")
        conn.execute("DELETE FROM schema_migrations WHERE version > ?", [version])
        assert memory.store.schema_version() == version  # type: ignore[attr-defined]
        if version < 6:
            assert _found(memory, "名前") == []  # the raw text: a Japanese clause is one token


@pytest.mark.parametrize("version", [4, 5, 6, 7, 8, 9, 10, 11, 12])
def test_a_file_at_an_earlier_version_migrates_to_the_latest(tmp_path: Path, version: int) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    _as_written_at(url, version)
    with Memory.open(url, embedder=None) as memory:
        conn = memory.store._conn  # type: ignore[attr-defined]
        applied = [v for (v,) in conn.execute("SELECT version FROM schema_migrations ORDER BY version")]
        assert applied == list(range(1, 14))
        assert conn.execute("SELECT count(*) FROM turn_leases").fetchone() == (0,)
        assert "renewed_at" in {row[1] for row in conn.execute("PRAGMA table_info(turn_leases)")}
        assert "revision" in {row[1] for row in conn.execute("PRAGMA table_info(context_windows)")}
        assert conn.execute("SELECT count(*) FROM idempotency_keys").fetchone() == (0,)  # none without its caller
        assert "caller" in {row[1] for row in conn.execute("PRAGMA table_info(idempotency_keys)")}
        assert conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'audit_mentions'").fetchone() == (1,)
        assert conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'records_newest'").fetchone() == (1,)
        assert conn.execute("SELECT count(*) FROM api_keys").fetchone() == (0,)
        assert _found(memory, "名前") == [NOTES[0]]
        assert _found(memory, "schlussel") == [NOTES[1]]
        assert _found(memory, "kettle") == [NOTES[2]]
