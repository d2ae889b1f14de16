-- A user's records newest first (list_records, and the write path's look at the scope's latest note before a
-- transcript line or a follow_window note): an index on (tenant, user_key) holds each user's rowids in order,
-- so the newest are read from its end. Without it the planner took another scope index and sorted every
-- record of the user on each call, a cost that grew with the user.
CREATE INDEX records_newest ON records (tenant, user_key);
