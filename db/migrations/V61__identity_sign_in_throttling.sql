-- identity: sign-in throttling shared by every replica, so a second replica does not double anyone's budget.

-- bucket4j's buckets (PostgreSQLSelectForUpdateBasedProxyManager): one row per limit and key, e.g.
-- 'token-client:10/PT1M:ci-bot'; the row lock serialises concurrent requests on one key. expires_at (epoch
-- milliseconds) is when a bucket would be full again, after which the row may be dropped.
CREATE TABLE rate_limit_bucket (
    id         text PRIMARY KEY,
    state      bytea,
    expires_at bigint
);
CREATE INDEX rate_limit_bucket_expires ON rate_limit_bucket (expires_at);

-- Failed sign-ins per account (channel 'user' for the login form, 'client' for client authentication),
-- counted within a window; from the threshold on, the account is refused until refused_until, a delay that
-- doubles with each further failure. A successful sign-in deletes the row.
CREATE TABLE sign_in_failure (
    channel       text        NOT NULL,
    principal     text        NOT NULL,
    failures      integer     NOT NULL CHECK (failures > 0),
    window_start  timestamptz NOT NULL,
    refused_until timestamptz,
    PRIMARY KEY (channel, principal)
);
