-- A sweep deletes the service's kept Idempotency-Key answers older than a day of every tenant: otherwise only the
-- same user's next keyed request removes them, and a user who sends none would keep them for good. Like the
-- sweep's other store-wide work (migration 0009), it runs as the owner, returns only a count, with a fixed
-- search_path, and only the runtime role may EXECUTE it.
CREATE OR REPLACE FUNCTION tiermem_drop_answers_before(p_before timestamptz) RETURNS bigint
    LANGUAGE sql SECURITY DEFINER AS $$
    WITH gone AS (DELETE FROM idempotency_keys k WHERE k.created_at < p_before RETURNING 1)
    SELECT count(*) FROM gone
$$;

DO $$
BEGIN
    EXECUTE format('ALTER FUNCTION tiermem_drop_answers_before(timestamptz) SET search_path = %I, pg_temp',
                   current_schema());
    REVOKE EXECUTE ON FUNCTION tiermem_drop_answers_before(timestamptz) FROM PUBLIC;
END $$;
