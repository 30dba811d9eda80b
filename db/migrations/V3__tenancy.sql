-- tenancy: tenants, projects, members and their roles.

CREATE TABLE tenant (
    id           uuid PRIMARY KEY,
    slug         text NOT NULL UNIQUE CHECK (slug ~ '^[a-z][a-z0-9-]{1,38}[a-z0-9]$'),
    display_name text NOT NULL CHECK (length(display_name) BETWEEN 1 AND 200),
    status       text NOT NULL CHECK (status IN ('ACTIVE', 'SUSPENDED')),
    version      bigint NOT NULL DEFAULT 0,
    created_at   timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE project (
    id           uuid PRIMARY KEY,
    tenant_id    uuid NOT NULL REFERENCES tenant (id),
    slug         text NOT NULL CHECK (slug ~ '^[a-z][a-z0-9-]{1,38}[a-z0-9]$'),
    display_name text NOT NULL CHECK (length(display_name) BETWEEN 1 AND 200),
    created_at   timestamptz NOT NULL DEFAULT now(),
    UNIQUE (tenant_id, slug)
);

-- Members are named by the subject of their identity (the username, or the external issuer's subject).
CREATE TABLE member (
    tenant_id  uuid NOT NULL REFERENCES tenant (id),
    subject    text NOT NULL,
    role       text NOT NULL CHECK (role IN ('TENANT_ADMIN', 'MEMBER', 'VIEWER')),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant_id, subject)
);
CREATE INDEX member_subject ON member (subject);
