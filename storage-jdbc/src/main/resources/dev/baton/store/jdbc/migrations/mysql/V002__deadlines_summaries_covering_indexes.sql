-- Schema version 2: the run's deadline and its listing summary, found without reading the payload.
-- Every run Baton writes has a summary; the column is nullable only because this adds it to a
-- table that may hold rows (the store reports such a row as unreadable, naming the run).
-- MySQL 8 has no IF NOT EXISTS for columns and indexes: the migration runner treats "duplicate
-- column", "duplicate key name" and "can't drop; check that it exists" as already applied, so
-- a migration that stopped half-way simply runs again.
ALTER TABLE ${table} ADD COLUMN expires_at BIGINT NULL;
ALTER TABLE ${table} ADD COLUMN summary LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL;
-- lease_state folds the effective-status columns into one 8-byte value that fits in the index
-- keys (the widest listing index is 3,064 of InnoDB's 3,072 bytes): a SUSPENDED run without a
-- lease is -9223372036854775807, a RESUMING run with a lease is its lease expiry, anything else
-- (a corrupt row) is NULL. "Suspended at now" is lease_state <= now, "resuming" is > now.
-- A virtual column: computed, never stored in the row; adding it copies nothing.
ALTER TABLE ${table} ADD COLUMN lease_state BIGINT AS (CASE
    WHEN status = 'SUSPENDED' AND lease_owner IS NULL AND lease_expires_at IS NULL THEN -9223372036854775807
    WHEN status = 'RESUMING' AND lease_owner IS NOT NULL AND lease_expires_at IS NOT NULL THEN lease_expires_at
    END) VIRTUAL;
-- The listing indexes again, in listing order (scanned backwards), with lease_state last, so a
-- count reads the index alone ("Using index"); InnoDB builds them online, without blocking writes.
CREATE INDEX ${table}_list_agent ON ${table} (agent_id, created_at, run_id, lease_state);
CREATE INDEX ${table}_list_thread ON ${table} (agent_id, thread_id, created_at, run_id, lease_state);
CREATE INDEX ${table}_list_resource ON ${table} (agent_id, resource_id, created_at, run_id, lease_state);
CREATE INDEX ${table}_list_thread_resource ON ${table} (agent_id, thread_id, resource_id, created_at, run_id, lease_state);
-- Due runs (listDue): soonest deadline first, ties by run id.
CREATE INDEX ${table}_due ON ${table} (agent_id, expires_at, run_id, lease_state);
DROP INDEX ${table}_agent ON ${table};
DROP INDEX ${table}_agent_thread ON ${table};
DROP INDEX ${table}_agent_resource ON ${table};
DROP INDEX ${table}_agent_thread_resource ON ${table};
