-- Every change to the rows each request reads (the caller's service account, the tenant, project and pool it
-- names, the pool's nodes and GPU type) announces its table on allot_table_changes as the transaction commits, so
-- every replica drops what it holds of that table (dev.allot.shared.changes.TableChanges). A statement trigger:
-- one notification per statement and table, merged by PostgreSQL within a transaction.
CREATE FUNCTION announce_table_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('allot_table_changes', TG_TABLE_NAME);
    RETURN NULL;
END
$$;

DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['service_account', 'tenant', 'project', 'gpu_type', 'pool', 'node'] LOOP
        EXECUTE format('CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I '
                       'FOR EACH STATEMENT EXECUTE FUNCTION announce_table_change()', t || '_changed', t);
    END LOOP;
END
$$;
