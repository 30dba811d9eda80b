package dev.allot.quota;

import dev.allot.quota.pricing.BookedSegment;
import dev.allot.quota.pricing.RateCard;
import dev.allot.quota.pricing.RateClass;
import dev.allot.shared.TimeWindow;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** A tenant's booked usage: the segments of its reservations, their hourly steps and monthly spend. */
@Repository
class QuotaUsageRepository {

    private final JdbcClient jdbc;

    QuotaUsageRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    private static final String RANGE = "tstzrange(?, ?, '[)')";

    /**
     * The tenant's usage of the type over the window, from the maintained state (V60): the level at the hour
     * start of the window's start and the edges from there to the window's end. Two index range reads whose
     * length depends on the window, not on how many bookings the tenant ever made.
     */
    UsageSteps usage(UUID tenantId, UUID gpuTypeId, TimeWindow window) {
        Timestamp hour = ts(UsageSteps.hourOf(window.start()));
        int level = jdbc.sql("SELECT gpus FROM quota_usage_level WHERE tenant_id = ? AND gpu_type_id = ? AND hour = ?")
                .params(tenantId, gpuTypeId, hour)
                .query(Integer.class)
                .optional()
                .orElse(0);
        List<UsageSteps.Edge> edges = jdbc.sql("""
				SELECT at, delta FROM quota_usage_edge
				WHERE tenant_id = ? AND gpu_type_id = ? AND at > ? AND at < ? ORDER BY at""")
                .params(tenantId, gpuTypeId, hour, ts(window.end()))
                .query((rs, n) -> new UsageSteps.Edge(rs.getTimestamp(1).toInstant(), rs.getInt(2)))
                .list();
        return UsageSteps.fromEdges(level, edges, window);
    }

    /** What the tenant has booked of the type in the calendar month (from the maintained monthly counters). */
    BigDecimal spent(UUID tenantId, UUID gpuTypeId, YearMonth month) {
        return jdbc.sql("SELECT coalesce(sum(amount), 0) FROM quota_spend WHERE tenant_id = ? AND gpu_type_id = ? "
                        + "AND month = ?")
                .params(tenantId, gpuTypeId, ts(QuotaPolicy.monthStart(month)))
                .query(BigDecimal.class)
                .single();
    }

    /** What a project's live bookings of the GPU type cost in {@code month}. */
    BigDecimal spentByProject(UUID tenantId, String project, UUID gpuTypeId, YearMonth month) {
        return jdbc.sql("SELECT coalesce(sum(amount), 0) FROM quota_spend WHERE tenant_id = ? AND project = ? "
                        + "AND gpu_type_id = ? AND month = ?")
                .params(tenantId, project, gpuTypeId, ts(QuotaPolicy.monthStart(month)))
                .query(BigDecimal.class)
                .single();
    }

    /** A project's live holdings of the GPU type overlapping the window: each its interval and GPUs. */
    List<Held> heldByProject(UUID tenantId, String project, UUID gpuTypeId, Instant from, Instant to) {
        return jdbc.sql("""
				SELECT lower(during), upper(during), reserved_gpus + borrowed_gpus + on_demand_gpus
				FROM quota_usage WHERE tenant_id = ? AND project = ? AND gpu_type_id = ? AND during && tstzrange(?, ?)""")
                .params(tenantId, project, gpuTypeId, ts(from), ts(to))
                .query((rs, n) -> new Held(
                        rs.getTimestamp(1).toInstant(), rs.getTimestamp(2).toInstant(), rs.getInt(3)))
                .list();
    }

    record Held(Instant from, Instant to, int gpus) {}

    /** What a project's live bookings cost in {@code month}, in {@code currency}, over all GPU types. */
    BigDecimal spentByProject(UUID tenantId, String project, YearMonth month, String currency) {
        return jdbc.sql("SELECT coalesce(sum(amount), 0) FROM quota_spend WHERE tenant_id = ? AND project = ? "
                        + "AND month = ? AND currency = ?")
                .params(tenantId, project, ts(QuotaPolicy.monthStart(month)), currency)
                .query(BigDecimal.class)
                .single();
    }

    /**
     * Stores a booking's segments in one statement, neighbours of one month with the same split into rate classes
     * merged into one row whose amount is the sum of theirs (so the stored amounts add up to the quote exactly). A
     * booking over a busy tenant's calendar splits wherever the tenant's usage changes, dozens of times at fleet
     * scale; stored unmerged, those pieces would multiply the rows every later booking of the tenant reads.
     */
    void insert(
            UUID reservationId, UUID tenantId, @Nullable String project, UUID gpuTypeId, List<PricedSegment> priced) {
        if (priced.isEmpty()) {
            return;
        }
        RateCard card = priced.getFirst().card();
        List<Merged> segments = merged(priced);
        jdbc.sql("""
				INSERT INTO quota_usage (reservation_id, tenant_id, project, gpu_type_id, during, reserved_gpus,
				    borrowed_gpus, on_demand_gpus, currency, price_reserved, price_borrowed, price_on_demand, amount)
				SELECT :reservation, :tenant, :project, :gpuType, tstzrange(s, e, '[)'), r, b, o, :currency, :reserved, :borrowed,
				    :onDemand, a
				FROM unnest(CAST(CAST(:starts AS text[]) AS timestamptz[]), CAST(CAST(:ends AS text[]) AS timestamptz[]),
				            CAST(:reservedGpus AS int[]), CAST(:borrowedGpus AS int[]), CAST(:onDemandGpus AS int[]),
				            CAST(CAST(:amounts AS text[]) AS numeric[])) WITH ORDINALITY AS x(s, e, r, b, o, a, i)
				ORDER BY i""")
                .param("reservation", reservationId)
                .param("tenant", tenantId)
                .param("project", project)
                .param("gpuType", gpuTypeId)
                .param("currency", card.currency())
                .param("reserved", card.price(RateClass.RESERVED))
                .param("borrowed", card.price(RateClass.BORROWED))
                .param("onDemand", card.price(RateClass.ON_DEMAND))
                .param(
                        "starts",
                        segments.stream()
                                .map(m -> m.segment().during().start().toString())
                                .toArray(String[]::new))
                .param(
                        "ends",
                        segments.stream()
                                .map(m -> m.segment().during().end().toString())
                                .toArray(String[]::new))
                .param(
                        "reservedGpus",
                        segments.stream().map(m -> m.segment().reserved()).toArray(Integer[]::new))
                .param(
                        "borrowedGpus",
                        segments.stream().map(m -> m.segment().borrowed()).toArray(Integer[]::new))
                .param(
                        "onDemandGpus",
                        segments.stream().map(m -> m.segment().onDemand()).toArray(Integer[]::new))
                .param(
                        "amounts",
                        segments.stream().map(m -> m.amount().toPlainString()).toArray(String[]::new))
                .update();
    }

