-- quota: one lockable row per tenant, its policies per GPU type, rate cards, and the priced usage of bookings.

CREATE TABLE quota (
    tenant_id  uuid PRIMARY KEY REFERENCES tenant (id),
    version    bigint NOT NULL DEFAULT 0,
    updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE quota_policy (
    tenant_id           uuid    NOT NULL REFERENCES quota (tenant_id),
    gpu_type_id         uuid    NOT NULL REFERENCES gpu_type (id),
    guaranteed_gpus     int     NOT NULL CHECK (guaranteed_gpus >= 0),
    max_gpus            int     NOT NULL,
    burst               boolean NOT NULL,
    max_window_seconds  bigint  NOT NULL CHECK (max_window_seconds > 0),
    max_advance_seconds bigint  NOT NULL CHECK (max_advance_seconds > 0),
    monthly_budget      numeric(18, 4) CHECK (monthly_budget >= 0),
    priority            text    NOT NULL CHECK (priority IN ('PRODUCTION_INFERENCE', 'PRODUCTION_FINE_TUNE', 'TRAINING', 'EXPERIMENT')),
    PRIMARY KEY (tenant_id, gpu_type_id),
    CHECK (max_gpus >= guaranteed_gpus)
);

CREATE TABLE rate_card (
    gpu_type_id    uuid NOT NULL REFERENCES gpu_type (id),
    effective_from date NOT NULL,
    currency       text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    reserved       numeric(14, 4) NOT NULL CHECK (reserved >= 0),
    borrowed       numeric(14, 4) NOT NULL CHECK (borrowed >= 0),
    on_demand      numeric(14, 4) NOT NULL CHECK (on_demand >= 0),
    PRIMARY KEY (gpu_type_id, effective_from)
);

-- A booking's GPUs split into rate classes over stretches of constant usage (never across a month start),
-- priced with the rate card of the booking. Counting usage and monthly spend reads only this table.
CREATE TABLE quota_usage (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    reservation_id  uuid      NOT NULL,
    tenant_id       uuid      NOT NULL REFERENCES quota (tenant_id),
    gpu_type_id     uuid      NOT NULL REFERENCES gpu_type (id),
    during          tstzrange NOT NULL CHECK (NOT isempty(during) AND NOT lower_inf(during) AND NOT upper_inf(during)),
    reserved_gpus   int       NOT NULL CHECK (reserved_gpus >= 0),
    borrowed_gpus   int       NOT NULL CHECK (borrowed_gpus >= 0),
    on_demand_gpus  int       NOT NULL CHECK (on_demand_gpus >= 0),
    currency        text      NOT NULL,
    price_reserved  numeric(14, 4) NOT NULL,
    price_borrowed  numeric(14, 4) NOT NULL,
    price_on_demand numeric(14, 4) NOT NULL,
    amount          numeric(18, 4) NOT NULL
);
CREATE INDEX quota_usage_tenant ON quota_usage USING gist (tenant_id, gpu_type_id, during);
CREATE INDEX quota_usage_reservation ON quota_usage (reservation_id);
