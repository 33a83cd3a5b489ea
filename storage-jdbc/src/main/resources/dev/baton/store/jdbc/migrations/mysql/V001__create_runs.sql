-- Baton run snapshots. Ids are VARBINARY (UTF-8 bytes): exact comparison, trailing spaces
-- significant, binary order for the runId tie-breaker (utf8mb4_bin pads spaces on MariaDB).
-- 764 bytes = 191 four-byte characters keeps the widest index under InnoDB's 3072-byte key limit.
-- Instants are epoch milliseconds; the payload is the run state as JSON text, kept verbatim.
CREATE TABLE IF NOT EXISTS ${table} (
    run_id           VARBINARY(764) NOT NULL,
    agent_id         VARBINARY(764) NOT NULL,
    status           VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    thread_id        VARBINARY(764) NULL,
    resource_id      VARBINARY(764) NULL,
    created_at       BIGINT NOT NULL,
    suspended_at     BIGINT NOT NULL,
    version          BIGINT NOT NULL,
    lease_owner      VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL,
    lease_expires_at BIGINT NULL,
    payload          LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    PRIMARY KEY (run_id),
    -- one index per filter combination, in listing order (scanned backwards for created_at desc, run_id desc)
    INDEX ${table}_agent (agent_id, created_at, run_id),
    INDEX ${table}_agent_thread (agent_id, thread_id, created_at, run_id),
    INDEX ${table}_agent_resource (agent_id, resource_id, created_at, run_id),
    INDEX ${table}_agent_thread_resource (agent_id, thread_id, resource_id, created_at, run_id)
) ENGINE=InnoDB;
