-- A session's turn lease: while a turn of a session runs, in any thread, process or server, its row names the
-- turn (holder, a fresh id) and when the lease ends unless renewed; another turn of the session is refused until
-- then, so it never writes a message that a running turn could show its model. A released lease is deleted; the
-- row of a process that died is taken over once expires_at has passed. Carries (tenant, user_key), so an erase of
-- the user deletes it with the user's other rows; not exported (a running turn's lock, minutes at most).
CREATE TABLE IF NOT EXISTS turn_leases (
    tenant     text NOT NULL,
    user_key   text NOT NULL,           -- '' = the tenant's shared memory
    agent      text NOT NULL,
    session    text NOT NULL,
    holder     text NOT NULL,
    expires_at timestamptz NOT NULL,
    PRIMARY KEY (tenant, user_key, agent, session)
);

-- Walled in by tenant like every table (0009_runtime_role.sql): the runtime role sees only its tenant's leases.
ALTER TABLE turn_leases ENABLE ROW LEVEL SECURITY;
ALTER TABLE turn_leases NO FORCE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS tenant_wall ON turn_leases;  -- safe to run again, as the migrations after 8 are
CREATE POLICY tenant_wall ON turn_leases USING (tenant = current_setting('tiermem.tenant', true))
    WITH CHECK (tenant = current_setting('tiermem.tenant', true));
