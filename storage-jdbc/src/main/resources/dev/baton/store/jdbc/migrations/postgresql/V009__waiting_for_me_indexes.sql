-- Schema version 9: the "waiting for me" listing (issue 37) read from one index, without the table. A partial
-- B-tree index of the SUSPENDED runs that hold decider labels, in listing order, with the labels as an INCLUDE
-- column: its total is an Index Only Scan of the agent's labelled runs (the labels are tested in the index
-- entries; no heap page once VACUUM has marked them all-visible), and its page reads that range in listing order,
-- fetching rows only for the entries it tests. Before this version the total went through the GIN index of V007
-- and then rechecked every labelled run's heap page (2,200 pages for one agent at 1,000,000 runs). The GIN index
-- stays: it still answers a label that few of the agent's labelled runs hold. Only SUSPENDED runs with labels are
-- in the index, so writes of other runs do not touch it. On a big table, build it beforehand with CREATE INDEX
-- CONCURRENTLY under this name; IF NOT EXISTS then skips it.
CREATE INDEX IF NOT EXISTS ${table}_list_waiting ON ${table} (agent_id, created_at DESC, run_id DESC) INCLUDE (deciders)
    WHERE status = 'SUSPENDED' AND deciders IS NOT NULL;
