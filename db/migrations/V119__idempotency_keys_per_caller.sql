-- Idempotency keys are scoped per caller (a user or a service account), as the API's shared filter already keeps
-- them and as the README says: two service accounts of one tenant may both send "nightly-42" and each gets its own
-- reservation (or health check), never the other's replayed. Rows keyed before this migration keep their key with
-- no caller: a retry of them after it books anew rather than replays (their callers' keys were at most a day old).
ALTER TABLE reservation ADD COLUMN idempotency_caller text CHECK (length(idempotency_caller) BETWEEN 1 AND 300);
ALTER TABLE reservation DROP CONSTRAINT reservation_tenant_id_idempotency_key_key;
ALTER TABLE reservation ADD CONSTRAINT reservation_idempotency_key_per_caller
    UNIQUE (tenant_id, idempotency_caller, idempotency_key);

ALTER TABLE cluster_health_check ADD COLUMN idempotency_caller text
    CHECK (length(idempotency_caller) BETWEEN 1 AND 300);
ALTER TABLE cluster_health_check DROP CONSTRAINT cluster_health_check_reservation_id_idempotency_key_key;
ALTER TABLE cluster_health_check ADD CONSTRAINT cluster_health_check_idempotency_key_per_caller
    UNIQUE (reservation_id, idempotency_caller, idempotency_key);
