-- provisioning: a health check keeps the fingerprint of the request that asked for it beside its Idempotency-Key,
-- as a reservation does, so that a retry is checked by the same rule as every other create. Checks asked for
-- before this had none: their keys can no longer be matched to a request, and a retry with one is refused as a
-- different request (422), never run twice.
ALTER TABLE cluster_health_check ADD COLUMN request_hash text;
UPDATE cluster_health_check SET request_hash = 'kept before request fingerprints' WHERE idempotency_key IS NOT NULL;
ALTER TABLE cluster_health_check ADD CONSTRAINT cluster_health_check_keyed_with_hash
    CHECK ((idempotency_key IS NULL) = (request_hash IS NULL));
