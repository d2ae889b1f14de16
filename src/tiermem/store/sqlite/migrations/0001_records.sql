-- Records, their full-text index (kept in step by triggers, so in the same transaction) and their vectors.
CREATE TABLE records (
    rowid           INTEGER PRIMARY KEY,
    id              TEXT NOT NULL UNIQUE,
    tenant          TEXT NOT NULL,
    user_key        TEXT NOT NULL,          -- '' = shared memory of the tenant
    agent           TEXT NOT NULL DEFAULT '',
    session         TEXT NOT NULL DEFAULT '',
    type            TEXT NOT NULL,
    content         TEXT NOT NULL,
    source          TEXT NOT NULL,
    source_kind     TEXT NOT NULL,
    trust           REAL NOT NULL,
    created_at      REAL NOT NULL,
    updated_at      REAL,
    valid_from      REAL NOT NULL,
    valid_to        REAL,
    expires_at      REAL,
    content_hash    TEXT NOT NULL,
    embedding_model TEXT,
    tags            TEXT NOT NULL DEFAULT '[]',
    supersedes      TEXT,
    metadata        TEXT NOT NULL DEFAULT '{}',
    version         INTEGER NOT NULL DEFAULT 1,
    -- One full-text token per (tenant, user): a keyword query ANDs it in, so it walks only that scope's postings.
    scope_tok       TEXT GENERATED ALWAYS AS ('s' || hex(tenant || '/' || user_key)) VIRTUAL
);
CREATE INDEX records_scope ON records (tenant, user_key, type, valid_from);
CREATE INDEX records_hash ON records (tenant, user_key, type, content_hash);
CREATE INDEX records_expiry ON records (expires_at) WHERE expires_at IS NOT NULL;
CREATE INDEX records_model ON records (tenant, user_key, embedding_model) WHERE embedding_model IS NOT NULL;

CREATE VIRTUAL TABLE records_fts USING fts5 (
    content,
    scope_tok,
    content = 'records',
    content_rowid = 'rowid',
    tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER records_ai AFTER INSERT ON records BEGIN
    INSERT INTO records_fts (rowid, content, scope_tok) VALUES (new.rowid, new.content, new.scope_tok);
END;
CREATE TRIGGER records_ad AFTER DELETE ON records BEGIN
    INSERT INTO records_fts (records_fts, rowid, content, scope_tok) VALUES ('delete', old.rowid, old.content, old.scope_tok);
    DELETE FROM vectors WHERE record_rowid = old.rowid;
END;
CREATE TRIGGER records_au AFTER UPDATE OF content, tenant, user_key ON records BEGIN
    INSERT INTO records_fts (records_fts, rowid, content, scope_tok) VALUES ('delete', old.rowid, old.content, old.scope_tok);
    INSERT INTO records_fts (rowid, content, scope_tok) VALUES (new.rowid, new.content, new.scope_tok);
END;

CREATE TABLE vectors (
    record_rowid INTEGER PRIMARY KEY,
    tenant       TEXT NOT NULL,
    user_key     TEXT NOT NULL,
    model        TEXT NOT NULL,
    dim          INTEGER NOT NULL,
    vec          BLOB NOT NULL
);
CREATE INDEX vectors_scope ON vectors (tenant, user_key);

-- Per (tenant, user): a generation number bumped by every write (vector caches compare it to stay fresh,
-- also across processes sharing the file) and the record count (the query planner's scope size).
CREATE TABLE scope_generations (
    tenant   TEXT NOT NULL,
    user_key TEXT NOT NULL,
    gen      INTEGER NOT NULL,
    n        INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tenant, user_key)
) WITHOUT ROWID;
