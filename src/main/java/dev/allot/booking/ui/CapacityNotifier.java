package dev.allot.booking.ui;

import dev.allot.booking.events.ReservationCancelled;
import dev.allot.booking.events.ReservationConfirmed;
import dev.allot.booking.events.ReservationExtended;
import dev.allot.booking.events.ReservationPreempted;
import dev.allot.inventory.events.NodeAdded;
import dev.allot.inventory.events.NodeStateChanged;
import java.util.UUID;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Tells every replica which pool's capacity changed: a synchronous listener, so its {@code pg_notify} runs in
 * the very transaction that books, cancels, extends or changes a node, and PostgreSQL delivers it to every
 * {@code LISTEN}ing replica exactly when that transaction commits (never for one that rolls back). Within a
 * transaction, notifications with the same payload are sent once.
 */
@Component
class CapacityNotifier {

    static final String CHANNEL = "allot_capacity";

    private final JdbcClient jdbc;

    CapacityNotifier(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    @EventListener
    void on(ReservationConfirmed confirmed) {
        notify(confirmed.pool());
    }

    @EventListener
    void on(ReservationCancelled cancelled) {
        notifyPoolOf(cancelled.reservationId());
    }

    @EventListener
    void on(ReservationPreempted preempted) {
        notify(preempted.pool());
    }

    @EventListener
    void on(ReservationExtended extended) {
        notifyPoolOf(extended.reservationId());
    }

    @EventListener
    void on(NodeStateChanged changed) {
        notify(changed.pool());
    }

    @EventListener
    void on(NodeAdded added) {
        jdbc.sql("SELECT pg_notify(?, name) FROM pool WHERE id = ?")
                .params(CHANNEL, added.poolId())
                .query()
                .listOfRows();
    }

    private void notifyPoolOf(UUID reservationId) {
        jdbc.sql("SELECT pg_notify(?, pool_name) FROM reservation WHERE id = ?")
                .params(CHANNEL, reservationId)
                .query()
                .listOfRows();
    }

    private void notify(String pool) {
        jdbc.sql("SELECT pg_notify(?, ?)").params(CHANNEL, pool).query().listOfRows();
    }
}
