-- identity: access tokens revoked before they expire, by the SHA-256 of their value (never the value). Every
-- replica refuses them at the API within seconds (RevokedTokens); a row is useless once its token has expired.
CREATE TABLE revoked_access_token (
    token_hash text PRIMARY KEY CHECK (token_hash ~ '^sha256:[A-Za-z0-9_-]{43}$'),
    expires_at timestamptz NOT NULL
);
CREATE INDEX revoked_access_token_expiry ON revoked_access_token (expires_at);
