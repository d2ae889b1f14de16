-- Bulk loads (bulk.py): inside a transaction whose `tiermem.bulk` setting is 'on' the statistics trigger keeps
-- scope_stats (BM25's N and average length: one row a scope) but leaves the per-term document frequencies of
-- fts_terms alone; the bulk load recounts them from the postings once, for the scopes it wrote, at its end.
-- Upserting ~7 terms a record one statement at a time was half the time of a bulk insert; one GROUP BY over the
-- postings is a small fraction. fts_terms only chooses which common words a big scope's query prunes, so a
-- load that stopped before its recount leaves a ranking detail stale, never a record unfound.
CREATE OR REPLACE FUNCTION tiermem_fts_stats() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    terms boolean := coalesce(current_setting('tiermem.bulk', true), '') <> 'on';
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        INSERT INTO scope_stats AS s (tenant, user_key, docs, tokens)
            SELECT tenant, user_key, -count(*), -sum(fts_len) FROM old_rows GROUP BY 1, 2 ORDER BY 1, 2
            ON CONFLICT (tenant, user_key) DO UPDATE SET docs = s.docs + excluded.docs, tokens = s.tokens + excluded.tokens;
        IF terms THEN
            INSERT INTO fts_terms AS t (tenant, user_key, term, df)
                SELECT tenant, user_key, w, -count(*) FROM old_rows, unnest(tsvector_to_array(fts)) w
                GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
                ON CONFLICT (tenant, user_key, term) DO UPDATE SET df = t.df + excluded.df;
        END IF;
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') THEN
        INSERT INTO scope_stats AS s (tenant, user_key, docs, tokens)
            SELECT tenant, user_key, count(*), sum(fts_len) FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
            ON CONFLICT (tenant, user_key) DO UPDATE SET docs = s.docs + excluded.docs, tokens = s.tokens + excluded.tokens;
        IF terms THEN
            INSERT INTO fts_terms AS t (tenant, user_key, term, df)
                SELECT tenant, user_key, w, count(*) FROM new_rows, unnest(tsvector_to_array(fts)) w
                GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
                ON CONFLICT (tenant, user_key, term) DO UPDATE SET df = t.df + excluded.df;
        END IF;
    END IF;
    IF TG_OP IN ('UPDATE', 'DELETE') AND terms THEN
        -- A term no document holds any more is itself personal data: it goes.
        DELETE FROM fts_terms t
            USING (SELECT DISTINCT tenant, user_key, w FROM old_rows, unnest(tsvector_to_array(fts)) w) o
            WHERE t.tenant = o.tenant AND t.user_key = o.user_key AND t.term = o.w AND t.df <= 0;
    END IF;
    RETURN NULL;
END $$;
