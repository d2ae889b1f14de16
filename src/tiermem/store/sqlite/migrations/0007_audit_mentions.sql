-- forget and sweep redact the supersession entries whose detail ends with a deleted record's id (the write
-- path names the newer record last; see redact_audit). Without this index that read every audit entry of the
-- user on each forget; the expression and the condition are the query's own, so SQLite uses it.
CREATE INDEX audit_mentions ON audit_log (tenant, user_key, substr(detail, -36)) WHERE op = 'supersede';