    private record Merged(Segment segment, BigDecimal amount) {}

    private static List<Merged> merged(List<PricedSegment> priced) {
        List<Merged> merged = new ArrayList<>();
        for (PricedSegment p : priced) {
            Segment s = p.segment();
            Merged last = merged.isEmpty() ? null : merged.getLast();
            if (last != null
                    && last.segment().during().end().equals(s.during().start())
                    && last.segment().reserved() == s.reserved()
                    && last.segment().borrowed() == s.borrowed()
                    && last.segment().onDemand() == s.onDemand()
                    && month(last.segment()).equals(month(s))) {
                merged.set(
                        merged.size() - 1,
                        new Merged(
                                new Segment(
                                        new TimeWindow(
                                                last.segment().during().start(),
                                                s.during().end()),
                                        s.reserved(),
                                        s.borrowed(),
                                        s.onDemand()),
                                last.amount().add(p.total())));
            } else {
                merged.add(new Merged(s, p.total()));
            }
        }
        return merged;
    }

    private static YearMonth month(Segment s) {
        return YearMonth.from(s.during().start().atOffset(ZoneOffset.UTC));
    }

    /** The stored segment of the reservation containing the instant (to be cut there), if any. */
    Optional<Stored> segmentAt(UUID reservationId, Instant at) {
        return jdbc.sql("""
				SELECT u.*, lower(u.during) AS s, upper(u.during) AS e, g.code
				FROM quota_usage u JOIN gpu_type g ON g.id = u.gpu_type_id WHERE reservation_id = ? AND lower(during) < ? AND upper(during) > ?""")
                .params(reservationId, ts(at), ts(at))
                .query((rs, n) -> new Stored(rs.getLong("id"), segment(rs)))
                .optional();
    }

    List<BookedSegment> segmentsOf(UUID reservationId) {
        return jdbc.sql("""
				SELECT lower(during) AS s, upper(during) AS e, reserved_gpus, borrowed_gpus, on_demand_gpus, currency, amount
				FROM quota_usage WHERE reservation_id = ? ORDER BY lower(during)""")
                .param(reservationId)
                .query((rs, n) -> new BookedSegment(
                        new TimeWindow(
                                rs.getTimestamp("s").toInstant(),
                                rs.getTimestamp("e").toInstant()),
                        rs.getInt("reserved_gpus"),
                        rs.getInt("borrowed_gpus"),
                        rs.getInt("on_demand_gpus"),
                        rs.getString("currency"),
                        rs.getBigDecimal("amount")))
                .list();
    }

    record Stored(long id, PricedSegment segment) {}

    void deleteFrom(UUID reservationId, Instant from) {
        jdbc.sql("DELETE FROM quota_usage WHERE reservation_id = ? AND lower(during) >= ?")
                .params(reservationId, ts(from))
                .update();
    }

    void shorten(long id, PricedSegment segment) {
        jdbc.sql("UPDATE quota_usage SET during = " + RANGE + ", amount = ? WHERE id = ?")
                .params(
                        ts(segment.segment().during().start()),
                        ts(segment.segment().during().end()),
                        segment.total(),
                        id)
                .update();
    }

    private static Timestamp ts(Instant instant) {
        return Timestamp.from(instant);
    }

    private static PricedSegment segment(ResultSet rs) throws SQLException {
        TimeWindow during = new TimeWindow(
                rs.getTimestamp("s").toInstant(), rs.getTimestamp("e").toInstant());
        Segment segment = new Segment(
                during, rs.getInt("reserved_gpus"), rs.getInt("borrowed_gpus"), rs.getInt("on_demand_gpus"));
        // Only the prices matter for repricing; the card's date is not kept with the usage.
        RateCard card = new RateCard(
                rs.getString("code"),
                LocalDate.EPOCH,
                rs.getString("currency"),
                Map.of(
                        RateClass.RESERVED,
                        rs.getBigDecimal("price_reserved"),
                        RateClass.BORROWED,
                        rs.getBigDecimal("price_borrowed"),
                        RateClass.ON_DEMAND,
                        rs.getBigDecimal("price_on_demand")));
        return new PricedSegment(segment, card);
    }

    /** Gives back a reservation's usage from {@code from} on: cuts the segment there and deletes those after. */
    void releaseFrom(UUID reservationId, Instant from) {
        segmentAt(reservationId, from)
                .ifPresent(stored -> shorten(stored.id(), stored.segment().endingAt(from)));
        deleteFrom(reservationId, from);
    }
}
