-- A user's unread notices (issue 30): the newest notice of the tenant each user has seen, set when the notification
-- list is opened; notices after it are unread. Read newest first per tenant, hence the index.
CREATE TABLE notification_seen (
    tenant_id   uuid NOT NULL REFERENCES tenant (id),
    subject     text NOT NULL CHECK (length(subject) BETWEEN 1 AND 500),
    seen_until  timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, subject)
);

CREATE INDEX notification_tenant_newest ON notification (tenant_id, created_at DESC, id DESC);
