-- Schema version 4: the audit trail of decisions. One row per decision, written in the same
-- transaction as the run's compare-and-set or delete, kept after the run is gone (until purged).
-- Ids are VARBINARY (UTF-8 bytes, binary order) as in the runs table; the actor, the key, the
-- decision's id and the instance may be 255 four-byte characters (1020 bytes). One index per
-- query shape, in listing order (scanned backwards for newest first); the widest stays under
-- InnoDB's 3072-byte key limit. The idempotency key is unique per agent (NULLs are not).
CREATE TABLE IF NOT EXISTS ${table}_decisions (
    decision_id     VARBINARY(1020) NOT NULL,
    agent_id        VARBINARY(764)  NOT NULL,
    run_id          VARBINARY(764)  NOT NULL,
    thread_id       VARBINARY(764)  NULL,
    resource_id     VARBINARY(764)  NULL,
    tool_call_id    VARBINARY(1020) NULL,
    tool_name       VARBINARY(1020) NULL,
    kind            VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    actor           VARBINARY(1020) NOT NULL,
    instance_id     VARBINARY(1020) NOT NULL,
    decided_at      BIGINT NOT NULL,
    reason          LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL,
    digest_before   VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL,
    digest_after    VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL,
    idempotency_key VARBINARY(1020) NULL,
    PRIMARY KEY (decision_id),
    INDEX ${table}_decisions_agent (agent_id, decided_at, decision_id),
    INDEX ${table}_decisions_run (agent_id, run_id, decided_at, decision_id),
    INDEX ${table}_decisions_thread (agent_id, thread_id, decided_at, decision_id),
    INDEX ${table}_decisions_resource (agent_id, resource_id, decided_at, decision_id),
    INDEX ${table}_decisions_actor (agent_id, actor, decided_at, decision_id),
    UNIQUE INDEX ${table}_decisions_key (agent_id, idempotency_key)
) ENGINE=InnoDB;
