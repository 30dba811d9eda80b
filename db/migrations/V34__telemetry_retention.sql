-- billing: samples are purged by age (allot.billing.telemetry-retention); they arrive roughly in time order,
-- so a BRIN index on the time finds the old ones for almost no space.
CREATE INDEX gpu_utilisation_sample_age ON gpu_utilisation_sample USING brin (at);
