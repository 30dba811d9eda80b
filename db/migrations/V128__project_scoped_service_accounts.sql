-- A service account may be scoped to one project of its tenant (issue 31, part 4): its tokens then see and book only
-- in that project, as a PROJECT_MEMBER (role MEMBER) or PROJECT_VIEWER (role VIEWER) would.
ALTER TABLE service_account
    ADD COLUMN project text,
    ADD CONSTRAINT service_account_project_role CHECK (project IS NULL OR role IN ('MEMBER', 'VIEWER'));
