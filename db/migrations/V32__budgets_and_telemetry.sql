-- billing: tenants' monthly budgets with alert thresholds, the notifications they raise (and their webhook
-- deliveries), and GPU-utilisation samples for idle detection.

CREATE TABLE tenant_budget (
    tenant_id      uuid PRIMARY KEY REFERENCES tenant (id),
    amount         numeric(18, 4) NOT NULL CHECK (amount > 0 AND amount < 1e12),
    currency       text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    thresholds     int[] NOT NULL CHECK (cardinality(thresholds) BETWEEN 1 AND 10 AND 0 < ALL (thresholds) AND 1000 >= ALL (thresholds)),
    webhook_url    text CHECK (length(webhook_url) <= 2000),
    -- needed in clear to sign each delivery (HMAC-SHA256); never returned by the API
    webhook_secret text,
    version        bigint NOT NULL DEFAULT 0,
    updated_at     timestamptz NOT NULL,
    CHECK ((webhook_url IS NULL) = (webhook_secret IS NULL))
);

CREATE TABLE notification (
    id             uuid PRIMARY KEY,
    tenant_id      uuid NOT NULL REFERENCES tenant (id),
    kind           text NOT NULL CHECK (kind IN ('BUDGET_THRESHOLD', 'IDLE_RESERVATION')),
    -- exactly-once key ('budget:2027-01:80', 'idle:<reservation>')
    dedup_key      text NOT NULL,
    message        text NOT NULL,
    details        jsonb NOT NULL,
    created_at     timestamptz NOT NULL,
    webhook_url    text,
    delivery       text NOT NULL CHECK (delivery IN ('NONE', 'PENDING', 'DELIVERED', 'FAILED')),
    attempts       int NOT NULL DEFAULT 0,
    last_error     text,
    delivered_at   timestamptz,
    UNIQUE (tenant_id, dedup_key)
);
CREATE INDEX notification_tenant ON notification (tenant_id, created_at DESC, id);

CREATE TABLE gpu_utilisation_sample (
    hostname    text NOT NULL,
    gpu         int  NOT NULL CHECK (gpu BETWEEN 0 AND 63),
    at          timestamptz NOT NULL,
    utilisation numeric(5, 2) NOT NULL CHECK (utilisation BETWEEN 0 AND 100),
    PRIMARY KEY (hostname, at, gpu)
);

CREATE TABLE idle_flag (
    reservation_id uuid PRIMARY KEY REFERENCES billable_reservation (reservation_id),
    tenant_id      uuid NOT NULL,
    idle_since     timestamptz NOT NULL,
    flagged_at     timestamptz NOT NULL,
    max_utilisation numeric(5, 2) NOT NULL
);
