-- Full text in any language, as SQLite's migration 0006: a record's terms are now made from
-- text_index.index_text of its content and context (CJK runs as character pairs, accents folded in every
-- script). Rows written before hold the raw text's terms; the rows whose text that changes (non-ASCII) are
-- re-tokenized by connect.py's step for this version (terms.refill_index_text), in this same transaction.
-- Here: the store-wide tenant setting that step's rewrite needs under row-level security (migration 0002).
SELECT set_config('tiermem.tenant', '*', true);
