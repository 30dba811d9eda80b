-- The time a node of a reservation's cluster sat failed under it (a failed check or a fault event, until it was
-- replaced or passed again): billing credits those node-hours to the reservation, as it does node outages.
-- Kept per reservation, so a replaced node's hours stay credited to the reservation it failed under.
CREATE TABLE node_degraded (
    reservation_id uuid      NOT NULL,
    hostname       text      NOT NULL,
    during         tstzrange NOT NULL,
    reason         text,
    CONSTRAINT node_degraded_disjoint EXCLUDE USING gist (reservation_id WITH =, hostname WITH =, during WITH &&)
);
CREATE INDEX node_degraded_reservation ON node_degraded (reservation_id);
