-- A pool may be dedicated to some tenants (issue 31): others do not see it (calendar, earliest-fit, quotes, pool
-- lists) and cannot book it, and its capacity counts for the guarantees of its tenants only. Empty: shared by all.
-- Tenant slugs, not ids: inventory does not depend on tenancy; a tenant's slug never changes.
ALTER TABLE pool ADD COLUMN dedicated_to text[] NOT NULL DEFAULT '{}'
    CHECK (cardinality(dedicated_to) <= 50);
