-- The append-only audit log: every write, merge, supersession, edit, delete and rollback, with the record
-- as it was before and after (JSON). Erase redacts before/after but keeps that an operation happened.
CREATE TABLE audit_log (
    seq        INTEGER PRIMARY KEY,
    tenant     TEXT NOT NULL,
    user_key   TEXT NOT NULL,
    record_id  TEXT NOT NULL,
    at         REAL NOT NULL,
    actor      TEXT NOT NULL,
    op         TEXT NOT NULL,
    version    INTEGER NOT NULL,
    before     TEXT,
    after      TEXT,
    detail     TEXT NOT NULL DEFAULT ''
);
CREATE INDEX audit_scope ON audit_log (tenant, user_key, seq);
CREATE INDEX audit_record ON audit_log (record_id, seq);

-- Writes held for approval (procedural memory from an untrusted source).
CREATE TABLE pending_writes (
    id         TEXT PRIMARY KEY,
    tenant     TEXT NOT NULL,
    user_key   TEXT NOT NULL,
    created_at REAL NOT NULL,
    record     TEXT NOT NULL,
    reason     TEXT NOT NULL
);
CREATE INDEX pending_scope ON pending_writes (tenant, user_key);

CREATE INDEX records_supersedes ON records (supersedes) WHERE supersedes IS NOT NULL;
