package dev.allot.billing.metering;

import dev.allot.provisioning.NodeDegradationEnded;
import dev.allot.provisioning.NodeDegraded;
import java.sql.Timestamp;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.modulith.events.ApplicationModuleListener;
import org.springframework.stereotype.Component;

/**
 * The time each node sat failed under a reservation's cluster (from the failed check or fault event until it was
 * replaced or passed again), kept per reservation from provisioning's events. Metering credits those node-hours
 * like an outage, at once, without waiting for an admin to quarantine the node; hours already metered get their
 * credit corrected to what is due (never credited twice: a correction posts only the difference). Redelivered
 * events change nothing.
 */
@Component
class DegradedNodeHours {

    private final JdbcClient jdbc;

    private final ObjectProvider<LateOutageCredits> lateCredits;

    DegradedNodeHours(JdbcClient jdbc, ObjectProvider<LateOutageCredits> lateCredits) {
        this.jdbc = jdbc;
        this.lateCredits = lateCredits;
    }

    @ApplicationModuleListener
    void on(NodeDegraded event) {
        int opened = jdbc.sql("""
				INSERT INTO node_degraded (reservation_id, hostname, during, reason)
				SELECT ?, ?, tstzrange(?, NULL, '[)'), ?
				WHERE NOT EXISTS (SELECT 1 FROM node_degraded WHERE reservation_id = ? AND hostname = ?
				                  AND during && tstzrange(?, NULL, '[)'))""")
                .params(
                        event.reservationId(),
                        event.hostname(),
                        Timestamp.from(event.since()),
                        event.reason().length() > 1000 ? event.reason().substring(0, 1000) : event.reason(),
                        event.reservationId(),
                        event.hostname(),
                        Timestamp.from(event.since()))
                .update();
        if (opened > 0) {
            lateCredits.getObject().correct(event.reservationId(), event.since());
        }
    }

    @ApplicationModuleListener
    void on(NodeDegradationEnded event) {
        int closed = jdbc.sql("""
				UPDATE node_degraded SET during = tstzrange(lower(during), ?, '[)')
				WHERE reservation_id = ? AND hostname = ? AND upper_inf(during) AND lower(during) < ?""")
                .params(Timestamp.from(event.at()), event.reservationId(), event.hostname(), Timestamp.from(event.at()))
                .update();
        if (closed > 0) {
            lateCredits.getObject().correct(event.reservationId(), event.at());
        }
    }
}
