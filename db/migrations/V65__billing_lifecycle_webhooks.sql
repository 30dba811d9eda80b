-- billing: tenants' webhooks for the lifecycle of their reservations and clusters (for CI), and one delivery per
-- webhook, event and reservation: a retry is the same delivery (receivers dedupe on its id), and an event
-- redelivered after a crash cannot be sent twice.

CREATE TABLE tenant_webhook (
    id         uuid PRIMARY KEY,
    tenant_id  uuid NOT NULL REFERENCES tenant (id),
    url        text NOT NULL CHECK (length(url) <= 2000),
    -- sealed (AES-256-GCM under allot.billing.webhook-secret-key, bound to the tenant); never returned by the API
    secret     text NOT NULL,
    events     text[] NOT NULL CHECK (cardinality(events) BETWEEN 1 AND 7 AND events <@ ARRAY['CONFIRMED',
                   'PROVISIONING', 'READY', 'DEGRADED', 'PREEMPTED', 'COMPLETED', 'FAILED']),
    created_at timestamptz NOT NULL
);
CREATE INDEX tenant_webhook_tenant ON tenant_webhook (tenant_id, created_at, id);

CREATE TABLE tenant_webhook_delivery (
    id             uuid PRIMARY KEY,
    webhook_id     uuid NOT NULL REFERENCES tenant_webhook (id) ON DELETE CASCADE,
    event          text NOT NULL,
    reservation_id uuid NOT NULL,
    -- the exact JSON signed and sent at every attempt
    body           text NOT NULL,
    status         text NOT NULL CHECK (status IN ('PENDING', 'DELIVERED', 'FAILED')),
    attempts       int NOT NULL DEFAULT 0,
    last_error     text,
    created_at     timestamptz NOT NULL,
    attempted_at   timestamptz,
    UNIQUE (webhook_id, event, reservation_id)
);
CREATE INDEX tenant_webhook_delivery_recent ON tenant_webhook_delivery (webhook_id, created_at DESC, id);
