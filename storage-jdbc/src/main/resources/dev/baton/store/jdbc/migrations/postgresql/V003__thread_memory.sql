-- Schema version 3: thread memory. A thread belongs to one resource (or none); next_seq is the last
-- seq given to one of its messages, so an append reads and bumps one row however long the
-- thread is. Messages are kept in (thread_id, seq) order; content is JSON text, verbatim.
CREATE TABLE IF NOT EXISTS ${table}_threads (
    id          VARCHAR(255) COLLATE "C" NOT NULL,
    resource_id VARCHAR(255) COLLATE "C",
    title       TEXT,
    metadata    TEXT         NOT NULL,
    created_at  BIGINT       NOT NULL,
    updated_at  BIGINT       NOT NULL,
    next_seq    BIGINT       NOT NULL,
    CONSTRAINT ${table}_threads_pkey PRIMARY KEY (id)
);
CREATE INDEX IF NOT EXISTS ${table}_threads_resource ON ${table}_threads (resource_id, updated_at DESC, id DESC);
CREATE TABLE IF NOT EXISTS ${table}_messages (
    thread_id  VARCHAR(255) COLLATE "C" NOT NULL,
    seq        BIGINT       NOT NULL,
    run_id     VARCHAR(255) COLLATE "C" NOT NULL,
    run_index  INTEGER      NOT NULL,
    role       VARCHAR(32)  NOT NULL,
    content    TEXT         NOT NULL,
    created_at BIGINT       NOT NULL,
    CONSTRAINT ${table}_messages_pkey PRIMARY KEY (thread_id, seq),
    CONSTRAINT ${table}_messages_run UNIQUE (thread_id, run_id, run_index)
);
