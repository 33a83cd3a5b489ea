-- Schema version 5: the store as the outbox of notifications. notify_at is when a notification about
-- the run is next due (written in the same UPDATE/INSERT as the wait it announces), notify_state the
-- notification's state as text (event, attempts, last error), kept verbatim. Both NULL: nothing due.
ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS notify_at BIGINT;
ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS notify_state CHARACTER LARGE OBJECT;
-- Due notifications (listNotificationsDue): oldest first, ties by run id.
CREATE INDEX IF NOT EXISTS ${table}_notify ON ${table} (agent_id, notify_at, run_id);
