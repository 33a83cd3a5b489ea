-- Schema version 7: who may decide a waiting run (issue 37's "waiting for me" listing). deciders holds the
-- run's decider labels (RunSnapshot.deciders(), each length-prefixed: "<length>:<label>"), NULL for none, written
-- by the same INSERT/UPDATE as the rest of the run, so reading a run needs nothing more. The filter runs on
-- <table>_deciders: one row per label of a run whose snapshot was written SUSPENDED, with the version of that
-- write; only rows at the run's current version count, so a claim (RESUMING) writes nothing here, and labels a
-- later write dropped simply stop counting. Rows go with their run: a trigger, since SQLite enforces foreign
-- keys only on connections that ask for it. SQLite has no ADD COLUMN IF NOT EXISTS: "duplicate column name"
-- counts as already applied.
ALTER TABLE ${table} ADD COLUMN deciders TEXT;
CREATE TABLE IF NOT EXISTS ${table}_deciders (
    run_id   TEXT    NOT NULL,
    label    TEXT    NOT NULL,
    agent_id TEXT    NOT NULL,
    version  INTEGER NOT NULL,
    PRIMARY KEY (run_id, label)
);
CREATE INDEX IF NOT EXISTS ${table}_deciders_label ON ${table}_deciders (agent_id, label, run_id, version);
CREATE TRIGGER IF NOT EXISTS ${table}_deciders_gone AFTER DELETE ON ${table} BEGIN DELETE FROM ${table}_deciders WHERE run_id = OLD.run_id; END;
