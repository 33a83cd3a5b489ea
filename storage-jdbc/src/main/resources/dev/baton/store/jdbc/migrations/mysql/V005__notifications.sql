-- Schema version 5: the store as the outbox of notifications. notify_at is when a notification about
-- the run is next due (written in the same UPDATE/INSERT as the wait it announces), notify_state the
-- notification's state as text (event, attempts, last error), kept verbatim. Both NULL: nothing due.
-- MySQL 8 has no IF NOT EXISTS for columns and indexes: the migration runner treats "duplicate
-- column" and "duplicate key name" as already applied, so a migration that stopped half-way runs again.
ALTER TABLE ${table} ADD COLUMN notify_at BIGINT NULL;
ALTER TABLE ${table} ADD COLUMN notify_state LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL;
-- Due notifications (listNotificationsDue): oldest first, ties by run id; InnoDB builds it online.
CREATE INDEX ${table}_notify ON ${table} (agent_id, notify_at, run_id);
