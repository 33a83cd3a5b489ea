-- Schema version 4: the audit trail of decisions. One row per decision, written in the same
-- transaction as the run's compare-and-set or delete, kept after the run is gone (until purged).
-- Instants are epoch milliseconds. One index per query shape, in listing order (newest first):
-- by agent; by agent and run, thread, resource or actor; the idempotency key is unique per agent.
CREATE TABLE IF NOT EXISTS ${table}_decisions (
    decision_id     VARCHAR(255) NOT NULL,
    agent_id        VARCHAR(255) NOT NULL,
    run_id          VARCHAR(255) NOT NULL,
    thread_id       VARCHAR(255),
    resource_id     VARCHAR(255),
    tool_call_id    VARCHAR(255),
    tool_name       VARCHAR(255),
    kind            VARCHAR(16)  NOT NULL,
    actor           VARCHAR(255) NOT NULL,
    instance_id     VARCHAR(255) NOT NULL,
    decided_at      BIGINT       NOT NULL,
    reason          CHARACTER LARGE OBJECT,
    digest_before   VARCHAR(255),
    digest_after    VARCHAR(255),
    idempotency_key VARCHAR(255),
    CONSTRAINT ${table}_decisions_pkey PRIMARY KEY (decision_id)
);
CREATE INDEX IF NOT EXISTS ${table}_decisions_agent ON ${table}_decisions (agent_id, decided_at DESC, decision_id DESC);
CREATE INDEX IF NOT EXISTS ${table}_decisions_run ON ${table}_decisions (agent_id, run_id, decided_at DESC, decision_id DESC);
CREATE INDEX IF NOT EXISTS ${table}_decisions_thread ON ${table}_decisions (agent_id, thread_id, decided_at DESC, decision_id DESC);
CREATE INDEX IF NOT EXISTS ${table}_decisions_resource ON ${table}_decisions (agent_id, resource_id, decided_at DESC, decision_id DESC);
CREATE INDEX IF NOT EXISTS ${table}_decisions_actor ON ${table}_decisions (agent_id, actor, decided_at DESC, decision_id DESC);
CREATE UNIQUE INDEX IF NOT EXISTS ${table}_decisions_key ON ${table}_decisions (agent_id, idempotency_key);
