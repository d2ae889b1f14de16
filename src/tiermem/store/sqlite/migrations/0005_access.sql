-- Access: API keys (the hash of each secret, never the secret) and session bindings (a tenant's session id
-- belongs to the user who first used it). Both carry (tenant, user_key), so erasing a user removes its keys
-- and sessions with its other rows; neither is exported (credentials, and bookkeeping).
CREATE TABLE api_keys (
    id          TEXT PRIMARY KEY,
    tenant      TEXT NOT NULL,
    user_key    TEXT NOT NULL,          -- '' = no user: the tenant's shared memory
    role        TEXT NOT NULL,
    secret_hash TEXT NOT NULL,
    label       TEXT NOT NULL DEFAULT '',
    created_at  REAL NOT NULL,
    revoked_at  REAL
);
CREATE INDEX api_keys_tenant ON api_keys (tenant, created_at);

CREATE TABLE session_bindings (
    tenant   TEXT NOT NULL,
    session  TEXT NOT NULL,
    user_key TEXT NOT NULL,             -- '' = the tenant's shared memory
    bound_at REAL NOT NULL,
    PRIMARY KEY (tenant, session)
);
