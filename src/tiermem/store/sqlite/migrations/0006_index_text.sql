-- Full text in any language: the index holds text_index.index_text of each record's content and context (CJK
-- runs as character pairs, accents folded in every script) through the SQL function tiermem_index_text, which
-- each connection registers. The external-content table still reads its text from `records`; only the tokens
-- differ. English (ASCII) text indexes exactly as before. The index is refilled for existing rows.
DROP TRIGGER records_ai;
DROP TRIGGER records_ad;
DROP TRIGGER records_au;
CREATE TRIGGER records_ai AFTER INSERT ON records BEGIN
    INSERT INTO records_fts (rowid, content, context, scope_tok)
        VALUES (new.rowid, tiermem_index_text(new.content), tiermem_index_text(new.context), new.scope_tok);
END;
CREATE TRIGGER records_ad AFTER DELETE ON records BEGIN
    INSERT INTO records_fts (records_fts, rowid, content, context, scope_tok)
        VALUES ('delete', old.rowid, tiermem_index_text(old.content), tiermem_index_text(old.context), old.scope_tok);
    DELETE FROM vectors WHERE record_rowid = old.rowid;
END;
CREATE TRIGGER records_au AFTER UPDATE OF content, context, tenant, user_key ON records BEGIN
    INSERT INTO records_fts (records_fts, rowid, content, context, scope_tok)
        VALUES ('delete', old.rowid, tiermem_index_text(old.content), tiermem_index_text(old.context), old.scope_tok);
    INSERT INTO records_fts (rowid, content, context, scope_tok)
        VALUES (new.rowid, tiermem_index_text(new.content), tiermem_index_text(new.context), new.scope_tok);
END;
INSERT INTO records_fts (records_fts) VALUES ('delete-all');
INSERT INTO records_fts (rowid, content, context, scope_tok)
    SELECT rowid, tiermem_index_text(content), tiermem_index_text(context), scope_tok FROM records;
