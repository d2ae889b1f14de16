-- Records with their full-text terms (a tsvector made by the application, see terms.py), their vectors, the
-- per-scope statistics BM25 reads, the audit log and writes held for approval. The tenant leads every primary
-- key, unique constraint and index, so the schema can be distributed by tenant as it is (docs/postgres.md).
CREATE EXTENSION IF NOT EXISTS vector;
CREATE EXTENSION IF NOT EXISTS btree_gin;

CREATE TABLE records (
    tenant          text NOT NULL,
    id              text NOT NULL,
    user_key        text NOT NULL,          -- '' = shared memory of the tenant
    agent           text NOT NULL DEFAULT '',
    session         text NOT NULL DEFAULT '',
    seq             bigint GENERATED ALWAYS AS IDENTITY,  -- order of insertion (ties, pagination)
    type            text NOT NULL,
    content         text NOT NULL,
    source          text NOT NULL,
    source_kind     text NOT NULL,
    trust           double precision NOT NULL,
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz,
    valid_from      timestamptz NOT NULL,
    valid_to        timestamptz,
    expires_at      timestamptz,
    content_hash    text NOT NULL,
    embedding_model text,
    tags            text[] NOT NULL DEFAULT '{}',
    supersedes      text,
    metadata        text NOT NULL DEFAULT '{}',
    version         integer NOT NULL DEFAULT 1,
    context         text,
    fts             tsvector NOT NULL,
    fts_len         integer NOT NULL,
    PRIMARY KEY (tenant, id)
);
CREATE INDEX records_scope ON records (tenant, user_key, type, valid_from);
CREATE INDEX records_seq ON records (tenant, user_key, seq);
CREATE INDEX records_hash ON records (tenant, user_key, type, content_hash);
CREATE INDEX records_expiry ON records (tenant, expires_at) WHERE expires_at IS NOT NULL;
CREATE INDEX records_supersedes ON records (tenant, supersedes) WHERE supersedes IS NOT NULL;
CREATE INDEX records_fts ON records USING gin (tenant, user_key, fts);

-- A record's vectors: part 0 its own, parts 1.. its passages'. HNSW indexes are made per dimension by the store
-- (a vector column of mixed dimensions cannot be indexed as a whole) and hold only the vectors of scopes large
-- enough to need one (`indexed`): a small scope is searched exactly and never pays for HNSW inserts.
CREATE TABLE vectors (
    tenant    text NOT NULL,
    record_id text NOT NULL,
    part      integer NOT NULL,
    user_key  text NOT NULL,
    model     text NOT NULL,
    dim       integer NOT NULL,
    vec       vector NOT NULL,
    indexed   boolean NOT NULL DEFAULT false,
    PRIMARY KEY (tenant, record_id, part),
    FOREIGN KEY (tenant, record_id) REFERENCES records (tenant, id) ON DELETE CASCADE
);
CREATE INDEX vectors_scope ON vectors (tenant, user_key, model);

