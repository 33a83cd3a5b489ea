-- Schema version 7: who may decide a waiting run (issue 37's "waiting for me" listing). deciders holds the
-- run's decider labels (RunSnapshot.deciders(), each length-prefixed: "<length>:<label>"), NULL for none, written
-- by the same INSERT/UPDATE as the rest of the run, so reading a run needs nothing more. The filter runs on
-- <table>_deciders: one row per label of a run whose snapshot was written SUSPENDED, with the version of that
-- write; only rows at the run's current version count, so a claim (RESUMING) writes nothing here, and labels a
-- later write dropped simply stop counting. Rows go with their run (ON DELETE CASCADE).
ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS deciders CHARACTER VARYING;
CREATE TABLE IF NOT EXISTS ${table}_deciders (
    run_id   VARCHAR(255) NOT NULL,
    label    VARCHAR(128) NOT NULL,
    agent_id VARCHAR(255) NOT NULL,
    version  BIGINT       NOT NULL,
    CONSTRAINT ${table}_deciders_pkey PRIMARY KEY (run_id, label),
    CONSTRAINT ${table}_deciders_run FOREIGN KEY (run_id) REFERENCES ${table} (run_id) ON DELETE CASCADE
);
CREATE INDEX IF NOT EXISTS ${table}_deciders_label ON ${table}_deciders (agent_id, label, run_id, version);
