-- provisioning/health: tiered remediation of failed nodes (reboot, quarantine and replace), on the cluster timeline.
ALTER TABLE cluster_event DROP CONSTRAINT cluster_event_step_check;
ALTER TABLE cluster_event ADD CONSTRAINT cluster_event_step_check
    CHECK (step IN ('schedule', 'provision', 'teardown', 'watchdog', 'health-check', 'remediation'));

-- Each remediation step taken on a node: a second failure within the cooldown of a reboot escalates.
CREATE TABLE node_remediation (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    hostname       text NOT NULL,
    reservation_id uuid REFERENCES cluster (reservation_id),
    action         text NOT NULL CHECK (action IN ('REBOOT', 'QUARANTINE', 'REPLACE', 'NONE')),
    fault          text NOT NULL CHECK (fault IN ('SOFTWARE', 'HARDWARE')),
    reason         text NOT NULL CHECK (length(reason) <= 4000),
    at             timestamptz NOT NULL
);
CREATE INDEX node_remediation_recent ON node_remediation (hostname, at);
