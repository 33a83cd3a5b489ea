-- Baton run snapshots. Ids use COLLATE "C": exact byte comparison and binary order for the
-- runId tie-breaker. Instants are epoch milliseconds. The payload is the run state as JSON
-- text, kept verbatim (TEXT, not JSONB, which would reformat it).
CREATE TABLE IF NOT EXISTS ${table} (
    run_id           VARCHAR(255) COLLATE "C" NOT NULL,
    agent_id         VARCHAR(255) COLLATE "C" NOT NULL,
    status           VARCHAR(16)  NOT NULL,
    thread_id        VARCHAR(255) COLLATE "C",
    resource_id      VARCHAR(255) COLLATE "C",
    created_at       BIGINT       NOT NULL,
    suspended_at     BIGINT       NOT NULL,
    version          BIGINT       NOT NULL,
    lease_owner      VARCHAR(255),
    lease_expires_at BIGINT,
    payload          TEXT         NOT NULL,
    CONSTRAINT ${table}_pkey PRIMARY KEY (run_id)
);
-- One index per filter combination, each in listing order (created_at desc, run_id desc).
CREATE INDEX IF NOT EXISTS ${table}_agent ON ${table} (agent_id, created_at DESC, run_id DESC);
CREATE INDEX IF NOT EXISTS ${table}_agent_thread ON ${table} (agent_id, thread_id, created_at DESC, run_id DESC);
CREATE INDEX IF NOT EXISTS ${table}_agent_resource ON ${table} (agent_id, resource_id, created_at DESC, run_id DESC);
CREATE INDEX IF NOT EXISTS ${table}_agent_thread_resource ON ${table} (agent_id, thread_id, resource_id, created_at DESC, run_id DESC);
