-- A reservation's labels (issue 29): a string map its tenant tags it with (pipeline, commit, workload kind), to
-- filter its lists by (?label=pipeline=nightly, by containment: the GIN index) and group its usage by.
ALTER TABLE reservation ADD COLUMN labels jsonb NOT NULL DEFAULT '{}'
    CHECK (jsonb_typeof(labels) = 'object');
CREATE INDEX reservation_labels ON reservation USING gin (labels jsonb_path_ops);

-- billing's copy of a booking keeps its labels, so that usage can be grouped by one (groupBy=label:workload)
ALTER TABLE billable_reservation ADD COLUMN labels jsonb NOT NULL DEFAULT '{}';
