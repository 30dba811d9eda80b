-- Issue 28, finding 11: lock-out that strangers cannot cause. The sign-in back-off counts failures per account and
-- source address (sign_in_failure rows keyed "<account> from <address hash>") beside a slower count per account
-- across addresses; an address the account signed in from successfully before is "known good" and is not refused
-- by the per-account limits. Addresses are kept as SHA-256 hashes (with the account), never in clear.
CREATE TABLE sign_in_known_address (
    channel      text        NOT NULL,
    principal    text        NOT NULL,
    address_hash text        NOT NULL CHECK (address_hash ~ '^[0-9a-f]{64}$'),
    last_success timestamptz NOT NULL,
    PRIMARY KEY (channel, principal, address_hash)
);
CREATE INDEX sign_in_known_address_age ON sign_in_known_address (last_success);
