-- Schema version 8: the decider labels of the "waiting for me" listing (V007), qualified by the run's agent.
-- The GIN index of V007 is not per agent: its scan for a label returned the SUSPENDED runs of every agent
-- holding it, and the listing then dropped the other agents' runs by agent_id (at 100,000 runs, 22,579 entries
-- read for one agent's 172 matches; it grew with the whole table). Since this version each label is stored as
-- "<length of agent_id>:<agent_id><label>" (the length in characters, as length() counts them; unambiguous), the
-- store qualifies the labels it asks for with the listing's agent, and so the index scan reads that agent's runs
-- only. The store strips the qualifier when it reads a run back. This statement rewrites the labels of the rows
-- written before it: every labelled row once (on a big table, in one transaction: expect the time and the dead
-- rows of an UPDATE of that many rows, then autovacuum). A label that already carries its run's qualifier is kept
-- as it is, so running the statement again changes nothing. Stop the instances of an earlier release before the
-- first instance of this one starts: a run an earlier release writes after this migration has bare labels again,
-- and shows in no "waiting for me" listing until a newer release writes it again.
UPDATE ${table} SET deciders = ARRAY(
        SELECT CASE WHEN starts_with(d.label COLLATE "C", length(agent_id) || ':' || agent_id) THEN d.label
                    ELSE length(agent_id) || ':' || agent_id || d.label END
        FROM unnest(deciders) WITH ORDINALITY AS d(label, n) ORDER BY d.n)
    WHERE deciders IS NOT NULL
      AND EXISTS (SELECT 1 FROM unnest(deciders) AS e(label)
                  WHERE NOT starts_with(e.label COLLATE "C", length(agent_id) || ':' || agent_id));
