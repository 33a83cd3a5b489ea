-- Schema version 3: thread memory. A thread belongs to one resource (or none); next_seq is the last
-- seq given to one of its messages, so an append reads and bumps one row however long the
-- thread is. Messages are found in (thread_id, seq) order by the primary key's index (a rowid
-- table, since a message may be large); content is JSON text, verbatim.
CREATE TABLE IF NOT EXISTS ${table}_threads (
    id          TEXT    NOT NULL PRIMARY KEY,
    resource_id TEXT,
    title       TEXT,
    metadata    TEXT    NOT NULL,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    next_seq    INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS ${table}_threads_resource ON ${table}_threads (resource_id, updated_at DESC, id DESC);
CREATE TABLE IF NOT EXISTS ${table}_messages (
    thread_id  TEXT    NOT NULL,
    seq        INTEGER NOT NULL,
    run_id     TEXT    NOT NULL,
    run_index  INTEGER NOT NULL,
    role       TEXT    NOT NULL,
    content    TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (thread_id, seq),
    CONSTRAINT ${table}_messages_run UNIQUE (thread_id, run_id, run_index)
);
