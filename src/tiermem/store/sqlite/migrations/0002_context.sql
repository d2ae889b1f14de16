-- The working context: core memory blocks with their edit history, and the in-context message window.
-- Scope parts that are None are stored as '' (as in records). Core blocks belong to (tenant, user, agent),
-- so they carry over between sessions; a context window belongs to one session. Rowid tables, not WITHOUT
-- ROWID: a window row holds ~40 KB of ids for 1,000 messages and is rewritten every turn, and SQLite stores
-- large rows far better in a rowid table (an update measured 3x faster).
CREATE TABLE core_blocks (
    tenant       TEXT NOT NULL,
    user_key     TEXT NOT NULL,
    agent        TEXT NOT NULL DEFAULT '',
    name         TEXT NOT NULL,
    value        TEXT NOT NULL,
    limit_tokens INTEGER NOT NULL,
    description  TEXT NOT NULL DEFAULT '',
    read_only    INTEGER NOT NULL DEFAULT 0,
    version      INTEGER NOT NULL,
    updated_at   REAL NOT NULL,
    PRIMARY KEY (tenant, user_key, agent, name)
);

-- Append-only: who changed which block when, and the text before and after (erase deletes these rows).
CREATE TABLE core_block_edits (
    id       TEXT PRIMARY KEY,
    tenant   TEXT NOT NULL,
    user_key TEXT NOT NULL,
    agent    TEXT NOT NULL DEFAULT '',
    name     TEXT NOT NULL,
    actor    TEXT NOT NULL,
    at       REAL NOT NULL,
    op       TEXT NOT NULL,
    before   TEXT,
    after    TEXT,
    version  INTEGER NOT NULL
);
CREATE INDEX core_block_edits_block ON core_block_edits (tenant, user_key, agent, name, version);

-- The record ids of the messages in the prompt, oldest first (a JSON array).
CREATE TABLE context_windows (
    tenant          TEXT NOT NULL,
    user_key        TEXT NOT NULL,
    agent           TEXT NOT NULL DEFAULT '',
    session         TEXT NOT NULL DEFAULT '',
    message_ids     TEXT NOT NULL DEFAULT '[]',
    summary_through TEXT,
    updated_at      REAL NOT NULL,
    PRIMARY KEY (tenant, user_key, agent, session)
);
