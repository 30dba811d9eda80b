-- Adding an existing user to a tenant is an invitation that user accepts (issue 28, finding 5): until then they are
-- not a member. Platform admins still add members directly (audited). An open invitation per tenant and user.
CREATE TABLE member_invitation (
    id          uuid PRIMARY KEY,
    tenant_id   uuid NOT NULL REFERENCES tenant (id),
    username    text NOT NULL,
    role        text NOT NULL CHECK (role IN ('TENANT_ADMIN', 'MEMBER', 'VIEWER')),
    invited_by  text NOT NULL,
    created_at  timestamptz NOT NULL,
    expires_at  timestamptz NOT NULL,
    answered_at timestamptz,
    -- EXPIRED is written when a new invitation replaces one nobody answered in time
    answer      text CHECK (answer IN ('ACCEPTED', 'DECLINED', 'EXPIRED')),
    CHECK ((answered_at IS NULL) = (answer IS NULL)),
    CHECK (expires_at > created_at)
);
CREATE UNIQUE INDEX member_invitation_open ON member_invitation (tenant_id, username) WHERE answered_at IS NULL;
CREATE INDEX member_invitation_invitee ON member_invitation (username, created_at) WHERE answered_at IS NULL;
