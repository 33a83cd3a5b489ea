-- Schema version 4: the audit trail of decisions. One row per decision, written in the same
-- transaction as the run's compare-and-set or delete, kept after the run is gone (until purged).
-- Instants are epoch milliseconds. One index per query shape, in listing order (newest first):
-- by agent; by agent and run, thread, resource or actor; the idempotency key is unique per agent.
CREATE TABLE IF NOT EXISTS ${table}_decisions (
    decision_id     TEXT    NOT NULL,
    agent_id        TEXT    NOT NULL,
    run_id          TEXT    NOT NULL,
    thread_id       TEXT   ,
    resource_id     TEXT   ,
    tool_call_id    TEXT   ,
    tool_name       TEXT   ,
    kind            TEXT     NOT NULL,
    actor           TEXT    NOT NULL,
    instance_id     TEXT    NOT NULL,
    decided_at      INTEGER      NOT NULL,
    reason          TEXT,
    digest_before   TEXT,
    digest_after    TEXT,
    idempotency_key TEXT   ,
    CONSTRAINT ${table}_decisions_pkey PRIMARY KEY (decision_id)
);
CREATE INDEX IF NOT EXISTS ${table}_decisions_agent ON ${table}_decisions (agent_id, decided_at DESC, decision_id DESC);
CREATE INDEX IF NOT EXISTS ${table}_decisions_run ON ${table}_decisions (agent_id, run_id, decided_at DESC, decision_id DESC);
CREATE INDEX IF NOT EXISTS ${table}_decisions_thread ON ${table}_decisions (agent_id, thread_id, decided_at DESC, decision_id DESC);
CREATE INDEX IF NOT EXISTS ${table}_decisions_resource ON ${table}_decisions (agent_id, resource_id, decided_at DESC, decision_id DESC);
CREATE INDEX IF NOT EXISTS ${table}_decisions_actor ON ${table}_decisions (agent_id, actor, decided_at DESC, decision_id DESC);
CREATE UNIQUE INDEX IF NOT EXISTS ${table}_decisions_key ON ${table}_decisions (agent_id, idempotency_key);
