-- A user of an external OIDC issuer is known by the issuer's stable subject (iss + sub), not by a claim such as
-- preferred_username that the user may be able to change there. The first sign-in links the identity to the
-- username it then claims (tenant memberships name usernames); later sign-ins resolve through the link, and a
-- username already linked to another identity cannot be claimed again.
CREATE TABLE external_identity (
    issuer    text NOT NULL,
    subject   text NOT NULL,
    username  text NOT NULL UNIQUE CHECK (username ~ '^[a-z][a-z0-9._-]{1,39}$'),
    linked_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (issuer, subject)
);
