-- Schema version 2: the run's deadline and its listing summary, found without reading the payload.
-- Every run Baton writes has a summary; the column is nullable only because this adds it to a
-- table that may hold rows (the store reports such a row as unreadable, naming the run).
ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS expires_at BIGINT;
ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS summary TEXT;
-- The listing indexes again, in listing order, now covering the effective-status columns, so a
-- count is an index-only scan (after VACUUM has marked the pages all-visible). Built before the
-- old ones go: reads go on during the build (writes wait for it), and the old indexes are
-- dropped in the same transaction. On a big table, build them beforehand with CREATE INDEX
-- CONCURRENTLY under these names; IF NOT EXISTS then skips them.
CREATE INDEX IF NOT EXISTS ${table}_list_agent ON ${table} (agent_id, created_at DESC, run_id DESC)
    INCLUDE (status, lease_owner, lease_expires_at);
CREATE INDEX IF NOT EXISTS ${table}_list_thread ON ${table} (agent_id, thread_id, created_at DESC, run_id DESC)
    INCLUDE (status, lease_owner, lease_expires_at);
CREATE INDEX IF NOT EXISTS ${table}_list_resource ON ${table} (agent_id, resource_id, created_at DESC, run_id DESC)
    INCLUDE (status, lease_owner, lease_expires_at);
CREATE INDEX IF NOT EXISTS ${table}_list_thread_resource ON ${table} (agent_id, thread_id, resource_id, created_at DESC, run_id DESC)
    INCLUDE (status, lease_owner, lease_expires_at);
-- Due runs (listDue): soonest deadline first, ties by run id; only runs that have a deadline.
CREATE INDEX IF NOT EXISTS ${table}_due ON ${table} (agent_id, expires_at, run_id)
    INCLUDE (status, lease_owner, lease_expires_at) WHERE expires_at IS NOT NULL;
DROP INDEX IF EXISTS ${table}_agent;
DROP INDEX IF EXISTS ${table}_agent_thread;
DROP INDEX IF EXISTS ${table}_agent_resource;
DROP INDEX IF EXISTS ${table}_agent_thread_resource;
