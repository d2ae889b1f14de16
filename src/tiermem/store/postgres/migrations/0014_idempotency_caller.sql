-- A kept answer belongs to the credential and role that sent its request (caller), and is filed under the user
-- whose memory the request acted on (user_key), so an erase of that user removes it and no other credential
-- gets it replayed. Answers kept before this named neither, so they are dropped: at worst a retry sent across
-- the upgrade runs once more.
DELETE FROM idempotency_keys;
ALTER TABLE idempotency_keys ADD COLUMN IF NOT EXISTS caller text NOT NULL DEFAULT '';
