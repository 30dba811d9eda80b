package dev.allot.billing.metering;

import dev.allot.quota.pricing.BookedSegment;
import dev.allot.shared.TimeWindow;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.databind.json.JsonMapper;

@Repository
public class BillableReservationRepository {

    private static final String RANGE = "tstzrange(?, ?, '[)')";

    private final JdbcClient jdbc;

    private final JsonMapper json;

    BillableReservationRepository(JdbcClient jdbc, JsonMapper json) {
        this.json = json;
        this.jdbc = jdbc;
    }

    /** Inserts it unless known (events may be delivered again); true when inserted. */
    boolean insert(BillableReservation r, Map<String, String> labels) {
        return jdbc.sql("""
				INSERT INTO billable_reservation (reservation_id, tenant_id, tenant_slug, project, pool, gpu_type,
				    gpus_per_node, gpus, nodes, starts_at, ends_at, booked_amount, currency, stopped_at, metered_until,
				    labels)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, CAST(? AS jsonb)) ON CONFLICT DO NOTHING""")
                        .params(
                                r.reservationId(),
                                r.tenantId(),
                                r.tenant(),
                                r.project(),
                                r.pool(),
                                r.gpuType(),
                                r.gpusPerNode(),
                                r.gpus(),
                                r.nodes().toArray(String[]::new),
                                ts(r.startsAt()),
                                ts(r.endsAt()),
                                r.bookedAmount(),
                                r.currency(),
                                r.stoppedAt() == null ? null : ts(r.stoppedAt()),
                                ts(r.meteredUntil()),
                                json.writeValueAsString(new TreeMap<>(labels)))
                        .update()
                == 1;
    }

    void insertSegments(UUID reservationId, List<BookedSegment> segments) {
        for (BookedSegment s : segments) {
            jdbc.sql("""
					INSERT INTO billable_segment (reservation_id, during, reserved_gpus, borrowed_gpus, on_demand_gpus, amount)
					VALUES (?, """ + RANGE + ", ?, ?, ?, ?) ON CONFLICT DO NOTHING")
                    .params(
                            reservationId,
                            ts(s.during().start()),
                            ts(s.during().end()),
                            s.reservedGpus(),
                            s.borrowedGpus(),
                            s.onDemandGpus(),
                            s.amount())
                    .update();
        }
        jdbc.sql("""
				UPDATE billable_reservation SET booked_amount =
				    (SELECT coalesce(sum(amount), 0) FROM billable_segment WHERE reservation_id = ?)
				WHERE reservation_id = ?""").params(reservationId, reservationId).update();
    }

    void extend(UUID reservationId, Instant endsAt) {
        jdbc.sql("UPDATE billable_reservation SET ends_at = greatest(ends_at, ?) WHERE reservation_id = ?")
                .params(ts(endsAt), reservationId)
                .update();
    }

    void cancel(UUID reservationId, Instant cancelledAt, Instant freedFrom) {
        jdbc.sql("""
				UPDATE billable_reservation SET cancelled_at = coalesce(cancelled_at, ?),
				    stopped_at = least(coalesce(stopped_at, ?), ?) WHERE reservation_id = ?""")
                .params(ts(cancelledAt), ts(freedFrom), ts(freedFrom), reservationId)
                .update();
    }

    /** Nothing is charged from {@code at} on (a preemption). */
    void stop(UUID reservationId, Instant at) {
        jdbc.sql(
                        "UPDATE billable_reservation SET stopped_at = least(coalesce(stopped_at, ?), ?) WHERE reservation_id = ?")
                .params(ts(at), ts(at), reservationId)
                .update();
    }

    void ready(UUID reservationId, Instant at) {
        jdbc.sql("UPDATE billable_reservation SET ready_at = coalesce(ready_at, ?) WHERE reservation_id = ?")
                .params(ts(at), reservationId)
                .update();
    }

    void fail(UUID reservationId, Instant at, String reason) {
        jdbc.sql("""
				UPDATE billable_reservation SET failed_at = coalesce(failed_at, ?), failure_reason = coalesce(failure_reason, ?)
				WHERE reservation_id = ?""").params(ts(at), reason, reservationId).update();
    }

    void meteredUntil(UUID reservationId, Instant until) {
        jdbc.sql("UPDATE billable_reservation SET metered_until = greatest(metered_until, ?) WHERE reservation_id = ?")
                .params(ts(until), reservationId)
                .update();
    }

