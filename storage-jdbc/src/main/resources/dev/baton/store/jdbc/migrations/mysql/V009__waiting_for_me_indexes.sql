-- Schema version 9: the "waiting for me" listing (issue 37) without reading the runs' rows for its total. The label
-- rows of <table>_deciders count only at their run's current version; checking that read each run's clustered row
-- (2.6 KB) for its version and status, 10,000 rows for an agent at 1,000,000 runs. waiting_version is the run's
-- version while it is SUSPENDED with decider labels, else NULL (a virtual column: nothing stored in the row), and
-- the index (agent_id, run_id, waiting_version) answers "this label row is at its SUSPENDED run's current version"
-- from the agent's own entries. A write changes this index only when waiting_version changes, so writes of runs
-- without labels leave it alone after their INSERT. MySQL 8 has no IF NOT EXISTS for columns and indexes:
-- "duplicate column" and "duplicate key name" count as already applied. Adding a virtual column is instant; building
-- the index reads the whole table (on a big table, expect the time of a CREATE INDEX; it takes no lock on writes).
ALTER TABLE ${table} ADD COLUMN waiting_version BIGINT AS (CASE WHEN status = 'SUSPENDED' AND deciders IS NOT NULL THEN version END) VIRTUAL;
CREATE INDEX ${table}_waiting ON ${table} (agent_id, run_id, waiting_version);
