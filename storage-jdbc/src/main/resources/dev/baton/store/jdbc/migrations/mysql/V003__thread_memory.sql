-- Schema version 3: thread memory. A thread belongs to one resource (or none); next_seq is the last
-- seq given to one of its messages, so an append reads and bumps one row however long the
-- thread is. Messages are clustered in (thread_id, seq) order; content is JSON text, verbatim.
CREATE TABLE IF NOT EXISTS ${table}_threads (
    id          VARBINARY(764) NOT NULL,
    resource_id VARBINARY(764) NULL,
    title       LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL,
    metadata    LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    created_at  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL,
    next_seq    BIGINT NOT NULL,
    PRIMARY KEY (id),
    INDEX ${table}_threads_resource (resource_id, updated_at, id)
) ENGINE=InnoDB;
CREATE TABLE IF NOT EXISTS ${table}_messages (
    thread_id  VARBINARY(764) NOT NULL,
    seq        BIGINT NOT NULL,
    run_id     VARBINARY(764) NOT NULL,
    run_index  INT NOT NULL,
    role       VARCHAR(32) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    content    LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (thread_id, seq),
    UNIQUE INDEX ${table}_messages_run (thread_id, run_id, run_index)
) ENGINE=InnoDB;
