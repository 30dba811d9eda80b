-- quota: the tenant's usage and spend as maintained state, so that a booking's split and budget checks read a
-- handful of rows whatever the history. quota_usage stays the priced record; triggers on it keep three derived
-- tables exact in the same transaction, whoever writes it:
--   quota_usage_edge   every instant where a usage row starts or ends (how many rows do, and the change in GPUs):
--                      the points where a booking's split may break;
--   quota_usage_level  the GPUs in use at each UTC hour start that some usage row covers (a missing hour is 0):
--                      the level a window starts from, without summing history;
--   quota_spend        the priced amount per tenant, GPU type, project, currency and UTC month (a usage row never
--                      crosses a month start, since the split cuts there).
-- quota_usage_rebuild() recomputes all three from quota_usage (for this migration and for bulk loads that skip
-- triggers).

CREATE TABLE quota_usage_edge (
    tenant_id   uuid        NOT NULL,
    gpu_type_id uuid        NOT NULL,
    at          timestamptz NOT NULL,
    -- no CHECK (refs >= 0): it would be evaluated on the proposed row of an upsert before the conflict turns it
    -- into an update (a removal proposes refs = -1); rows reaching 0 are deleted right after
    refs        int         NOT NULL,
    delta       int         NOT NULL,
    PRIMARY KEY (tenant_id, gpu_type_id, at)
);

CREATE TABLE quota_usage_level (
    tenant_id   uuid        NOT NULL,
    gpu_type_id uuid        NOT NULL,
    hour        timestamptz NOT NULL,
    gpus        int         NOT NULL,
    PRIMARY KEY (tenant_id, gpu_type_id, hour)
);

CREATE TABLE quota_spend (
    tenant_id   uuid           NOT NULL,
    gpu_type_id uuid           NOT NULL,
    project     text,
    currency    text           NOT NULL,
    month       timestamptz    NOT NULL,
    amount      numeric(18, 4) NOT NULL,
    CONSTRAINT quota_spend_key UNIQUE NULLS NOT DISTINCT (tenant_id, gpu_type_id, month, project, currency)
);
CREATE INDEX quota_spend_project ON quota_spend (tenant_id, project, month);

-- Adds (sign 1) or removes (sign -1) one usage row's contribution. Rows are written under the tenant's quota lock,
-- and every statement here touches its keys in ascending order, so two writers cannot deadlock.
CREATE FUNCTION quota_usage_apply(r quota_usage, sign int) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    gpus int := sign * (r.reserved_gpus + r.borrowed_gpus + r.on_demand_gpus);
BEGIN
    INSERT INTO quota_usage_edge AS e (tenant_id, gpu_type_id, at, refs, delta)
    VALUES (r.tenant_id, r.gpu_type_id, lower(r.during), sign, gpus),
           (r.tenant_id, r.gpu_type_id, upper(r.during), sign, -gpus)
    ON CONFLICT (tenant_id, gpu_type_id, at)
    DO UPDATE SET refs = e.refs + excluded.refs, delta = e.delta + excluded.delta;
    DELETE FROM quota_usage_edge
    WHERE tenant_id = r.tenant_id AND gpu_type_id = r.gpu_type_id AND at IN (lower(r.during), upper(r.during))
      AND refs = 0;
    -- every hour start inside [lower, upper)
    INSERT INTO quota_usage_level AS l (tenant_id, gpu_type_id, hour, gpus)
    SELECT r.tenant_id, r.gpu_type_id, h, gpus
    FROM generate_series(date_trunc('hour', lower(r.during) - interval '1 microsecond', 'UTC') + interval '1 hour',
                         upper(r.during) - interval '1 microsecond', interval '1 hour') h
    ORDER BY h
    ON CONFLICT (tenant_id, gpu_type_id, hour) DO UPDATE SET gpus = l.gpus + excluded.gpus;
    INSERT INTO quota_spend AS s (tenant_id, gpu_type_id, project, currency, month, amount)
    VALUES (r.tenant_id, r.gpu_type_id, r.project, r.currency, date_trunc('month', lower(r.during), 'UTC'),
            sign * r.amount)
    ON CONFLICT ON CONSTRAINT quota_spend_key DO UPDATE SET amount = s.amount + excluded.amount;
END $$;

CREATE FUNCTION quota_usage_maintain() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        PERFORM quota_usage_apply(OLD, -1);
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        PERFORM quota_usage_apply(NEW, 1);
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER quota_usage_maintained AFTER INSERT OR UPDATE OR DELETE ON quota_usage
    FOR EACH ROW EXECUTE FUNCTION quota_usage_maintain();

-- TRUNCATE fires no row trigger: empty the derived state with it (DELETE, since a TRUNCATE naming these tables
-- too still holds them open when this runs).
CREATE FUNCTION quota_usage_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM quota_usage_edge;
    DELETE FROM quota_usage_level;
    DELETE FROM quota_spend;
    RETURN NULL;
END $$;

CREATE TRIGGER quota_usage_truncated AFTER TRUNCATE ON quota_usage
    FOR EACH STATEMENT EXECUTE FUNCTION quota_usage_truncated();

-- Recomputes the derived tables from quota_usage. The level at an hour is the running sum of the edges up to it,
-- so this sorts the edges and the hour marks once instead of expanding every row into its hours.
CREATE FUNCTION quota_usage_rebuild() RETURNS void LANGUAGE sql AS $$
    DELETE FROM quota_usage_edge;
    DELETE FROM quota_usage_level;
    DELETE FROM quota_spend;
    INSERT INTO quota_usage_edge (tenant_id, gpu_type_id, at, refs, delta)
    SELECT tenant_id, gpu_type_id, at, count(*), sum(delta)
    FROM (SELECT tenant_id, gpu_type_id, lower(during) AS at,
                 reserved_gpus + borrowed_gpus + on_demand_gpus AS delta FROM quota_usage
          UNION ALL
          SELECT tenant_id, gpu_type_id, upper(during), -(reserved_gpus + borrowed_gpus + on_demand_gpus)
          FROM quota_usage) x
    GROUP BY 1, 2, 3;
    INSERT INTO quota_usage_level (tenant_id, gpu_type_id, hour, gpus)
    SELECT tenant_id, gpu_type_id, at, level FROM (
        SELECT tenant_id, gpu_type_id, at, mark,
               sum(delta) OVER (PARTITION BY tenant_id, gpu_type_id ORDER BY at, mark ROWS UNBOUNDED PRECEDING) AS level
        FROM (SELECT tenant_id, gpu_type_id, at, delta, false AS mark FROM quota_usage_edge
              UNION ALL
              SELECT s.tenant_id, s.gpu_type_id, h, 0, true
              FROM (SELECT tenant_id, gpu_type_id, min(at) AS lo, max(at) AS hi FROM quota_usage_edge GROUP BY 1, 2) s,
                   generate_series(date_trunc('hour', s.lo, 'UTC'), s.hi, interval '1 hour') h) stream
    ) levelled
    WHERE mark AND level <> 0;
    INSERT INTO quota_spend (tenant_id, gpu_type_id, project, currency, month, amount)
    SELECT tenant_id, gpu_type_id, project, currency, date_trunc('month', lower(during), 'UTC'), sum(amount)
    FROM quota_usage GROUP BY 1, 2, 3, 4, 5;
$$;

SELECT quota_usage_rebuild();
