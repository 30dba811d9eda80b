-- audit: the append-only trail. Written in the transaction of the change it records.

CREATE TABLE audit_event (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    occurred_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    actor       text NOT NULL,
    tenant_slug text,
    action      text NOT NULL,
    object_type text NOT NULL,
    object_id   text NOT NULL,
    request_id  text,
    before      jsonb,
    after       jsonb
);
CREATE INDEX audit_event_tenant_time ON audit_event (tenant_slug, occurred_at DESC);
CREATE INDEX audit_event_actor_time ON audit_event (actor, occurred_at DESC);
CREATE INDEX audit_event_time ON audit_event (occurred_at DESC);

CREATE FUNCTION audit_event_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'audit_event is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;

CREATE TRIGGER audit_event_append_only
    BEFORE UPDATE OR DELETE ON audit_event
    FOR EACH ROW EXECUTE FUNCTION audit_event_is_append_only();
CREATE TRIGGER audit_event_no_truncate
    BEFORE TRUNCATE ON audit_event
    FOR EACH STATEMENT EXECUTE FUNCTION audit_event_is_append_only();
