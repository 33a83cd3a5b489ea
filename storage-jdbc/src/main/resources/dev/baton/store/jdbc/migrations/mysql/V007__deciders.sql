-- Schema version 7: who may decide a waiting run (issue 37's "waiting for me" listing). deciders holds the
-- run's decider labels (RunSnapshot.deciders(), each length-prefixed: "<length>:<label>"), NULL for none, written
-- by the same INSERT/UPDATE as the rest of the run, so reading a run needs nothing more. The filter runs on
-- <table>_deciders: one row per label of a run whose snapshot was written SUSPENDED, with the version of that
-- write; only rows at the run's current version count, so a claim (RESUMING) writes nothing here, and labels a
-- later write dropped simply stop counting. Rows go with their run (ON DELETE CASCADE). MySQL 8 has no
-- IF NOT EXISTS for columns: "duplicate column" counts as already applied. Adding a trailing nullable column
-- is instant on MariaDB 10.3+ and MySQL 8.0.12+.
ALTER TABLE ${table} ADD COLUMN deciders LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL;
CREATE TABLE IF NOT EXISTS ${table}_deciders (
    run_id   VARBINARY(764) NOT NULL,
    label    VARBINARY(512) NOT NULL,
    agent_id VARBINARY(764) NOT NULL,
    version  BIGINT NOT NULL,
    PRIMARY KEY (run_id, label),
    INDEX ${table}_deciders_label (agent_id, label, run_id, version),
    CONSTRAINT ${table}_deciders_run FOREIGN KEY (run_id) REFERENCES ${table} (run_id) ON DELETE CASCADE
) ENGINE=InnoDB;
