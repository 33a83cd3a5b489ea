-- Baton run snapshots. H2 compares VARCHAR like String.compareTo (binary, trailing spaces
-- significant). Instants are epoch milliseconds; the payload is the run state as JSON text,
-- kept verbatim.
CREATE TABLE IF NOT EXISTS ${table} (
    run_id           VARCHAR(255) NOT NULL,
    agent_id         VARCHAR(255) NOT NULL,
    status           VARCHAR(16)  NOT NULL,
    thread_id        VARCHAR(255),
    resource_id      VARCHAR(255),
    created_at       BIGINT       NOT NULL,
    suspended_at     BIGINT       NOT NULL,
    version          BIGINT       NOT NULL,
    lease_owner      VARCHAR(255),
    lease_expires_at BIGINT,
    payload          CHARACTER LARGE OBJECT NOT NULL,
    CONSTRAINT ${table}_pkey PRIMARY KEY (run_id)
);
-- One index per filter combination, each in listing order (created_at desc, run_id desc).
CREATE INDEX IF NOT EXISTS ${table}_agent ON ${table} (agent_id, created_at DESC, run_id DESC);
CREATE INDEX IF NOT EXISTS ${table}_agent_thread ON ${table} (agent_id, thread_id, created_at DESC, run_id DESC);
CREATE INDEX IF NOT EXISTS ${table}_agent_resource ON ${table} (agent_id, resource_id, created_at DESC, run_id DESC);
CREATE INDEX IF NOT EXISTS ${table}_agent_thread_resource ON ${table} (agent_id, thread_id, resource_id, created_at DESC, run_id DESC);
