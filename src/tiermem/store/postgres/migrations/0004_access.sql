-- Access: API keys (the hash of each secret, never the secret) and session bindings (a tenant's session id
-- belongs to the user who first used it). Both carry (tenant, user_key), so erasing a user removes its keys
-- and sessions with its other rows (maintenance.py finds them by those columns); neither is exported
-- (credentials, and bookkeeping). The tenant leads both keys and the policy walls them in like every table.
CREATE TABLE api_keys (
    tenant      text NOT NULL,
    id          text NOT NULL,           -- unique store-wide too: the store checks under a lock (access.py)
    user_key    text NOT NULL,           -- '' = no user: the tenant's shared memory
    role        text NOT NULL,
    secret_hash text NOT NULL,
    label       text NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL,
    revoked_at  timestamptz,
    PRIMARY KEY (tenant, id)
);
CREATE INDEX api_keys_created ON api_keys (tenant, created_at);

CREATE TABLE session_bindings (
    tenant   text NOT NULL,
    session  text NOT NULL,
    user_key text NOT NULL,              -- '' = the tenant's shared memory
    bound_at timestamptz NOT NULL,
    PRIMARY KEY (tenant, session)
);

DO $$
DECLARE t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['api_keys', 'session_bindings'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format(
            'CREATE POLICY tenant_wall ON %I USING (tenant = current_setting(''tiermem.tenant'', true)'
            ' OR current_setting(''tiermem.tenant'', true) = ''*'')'
            ' WITH CHECK (tenant = current_setting(''tiermem.tenant'', true)'
            ' OR current_setting(''tiermem.tenant'', true) = ''*'')', t);
    END LOOP;
END $$;
