-- The admin console at fleet scale (issue 30): a node's history of checks, exporter events, remediations and
-- audited changes, read newest first by hostname.

-- provisioning/health: each exporter event as reported (a Xid, ECC errors, a DCGM health event), with what it caused.
CREATE TABLE node_event (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    hostname    text NOT NULL,
    type        text NOT NULL CHECK (type IN ('XID', 'ECC', 'DCGM')),
    detail      text NOT NULL CHECK (length(detail) <= 2000),
    fault       text NOT NULL CHECK (fault IN ('NONE', 'SOFTWARE', 'HARDWARE')),
    action      text NOT NULL CHECK (action IN ('REBOOT', 'QUARANTINE', 'NONE')),
    reported_by text NOT NULL,
    at          timestamptz NOT NULL
);
CREATE INDEX node_event_history ON node_event (hostname, at DESC, id DESC);

-- the on-demand checks whose results name a node (results @> '[{"node": ...}]')
CREATE INDEX cluster_health_check_nodes ON cluster_health_check USING gin (results jsonb_path_ops);

-- audit: the changes of one object (a node), newest first
CREATE INDEX audit_event_object_time ON audit_event (object_type, object_id, occurred_at DESC, id DESC);
