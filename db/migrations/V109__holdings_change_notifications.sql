-- The reconciler wakes when who holds which node changes (issue 26), on every replica, as the change commits:
--   'r:<reservation>' when a reservation's allocations change (booked, ended early, replaced, preempted, extended);
--   'p:<pool>'        when a cluster lets go of nodes (its node list shrinks, or it closes), so that a cluster
--                     waiting for one of them looks again at once.
-- Statement triggers with transition tables: one notification per reservation and statement, and PostgreSQL
-- folds equal payloads of one transaction into one.
CREATE FUNCTION notify_allocation_holdings() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('allot_holdings', 'r:' || reservation_id) FROM (SELECT DISTINCT reservation_id FROM changed) c;
    RETURN NULL;
END $$;

CREATE TRIGGER allocation_inserted_holdings AFTER INSERT ON allocation
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION notify_allocation_holdings();
CREATE TRIGGER allocation_updated_holdings AFTER UPDATE ON allocation
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION notify_allocation_holdings();
CREATE TRIGGER allocation_deleted_holdings AFTER DELETE ON allocation
    REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION notify_allocation_holdings();

CREATE FUNCTION notify_cluster_let_go() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('allot_holdings', 'p:' || r.pool_id) FROM reservation r WHERE r.id = NEW.reservation_id;
    RETURN NULL;
END $$;

CREATE TRIGGER cluster_let_go AFTER UPDATE OF nodes, open ON cluster FOR EACH ROW
    WHEN ((OLD.open AND NOT NEW.open) OR jsonb_array_length(NEW.nodes) < jsonb_array_length(OLD.nodes))
    EXECUTE FUNCTION notify_cluster_let_go();
