-- Schema version 9: the "waiting for me" listing (issue 37) without reading the runs' rows for its total. The label
-- rows of <table>_deciders count only at their run's current version; checking that looked each labelled run up in
-- the table for its version and status (one page per run). A partial index of the SUSPENDED runs on (agent_id,
-- run_id, version, status) answers it from the agent's own entries (a covering index), and the listing's page walks
-- the agent's listing index in order, testing each run against the label rows, until the page is full.
CREATE INDEX IF NOT EXISTS ${table}_waiting ON ${table} (agent_id, run_id, version, status) WHERE status = 'SUSPENDED';
