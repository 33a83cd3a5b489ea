-- Schema version 2: the run's deadline and its listing summary, found without reading the payload.
-- Every run Baton writes has a summary; the column is nullable only because this adds it to a
-- table that may hold rows (the store reports such a row as unreadable, naming the run).
-- SQLite has no ADD COLUMN IF NOT EXISTS: the migration runner treats "duplicate column name"
-- as already applied, so a migration that stopped half-way simply runs again.
ALTER TABLE ${table} ADD COLUMN expires_at INTEGER;
ALTER TABLE ${table} ADD COLUMN summary TEXT;
-- The listing indexes again, in listing order, with the effective-status columns last, so a
-- count is answered from the index alone (a covering index).
CREATE INDEX IF NOT EXISTS ${table}_list_agent ON ${table} (agent_id, created_at DESC, run_id DESC, status, lease_owner, lease_expires_at);
CREATE INDEX IF NOT EXISTS ${table}_list_thread ON ${table} (agent_id, thread_id, created_at DESC, run_id DESC, status, lease_owner, lease_expires_at);
CREATE INDEX IF NOT EXISTS ${table}_list_resource ON ${table} (agent_id, resource_id, created_at DESC, run_id DESC, status, lease_owner, lease_expires_at);
CREATE INDEX IF NOT EXISTS ${table}_list_thread_resource ON ${table} (agent_id, thread_id, resource_id, created_at DESC, run_id DESC, status, lease_owner, lease_expires_at);
-- Due runs (listDue): soonest deadline first, ties by run id; only runs that have a deadline.
CREATE INDEX IF NOT EXISTS ${table}_due ON ${table} (agent_id, expires_at, run_id, status, lease_owner, lease_expires_at)
    WHERE expires_at IS NOT NULL;
DROP INDEX IF EXISTS ${table}_agent;
DROP INDEX IF EXISTS ${table}_agent_thread;
DROP INDEX IF EXISTS ${table}_agent_resource;
DROP INDEX IF EXISTS ${table}_agent_thread_resource;
