-- The full-text tables (fts_postings, scope_stats, fts_terms) are kept by the write path's own statements
-- (postings.py), in the transaction of each write, so `records` has no trigger: a distributed PostgreSQL (Citus)
-- runs none on distributed tables. tiermem_signed_positions stays: the write path's postings use it.
DROP TRIGGER IF EXISTS records_fts_insert ON records;
DROP TRIGGER IF EXISTS records_fts_update ON records;
DROP TRIGGER IF EXISTS records_fts_delete ON records;
DROP TRIGGER IF EXISTS records_postings_insert ON records;
DROP TRIGGER IF EXISTS records_postings_update ON records;
DROP TRIGGER IF EXISTS records_postings_delete ON records;
DROP FUNCTION IF EXISTS tiermem_fts_stats();
DROP FUNCTION IF EXISTS tiermem_fts_postings();

-- The HNSW index of the default models' vectors (384 dimensions), made here, by the owner, so no request ever
-- makes one (vectors.py); empty until a scope of that size grows past 10,000 records.
CREATE INDEX IF NOT EXISTS vectors_hnsw_384 ON vectors USING hnsw ((vec::vector(384)) vector_cosine_ops)
    WHERE dim = 384 AND indexed;
