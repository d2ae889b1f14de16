-- Replies kept for retries: a POST with an Idempotency-Key is answered once, and a retry with the same key gets
-- that answer again instead of a second write. Scoped by (tenant, user_key): erased with the user; not exported
-- (a day's bookkeeping). status NULL: the first request is still running (claimed at created_at).
CREATE TABLE idempotency_keys (
    tenant      TEXT NOT NULL,
    user_key    TEXT NOT NULL,          -- '' = the tenant's shared memory
    key         TEXT NOT NULL,
    fingerprint TEXT NOT NULL,          -- sha256 of the method, path, query and body
    status      INTEGER,
    body        BLOB,
    media_type  TEXT,
    created_at  REAL NOT NULL,
    PRIMARY KEY (tenant, user_key, key)
);
CREATE INDEX idempotency_keys_age ON idempotency_keys (tenant, user_key, created_at);
