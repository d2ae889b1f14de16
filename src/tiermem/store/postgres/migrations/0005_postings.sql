-- Full-text postings: one row per (record, term) with the term's positions, kept by triggers from records.fts.
-- Why not the GIN index on the tsvector: under row-level security PostgreSQL uses an index only for conditions
-- whose operator is LEAKPROOF, and `@@` (ts_match_vq) is not, so the GIN index could only narrow to the scope
-- and every row of a big scope was matched one by one. A postings lookup uses only text and bigint equality
-- (texteq, int8eq: leakproof), so it runs through the btree below with the policy in force, for any plain role.
-- Positions: content positions as they are, context positions negated (the column weight BM25 reads).
SELECT set_config('tiermem.tenant', '*', true);

CREATE TABLE fts_postings (
    tenant   text NOT NULL,
    user_key text NOT NULL,
    term     text NOT NULL,
    seq      bigint NOT NULL,        -- the record's records.seq (found through records_seq)
    at       smallint[] NOT NULL,    -- positions in order: content > 0, context < 0
    PRIMARY KEY (tenant, user_key, term, seq)
);
ALTER TABLE fts_postings ENABLE ROW LEVEL SECURITY;
ALTER TABLE fts_postings FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_wall ON fts_postings
    USING (tenant = current_setting('tiermem.tenant', true) OR current_setting('tiermem.tenant', true) = '*')
    WITH CHECK (tenant = current_setting('tiermem.tenant', true) OR current_setting('tiermem.tenant', true) = '*');

-- A term's positions with its column in the sign (tsvector weights: A content, B context).
CREATE FUNCTION tiermem_signed_positions(positions smallint[], weights text[]) RETURNS smallint[]
    LANGUAGE sql IMMUTABLE AS $$
    SELECT ARRAY(SELECT CASE WHEN x.w = 'A' THEN x.p ELSE -x.p END
                 FROM unnest(positions, weights) WITH ORDINALITY x(p, w, i) ORDER BY x.i)
$$;

CREATE FUNCTION tiermem_fts_postings() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        DELETE FROM fts_postings p USING old_rows o, unnest(tsvector_to_array(o.fts)) w
            WHERE p.tenant = o.tenant AND p.user_key = o.user_key AND p.term = w AND p.seq = o.seq;
    ELSIF TG_OP = 'INSERT' THEN
        INSERT INTO fts_postings (tenant, user_key, term, seq, at)
            SELECT n.tenant, n.user_key, u.lexeme, n.seq, tiermem_signed_positions(u.positions, u.weights)
            FROM new_rows n, unnest(n.fts) u;
    ELSE
        -- Only rows whose terms changed (a supersession touches valid_to alone).
        DELETE FROM fts_postings p
            USING old_rows o JOIN new_rows n ON n.tenant = o.tenant AND n.id = o.id, unnest(tsvector_to_array(o.fts)) w
            WHERE (n.fts <> o.fts OR n.user_key <> o.user_key)
            AND p.tenant = o.tenant AND p.user_key = o.user_key AND p.term = w AND p.seq = o.seq;
        INSERT INTO fts_postings (tenant, user_key, term, seq, at)
            SELECT n.tenant, n.user_key, u.lexeme, n.seq, tiermem_signed_positions(u.positions, u.weights)
            FROM old_rows o JOIN new_rows n ON n.tenant = o.tenant AND n.id = o.id, unnest(n.fts) u
            WHERE n.fts <> o.fts OR n.user_key <> o.user_key;
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER records_postings_insert AFTER INSERT ON records REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION tiermem_fts_postings();
CREATE TRIGGER records_postings_update AFTER UPDATE ON records
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION tiermem_fts_postings();
CREATE TRIGGER records_postings_delete AFTER DELETE ON records REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION tiermem_fts_postings();

INSERT INTO fts_postings (tenant, user_key, term, seq, at)
    SELECT r.tenant, r.user_key, u.lexeme, r.seq,
           tiermem_signed_positions(u.positions, u.weights)
    FROM records r, unnest(r.fts) u;

-- The GIN index served only the `@@` match, which the postings now do.
DROP INDEX records_fts;
