-- Replies kept for retries: a POST with an Idempotency-Key is answered once, and a retry with the same key gets
-- that answer again instead of a second write. Scoped by (tenant, user_key): erased with the user; not exported
-- (a day's bookkeeping). status NULL: the first request is still running (claimed at created_at).
CREATE TABLE idempotency_keys (
    tenant      text NOT NULL,
    user_key    text NOT NULL,           -- '' = the tenant's shared memory
    key         text NOT NULL,
    fingerprint text NOT NULL,           -- sha256 of the method, path, query and body
    status      integer,
    body        bytea,
    media_type  text,
    created_at  timestamptz NOT NULL,
    PRIMARY KEY (tenant, user_key, key)
);
CREATE INDEX idempotency_keys_age ON idempotency_keys (tenant, user_key, created_at);

ALTER TABLE idempotency_keys ENABLE ROW LEVEL SECURITY;
ALTER TABLE idempotency_keys FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_wall ON idempotency_keys
    USING (tenant = current_setting('tiermem.tenant', true) OR current_setting('tiermem.tenant', true) = '*')
    WITH CHECK (tenant = current_setting('tiermem.tenant', true) OR current_setting('tiermem.tenant', true) = '*');
