-- Sharing (issue 12): how much of its unused guarantee a tenant lends to borrowers, and time-window quotas that
-- override maxGpus in some hours of the week, read in the policy's zone (windows stored as 'SAT,SUN 00:00-24:00 64').

ALTER TABLE quota_policy
    ADD COLUMN lendable_gpus int CHECK (lendable_gpus BETWEEN 0 AND guaranteed_gpus), -- NULL: all of the guarantee
    ADD COLUMN zone text NOT NULL DEFAULT 'UTC',
    ADD COLUMN windows text[] NOT NULL DEFAULT '{}' CHECK (cardinality(windows) <= 50);
