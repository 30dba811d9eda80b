-- Project roles (issue 31, part 4): a person may hold a role in one project of a tenant, beside or instead of a role
-- in the tenant. With only project roles in a tenant they see and book only in those projects; a PROJECT_ADMIN
-- manages the project's members and decides its bookings waiting for approval.
CREATE TABLE project_member (
    project_id uuid NOT NULL REFERENCES project (id),
    subject    text NOT NULL,
    role       text NOT NULL CHECK (role IN ('PROJECT_ADMIN', 'PROJECT_MEMBER', 'PROJECT_VIEWER')),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (project_id, subject)
);
CREATE INDEX project_member_subject ON project_member (subject);
