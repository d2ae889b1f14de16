-- Each save of a context window writes a new revision (a fresh id), and a save may require the revision it read:
-- two processes that cache one session's window never overwrite each other's turns unseen. '' = saved before this.
ALTER TABLE context_windows ADD COLUMN IF NOT EXISTS revision text NOT NULL DEFAULT '';
