-- A session's turn lease: while a turn of a session runs, in any thread or process, its row names the turn
-- (holder, a fresh id) and when the lease ends unless renewed; another turn of the session is refused until then,
-- so it never writes a message that a running turn could show its model. A released lease is deleted; the row
-- of a process that died is taken over once expires_at has passed. Carries (tenant, user_key), so an erase of
-- the user deletes it with the user's other rows; not exported (a running turn's lock, minutes at most).
CREATE TABLE turn_leases (
    tenant     TEXT NOT NULL,
    user_key   TEXT NOT NULL,           -- '' = the tenant's shared memory
    agent      TEXT NOT NULL,
    session    TEXT NOT NULL,
    holder     TEXT NOT NULL,
    expires_at REAL NOT NULL,           -- epoch seconds
    PRIMARY KEY (tenant, user_key, agent, session)
);
