-- Search context: text that helps find a record (e.g. the turns around a message) without being its content.
-- FTS5 cannot add a column, so the full-text index is made again with a `context` column and re-filled.
ALTER TABLE records ADD COLUMN context TEXT;
DROP TRIGGER records_ai;
DROP TRIGGER records_ad;
DROP TRIGGER records_au;
DROP TABLE records_fts;
CREATE VIRTUAL TABLE records_fts USING fts5 (
    content,
    context,
    scope_tok,
    content = 'records',
    content_rowid = 'rowid',
    tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER records_ai AFTER INSERT ON records BEGIN
    INSERT INTO records_fts (rowid, content, context, scope_tok) VALUES (new.rowid, new.content, new.context, new.scope_tok);
END;
CREATE TRIGGER records_ad AFTER DELETE ON records BEGIN
    INSERT INTO records_fts (records_fts, rowid, content, context, scope_tok)
        VALUES ('delete', old.rowid, old.content, old.context, old.scope_tok);
    DELETE FROM vectors WHERE record_rowid = old.rowid;
END;
CREATE TRIGGER records_au AFTER UPDATE OF content, context, tenant, user_key ON records BEGIN
    INSERT INTO records_fts (records_fts, rowid, content, context, scope_tok)
        VALUES ('delete', old.rowid, old.content, old.context, old.scope_tok);
    INSERT INTO records_fts (rowid, content, context, scope_tok) VALUES (new.rowid, new.content, new.context, new.scope_tok);
END;
INSERT INTO records_fts (records_fts) VALUES ('rebuild');
