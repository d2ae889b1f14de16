-- Row-level security, the second wall behind every query's own scope filter: a row is visible only inside a
-- transaction whose `tiermem.tenant` setting (SET LOCAL, by the store) names its tenant. '*' (never a tenant
-- name: names start with a letter or digit) is set only by the store's store-wide maintenance methods.
-- FORCE: the owner of the tables is walled in too; only a superuser or a BYPASSRLS role is not.
DO $$
DECLARE t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['records', 'vectors', 'scope_stats', 'fts_terms', 'audit_log', 'pending_writes',
                             'core_blocks', 'core_block_edits', 'context_windows'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format(
            'CREATE POLICY tenant_wall ON %I USING (tenant = current_setting(''tiermem.tenant'', true)'
            ' OR current_setting(''tiermem.tenant'', true) = ''*'')'
            ' WITH CHECK (tenant = current_setting(''tiermem.tenant'', true)'
            ' OR current_setting(''tiermem.tenant'', true) = ''*'')', t);
    END LOOP;
END $$;
