package dev.allot.billing.metering;

import dev.allot.booking.Holding;
import dev.allot.booking.ReservationLifecycle;
import dev.allot.inventory.events.NodeStateChanged;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.modulith.events.ApplicationModuleListener;
import org.springframework.stereotype.Component;

/**
 * Keeps each node's times out of service for a fault (QUARANTINED or IN_REPAIR) from inventory's events; the
 * GPUs of such a node are credited to the reservation holding it. Redelivered events change nothing.
 */
@Component
public class NodeOutages {

    private final JdbcClient jdbc;

    private final ObjectProvider<LateOutageCredits> lateCredits;

    private final ReservationLifecycle holdings;

    NodeOutages(JdbcClient jdbc, ObjectProvider<LateOutageCredits> lateCredits, ReservationLifecycle holdings) {
        this.jdbc = jdbc;
        this.lateCredits = lateCredits;
        this.holdings = holdings;
    }

    /** Records the outage's start or end; hours already metered since then get their credit corrected. */
    @ApplicationModuleListener
    void on(NodeStateChanged event) {
        boolean wasOut = event.from().isUnhealthy();
        boolean isOut = event.to().isUnhealthy();
        if (isOut && !wasOut) {
            jdbc.sql("""
					INSERT INTO node_outage (hostname, pool, during, reason)
					VALUES (?, ?, tstzrange(?, NULL, '[)'), ?) ON CONFLICT DO NOTHING""")
                    .params(event.hostname(), event.pool(), Timestamp.from(event.at()), event.reason())
                    .update();
        } else if (wasOut && !isOut) {
            jdbc.sql("""
					UPDATE node_outage SET during = tstzrange(lower(during), ?, '[)')
					WHERE hostname = ? AND upper_inf(during) AND lower(during) < ?""")
                    .params(Timestamp.from(event.at()), event.hostname(), Timestamp.from(event.at()))
                    .update();
        }
        if (isOut != wasOut) {
            lateCredits.getObject().correct(event.hostname(), event.at());
        }
    }

    /**
     * What takes GPUs from the reservation in {@code [from, to)}: its nodes' outages while it held them, read from
     * the allocations (the one record of holding: a node replaced before the window held nothing, one replaced
     * inside it only until then, and its replacement from then on), and the time nodes sat degraded under its
     * cluster ({@link DegradedNodeHours}).
     */
    public List<Outage> of(BillableReservation r, Instant from, Instant to) {
        List<Outage> down = new ArrayList<>();
        List<Holding> held = holdings.holdings(r.reservationId());
        List<String> nodes = held.stream().map(Holding::node).distinct().toList();
        for (Outage outage : nodes.isEmpty() ? List.<Outage>of() : of(nodes, from, to)) {
            for (Holding holding : held) {
                if (!holding.node().equals(outage.hostname())) {
                    continue;
                }
                Instant start = outage.from().isAfter(holding.from()) ? outage.from() : holding.from();
                Instant end = outage.endOr(holding.until());
                if (end.isAfter(start)) {
                    down.add(new Outage(outage.hostname(), start, end, r.reservationId()));
                }
            }
        }
        jdbc.sql("""
				SELECT hostname, lower(during) AS s, upper(during) AS e FROM node_degraded
				WHERE reservation_id = ? AND during && tstzrange(?, ?, '[)') ORDER BY lower(during)""")
                .params(r.reservationId(), Timestamp.from(from), Timestamp.from(to))
                .query((rs, n) -> outage(rs, r.reservationId()))
                .list()
                .forEach(down::add);
        return down;
    }

    /** Outages of the nodes overlapping {@code [from, to)}. */
    public List<Outage> of(List<String> hostnames, Instant from, Instant to) {
        return jdbc.sql("""
				SELECT hostname, lower(during) AS s, upper(during) AS e FROM node_outage
				WHERE hostname = ANY (?) AND during && tstzrange(?, ?, '[)') ORDER BY lower(during)""")
                .params(hostnames.toArray(String[]::new), Timestamp.from(from), Timestamp.from(to))
                .query((rs, n) -> outage(rs, null))
                .list();
    }

    private static Outage outage(ResultSet rs, @Nullable UUID reservation) throws SQLException {
        Timestamp end = rs.getTimestamp("e");
        return new Outage(
                rs.getString("hostname"),
                rs.getTimestamp("s").toInstant(),
                end == null ? null : end.toInstant(),
                reservation);
    }
}
