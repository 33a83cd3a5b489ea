-- Baton run snapshots. SQLite compares TEXT with the BINARY collation (UTF-8 bytes, trailing
-- spaces significant). Instants are epoch milliseconds; the payload is the run state as JSON
-- text, kept verbatim.
CREATE TABLE IF NOT EXISTS ${table} (
    run_id           TEXT    NOT NULL PRIMARY KEY,
    agent_id         TEXT    NOT NULL,
    status           TEXT    NOT NULL,
    thread_id        TEXT,
    resource_id      TEXT,
    created_at       INTEGER NOT NULL,
    suspended_at     INTEGER NOT NULL,
    version          INTEGER NOT NULL,
    lease_owner      TEXT,
    lease_expires_at INTEGER,
    payload          TEXT    NOT NULL
);
-- One index per filter combination, each in listing order (created_at desc, run_id desc).
CREATE INDEX IF NOT EXISTS ${table}_agent ON ${table} (agent_id, created_at DESC, run_id DESC);
CREATE INDEX IF NOT EXISTS ${table}_agent_thread ON ${table} (agent_id, thread_id, created_at DESC, run_id DESC);
CREATE INDEX IF NOT EXISTS ${table}_agent_resource ON ${table} (agent_id, resource_id, created_at DESC, run_id DESC);
CREATE INDEX IF NOT EXISTS ${table}_agent_thread_resource ON ${table} (agent_id, thread_id, resource_id, created_at DESC, run_id DESC);
