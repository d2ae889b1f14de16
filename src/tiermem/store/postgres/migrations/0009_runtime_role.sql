-- Two roles (docs/postgres.md, "Two roles"): the role that owns the schema runs the migrations, and the service
-- connects as a runtime role granted only what it needs (`tiermem init --grant ROLE`, roles.py). For every role
-- but the owner, a row is visible only in a transaction whose `tiermem.tenant` setting is exactly its tenant: no
-- value ('*', '', anything malformed) reads more than one tenant. The tables are no longer FORCEd: their owner, the
-- migrations and the functions below (which run as the owner), reads across tenants; nobody else owns them, so
-- nobody else can turn the policies off.
DO $$
DECLARE t text;
BEGIN
    FOR t IN SELECT c.table_name FROM information_schema.columns c
             JOIN information_schema.tables tb ON tb.table_schema = c.table_schema AND tb.table_name = c.table_name
             WHERE c.table_schema = current_schema() AND c.column_name = 'tenant' AND tb.table_type = 'BASE TABLE'
    LOOP
        EXECUTE format('DROP POLICY IF EXISTS tenant_wall ON %I', t);
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I NO FORCE ROW LEVEL SECURITY', t);
        EXECUTE format(
            'CREATE POLICY tenant_wall ON %I USING (tenant = current_setting(''tiermem.tenant'', true))'
            ' WITH CHECK (tenant = current_setting(''tiermem.tenant'', true))', t);
    END LOOP;
END $$;

-- The cross-tenant work the service does: find a presented key by its id (before its tenant is known), revoke
-- one, list every tenant's keys (the CLI), and the store-wide maintenance reads (the sweep's expired and
-- over-limit records, the write-behind queue, the scopes, the counts). Each returns what that work needs (keys
-- by id; ids, versions and counts of records, never their text) and runs as the owner (SECURITY DEFINER), with a
-- fixed search_path. EXECUTE is revoked from PUBLIC and granted to the runtime role by `tiermem init --grant`.
CREATE OR REPLACE FUNCTION tiermem_find_key(p_id text)
    RETURNS TABLE (id text, tenant text, user_key text, role text, secret_hash text, label text,
                   created_at timestamptz, revoked_at timestamptz)
    LANGUAGE sql STABLE SECURITY DEFINER AS $$
    SELECT k.id, k.tenant, k.user_key, k.role, k.secret_hash, k.label, k.created_at, k.revoked_at
    FROM api_keys k WHERE k.id = p_id
$$;

CREATE OR REPLACE FUNCTION tiermem_list_keys()
    RETURNS TABLE (id text, tenant text, user_key text, role text, secret_hash text, label text,
                   created_at timestamptz, revoked_at timestamptz)
    LANGUAGE sql STABLE SECURITY DEFINER AS $$
    SELECT k.id, k.tenant, k.user_key, k.role, k.secret_hash, k.label, k.created_at, k.revoked_at
    FROM api_keys k ORDER BY k.created_at, k.id
$$;

CREATE OR REPLACE FUNCTION tiermem_revoke_key(p_id text, p_at timestamptz) RETURNS boolean
    LANGUAGE sql SECURITY DEFINER AS $$
    WITH done AS (UPDATE api_keys k SET revoked_at = COALESCE(k.revoked_at, p_at) WHERE k.id = p_id RETURNING 1)
    SELECT count(*) > 0 FROM done
$$;

CREATE OR REPLACE FUNCTION tiermem_scopes() RETURNS TABLE (tenant text, user_key text)
    LANGUAGE sql STABLE SECURITY DEFINER AS $$
    SELECT DISTINCT r.tenant, r.user_key FROM records r ORDER BY 1, 2
$$;

-- Every (tenant, user) holding a row anywhere a user's data is kept (what `tiermem migrate` copies).
CREATE OR REPLACE FUNCTION tiermem_held_scopes() RETURNS TABLE (tenant text, user_key text)
    LANGUAGE sql STABLE SECURITY DEFINER AS $$
    SELECT tenant, user_key FROM records UNION SELECT tenant, user_key FROM audit_log
    UNION SELECT tenant, user_key FROM pending_writes UNION SELECT tenant, user_key FROM core_blocks
    UNION SELECT tenant, user_key FROM core_block_edits UNION SELECT tenant, user_key FROM context_windows
    ORDER BY 1, 2
$$;

CREATE OR REPLACE FUNCTION tiermem_row_counts() RETURNS TABLE (records bigint, vectors bigint, audit_log bigint)
    LANGUAGE sql STABLE SECURITY DEFINER AS $$
    SELECT (SELECT count(*) FROM records), (SELECT count(*) FROM vectors v WHERE v.part = 0),
           (SELECT count(*) FROM audit_log)
$$;

CREATE OR REPLACE FUNCTION tiermem_orphans() RETURNS TABLE (terms bigint, vectors bigint)
    LANGUAGE sql STABLE SECURITY DEFINER AS $$
    SELECT (SELECT count(*) FROM fts_terms t WHERE t.df <= 0),
           (SELECT count(*) FROM vectors v WHERE NOT EXISTS
               (SELECT 1 FROM records r WHERE r.tenant = v.tenant AND r.id = v.record_id))
$$;

CREATE OR REPLACE FUNCTION tiermem_expired(p_now timestamptz)
    RETURNS TABLE (tenant text, user_key text, id text, version integer)
    LANGUAGE sql STABLE SECURITY DEFINER AS $$
    SELECT r.tenant, r.user_key, r.id, r.version FROM records r WHERE r.expires_at <= p_now
    ORDER BY r.tenant, r.user_key, r.seq
$$;

CREATE OR REPLACE FUNCTION tiermem_over_limit(p_type text, p_keep integer, p_now timestamptz)
    RETURNS TABLE (tenant text, user_key text, id text, version integer)
    LANGUAGE sql STABLE SECURITY DEFINER AS $$
    SELECT x.tenant, x.user_key, x.id, x.version FROM (
        SELECT r.tenant, r.user_key, r.id, r.version,
               row_number() OVER (PARTITION BY r.tenant, r.user_key ORDER BY r.valid_from DESC, r.seq DESC) AS rank
        FROM records r WHERE r.type = p_type AND (r.expires_at IS NULL OR r.expires_at > p_now)) x
    WHERE x.rank > p_keep ORDER BY x.tenant, x.user_key, x.rank
$$;

CREATE OR REPLACE FUNCTION tiermem_unindexed(p_limit integer)
    RETURNS TABLE (tenant text, user_key text, id text, version integer)
    LANGUAGE sql STABLE SECURITY DEFINER AS $$
    SELECT r.tenant, r.user_key, r.id, r.version FROM records r WHERE r.embedding_model IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM vectors v WHERE v.tenant = r.tenant AND v.record_id = r.id)
    ORDER BY r.created_at, r.id LIMIT p_limit
$$;

DO $$
DECLARE f regprocedure;
BEGIN
    FOR f IN SELECT p.oid::regprocedure FROM pg_proc p
             WHERE p.pronamespace = current_schema()::regnamespace AND p.prosecdef LOOP
        EXECUTE format('ALTER FUNCTION %s SET search_path = %I, pg_temp', f, current_schema());
        EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', f);
    END LOOP;
END $$;