    public Optional<BillableReservation> find(UUID reservationId) {
        return jdbc.sql("SELECT * FROM billable_reservation WHERE reservation_id = ?")
                .param(reservationId)
                .query(BillableReservationRepository::row)
                .optional();
    }

    /** Locks it for metering; empty when another worker holds it (that worker meters it). */
    Optional<BillableReservation> lockForMetering(UUID reservationId) {
        return jdbc.sql("SELECT * FROM billable_reservation WHERE reservation_id = ? FOR UPDATE SKIP LOCKED")
                .param(reservationId)
                .query(BillableReservationRepository::row)
                .optional();
    }

    Optional<BillableReservation> lock(UUID reservationId) {
        return jdbc.sql("SELECT * FROM billable_reservation WHERE reservation_id = ? FOR UPDATE")
                .param(reservationId)
                .query(BillableReservationRepository::row)
                .optional();
    }

    /** Reservations with an hour whose billable part ended by {@code horizon} and is not metered yet. */
    List<UUID> due(Instant horizon, boolean awaitClusterReady, int limit) {
        return jdbc.sql("""
				SELECT reservation_id FROM billable_reservation
				WHERE failed_at IS NULL AND metered_until < least(coalesce(stopped_at, ends_at), ends_at)
				  AND (metered_until + interval '1 hour' <= ? OR least(coalesce(stopped_at, ends_at), ends_at) <= ?)
				  AND (NOT ? OR ready_at IS NOT NULL OR cancelled_at IS NOT NULL)
				ORDER BY metered_until LIMIT ?""")
                .params(ts(horizon), ts(horizon), awaitClusterReady, limit)
                .query(UUID.class)
                .list();
    }

    public List<Split> splits(UUID reservationId) {
        return jdbc.sql("""
				SELECT lower(during) AS s, upper(during) AS e, reserved_gpus, borrowed_gpus, on_demand_gpus, amount
				FROM billable_segment WHERE reservation_id = ? ORDER BY lower(during)""")
                .param(reservationId)
                .query((rs, n) -> new Split(
                        new TimeWindow(
                                rs.getTimestamp("s").toInstant(),
                                rs.getTimestamp("e").toInstant()),
                        rs.getInt("reserved_gpus"),
                        rs.getInt("borrowed_gpus"),
                        rs.getInt("on_demand_gpus"),
                        rs.getBigDecimal("amount")))
                .list();
    }

    /** Claims the hour: true once per reservation and hour, whoever asks and however often. */
    boolean claim(UUID reservationId, Instant hour, @Nullable TimeWindow billed, Instant now) {
        return jdbc.sql("""
				INSERT INTO metered_period (reservation_id, hour, billed, metered_at)
				VALUES (?, ?, CASE WHEN ?::timestamptz IS NULL THEN NULL ELSE tstzrange(?, ?, '[)') END, ?)
				ON CONFLICT DO NOTHING""")
                        .params(
                                reservationId,
                                ts(hour),
                                billed == null ? null : ts(billed.start()),
                                billed == null ? null : ts(billed.start()),
                                billed == null ? null : ts(billed.end()),
                                ts(now))
                        .update()
                == 1;
    }

    void posted(UUID reservationId, Instant hour, long transactionId) {
        jdbc.sql("UPDATE metered_period SET transaction_id = ? WHERE reservation_id = ? AND hour = ?")
                .params(transactionId, reservationId, ts(hour))
                .update();
    }

    private static BillableReservation row(ResultSet rs, int n) throws SQLException {
        return new BillableReservation(
                rs.getObject("reservation_id", UUID.class),
                rs.getObject("tenant_id", UUID.class),
                rs.getString("tenant_slug"),
                rs.getString("project"),
                rs.getString("pool"),
                rs.getString("gpu_type"),
                rs.getInt("gpus_per_node"),
                rs.getInt("gpus"),
                Arrays.asList((String[]) rs.getArray("nodes").getArray()),
                instant(rs, "starts_at"),
                instant(rs, "ends_at"),
                rs.getBigDecimal("booked_amount"),
                rs.getString("currency"),
                instant(rs, "cancelled_at"),
                instant(rs, "stopped_at"),
                instant(rs, "ready_at"),
                instant(rs, "failed_at"),
                instant(rs, "metered_until"));
    }

    @SuppressWarnings("NullAway")
    private static Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp value = rs.getTimestamp(column);
        return value == null ? null : value.toInstant();
    }

    static Timestamp ts(Instant instant) {
        return Timestamp.from(instant);
    }
}
