-- A lease's times are the database's own clock (not each client's), and each renewal records when it was made:
-- a lease renewed in the clock's future (the clock was stepped back since) is stale, so a clock that ran ahead
-- holds a session one lease at most. NULL = renewed before this.
ALTER TABLE turn_leases ADD COLUMN IF NOT EXISTS renewed_at timestamptz;
