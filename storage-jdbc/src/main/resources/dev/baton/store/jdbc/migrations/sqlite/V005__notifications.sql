-- Schema version 5: the store as the outbox of notifications. notify_at is when a notification about
-- the run is next due (written in the same UPDATE/INSERT as the wait it announces), notify_state the
-- notification's state as text (event, attempts, last error), kept verbatim. Both NULL: nothing due.
-- SQLite has no ADD COLUMN IF NOT EXISTS: the migration runner treats "duplicate column name"
-- as already applied, so a migration that stopped half-way simply runs again.
ALTER TABLE ${table} ADD COLUMN notify_at INTEGER;
ALTER TABLE ${table} ADD COLUMN notify_state TEXT;
-- Due notifications (listNotificationsDue): oldest first, ties by run id; only runs with one due.
CREATE INDEX IF NOT EXISTS ${table}_notify ON ${table} (agent_id, notify_at, run_id) WHERE notify_at IS NOT NULL;