-- Per (tenant, user): documents and tokens (BM25's N and average length), kept by the triggers below, and
-- whether the scope's vectors are in the HNSW indexes (set by the store once the scope has grown large).
CREATE TABLE scope_stats (
    tenant   text NOT NULL,
    user_key text NOT NULL,
    docs     bigint NOT NULL DEFAULT 0,
    tokens   bigint NOT NULL DEFAULT 0,
    indexed  boolean NOT NULL DEFAULT false,
    PRIMARY KEY (tenant, user_key)
);

-- Per (tenant, user, term): how many documents hold the term (BM25's document frequency).
CREATE TABLE fts_terms (
    tenant   text NOT NULL,
    user_key text NOT NULL,
    term     text NOT NULL,
    df       bigint NOT NULL,
    PRIMARY KEY (tenant, user_key, term)
);

CREATE FUNCTION tiermem_fts_stats() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        INSERT INTO scope_stats AS s (tenant, user_key, docs, tokens)
            SELECT tenant, user_key, -count(*), -sum(fts_len) FROM old_rows GROUP BY 1, 2 ORDER BY 1, 2
            ON CONFLICT (tenant, user_key) DO UPDATE SET docs = s.docs + excluded.docs, tokens = s.tokens + excluded.tokens;
        INSERT INTO fts_terms AS t (tenant, user_key, term, df)
            SELECT tenant, user_key, w, -count(*) FROM old_rows, unnest(tsvector_to_array(fts)) w
            GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
            ON CONFLICT (tenant, user_key, term) DO UPDATE SET df = t.df + excluded.df;
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') THEN
        INSERT INTO scope_stats AS s (tenant, user_key, docs, tokens)
            SELECT tenant, user_key, count(*), sum(fts_len) FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
            ON CONFLICT (tenant, user_key) DO UPDATE SET docs = s.docs + excluded.docs, tokens = s.tokens + excluded.tokens;
        INSERT INTO fts_terms AS t (tenant, user_key, term, df)
            SELECT tenant, user_key, w, count(*) FROM new_rows, unnest(tsvector_to_array(fts)) w
            GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
            ON CONFLICT (tenant, user_key, term) DO UPDATE SET df = t.df + excluded.df;
    END IF;
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        -- A term no document holds any more is itself personal data: it goes.
        DELETE FROM fts_terms t
            USING (SELECT DISTINCT tenant, user_key, w FROM old_rows, unnest(tsvector_to_array(fts)) w) o
            WHERE t.tenant = o.tenant AND t.user_key = o.user_key AND t.term = o.w AND t.df <= 0;
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER records_fts_insert AFTER INSERT ON records REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION tiermem_fts_stats();
CREATE TRIGGER records_fts_update AFTER UPDATE ON records REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION tiermem_fts_stats();
CREATE TRIGGER records_fts_delete AFTER DELETE ON records REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION tiermem_fts_stats();

-- The append-only audit log (erase redacts before/after but keeps that an operation happened).
CREATE TABLE audit_log (
    tenant     text NOT NULL,
    seq        bigint GENERATED ALWAYS AS IDENTITY,
    user_key   text NOT NULL,
    record_id  text NOT NULL,
    at         timestamptz NOT NULL,
    actor      text NOT NULL,
    op         text NOT NULL,
    version    integer NOT NULL,
    before     jsonb,
    after      jsonb,
    detail     text NOT NULL DEFAULT '',
    PRIMARY KEY (tenant, seq)
);
CREATE INDEX audit_scope ON audit_log (tenant, user_key, seq);
CREATE INDEX audit_record ON audit_log (tenant, record_id, seq);

-- Writes held for approval (procedural memory from an untrusted source).
CREATE TABLE pending_writes (
    tenant     text NOT NULL,
    id         text NOT NULL,
    user_key   text NOT NULL,
    created_at timestamptz NOT NULL,
    record     jsonb NOT NULL,
    reason     text NOT NULL,
    PRIMARY KEY (tenant, id)
);
CREATE INDEX pending_scope ON pending_writes (tenant, user_key);

-- The working context: core memory blocks (per tenant, user, agent) with their edit history, and the
-- in-context message window (per session). Scope parts that are None are stored as ''.
CREATE TABLE core_blocks (
    tenant       text NOT NULL,
    user_key     text NOT NULL,
    agent        text NOT NULL DEFAULT '',
    name         text NOT NULL,
    value        text NOT NULL,
    limit_tokens integer NOT NULL,
    description  text NOT NULL DEFAULT '',
    read_only    integer NOT NULL DEFAULT 0,
    version      integer NOT NULL,
    updated_at   timestamptz NOT NULL,
    PRIMARY KEY (tenant, user_key, agent, name)
);

CREATE TABLE core_block_edits (
    tenant   text NOT NULL,
    id       text NOT NULL,
    user_key text NOT NULL,
    agent    text NOT NULL DEFAULT '',
    name     text NOT NULL,
    actor    text NOT NULL,
    at       timestamptz NOT NULL,
    op       text NOT NULL,
    before   text,
    after    text,
    version  integer NOT NULL,
    PRIMARY KEY (tenant, id)
);
CREATE INDEX core_block_edits_block ON core_block_edits (tenant, user_key, agent, name, version);

CREATE TABLE context_windows (
    tenant          text NOT NULL,
    user_key        text NOT NULL,
    agent           text NOT NULL DEFAULT '',
    session         text NOT NULL DEFAULT '',
    message_ids     jsonb NOT NULL DEFAULT '[]',
    summary_through text,
    updated_at      timestamptz NOT NULL,
    PRIMARY KEY (tenant, user_key, agent, session)
);
