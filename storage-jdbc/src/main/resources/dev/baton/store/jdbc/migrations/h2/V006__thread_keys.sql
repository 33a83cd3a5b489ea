-- Schema version 6: thread ids are scoped by resource. Core keeps a resource's thread under the key
-- resourceId + U+001F + threadId (at most 511 characters), a thread without a resource under its
-- thread id; the key columns widen to hold it. Threads stored before keep their keys: core still
-- finds them (docs/memory.md).
ALTER TABLE ${table}_threads ALTER COLUMN id SET DATA TYPE VARCHAR(511);
ALTER TABLE ${table}_messages ALTER COLUMN thread_id SET DATA TYPE VARCHAR(511);
