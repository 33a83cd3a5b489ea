-- Schema version 7: who may decide a waiting run (issue 37's "waiting for me" listing). deciders holds the
-- run's decider labels (RunSnapshot.deciders(): opaque text, at most 128 characters each), NULL for none,
-- written by the same INSERT/UPDATE as the rest of the run (a claim writes the labels it read: no extra
-- statement). The listing's deciders filter is answered by a GIN index on the labels of SUSPENDED runs only
-- (a claimed run waits for no decision). Adding a nullable column rewrites nothing; on a big table, build the
-- index beforehand with CREATE INDEX CONCURRENTLY under this name; IF NOT EXISTS then skips it. Rows written
-- before this version have no labels: they show in a deciders listing once their run is written again.
ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS deciders TEXT[];
CREATE INDEX IF NOT EXISTS ${table}_list_deciders ON ${table} USING GIN (deciders) WHERE status = 'SUSPENDED';
