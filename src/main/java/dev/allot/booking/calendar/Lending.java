package dev.allot.booking.calendar;

import dev.allot.inventory.GpuType;
import dev.allot.inventory.Inventory;
import dev.allot.quota.QuotaDecision;
import dev.allot.quota.Quotas;
import dev.allot.shared.AllotException;
import dev.allot.shared.TimeWindow;
import dev.allot.shared.UtcText;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Lending limits: a tenant whose {@code lendableGpus} is less than its guarantee holds the rest back, and no other
 * tenant's borrowed or on-demand GPUs may take it. A booking (or an extension) with such a part is refused when,
 * in some hour, the GPU type's free GPUs after it would be fewer than what the other tenants hold back then. A
 * booking all within its own guarantee is never refused here: guarantees are capacity, and its room is its own.
 */
@Component
public class Lending {

    private final Quotas quotas;

    private final Inventory inventory;

    private final JdbcClient jdbc;

    Lending(Quotas quotas, Inventory inventory, JdbcClient jdbc) {
        this.quotas = quotas;
        this.inventory = inventory;
        this.jdbc = jdbc;
    }

    /** Inside the booking's transaction, after the quota decision and before any node is taken. */
    public void requireRoomBeyondHeld(
            UUID tenantId, GpuType type, TimeWindow window, int gpus, QuotaDecision decision) {
        Optional<AllotException> refused = heldBack(tenantId, type, window, gpus, decision);
        if (refused.isPresent()) {
            throw refused.get();
        }
    }

    /**
     * The guarantee headroom, inside the booking's transaction after the quota decision: a booking that is not
     * preemptible and goes beyond its tenant's guarantee (an {@code ON_DEMAND} part) is refused with
     * {@code 409 guarantee_headroom} when, in some hour of its window, what other tenants' guarantees do not use then
     * would no longer fit in the GPU type's free GPUs after it plus the GPUs preemptible reservations hold. Guaranteed
     * GPUs are there when their owner books them: on-demand capacity may not take them, preemptible capacity may.
     */
    public void requireGuaranteeHeadroom(
            UUID tenantId, GpuType type, TimeWindow window, int gpus, QuotaDecision decision, boolean preemptible) {
        Optional<AllotException> refused = guaranteeHeadroom(tenantId, type, window, gpus, decision, preemptible);
        if (refused.isPresent()) {
            throw refused.get();
        }
    }

    /** The {@code 409 guarantee_headroom} refusal of such a booking, or empty (for quotes, which say so). */
    public Optional<AllotException> guaranteeHeadroom(
            UUID tenantId, GpuType type, TimeWindow window, int gpus, QuotaDecision decision, boolean preemptible) {
        if (decision.reservedOnly() || preemptible || decision.preemptible()) {
            return Optional.empty();
        }
        Map<Instant, Integer> unused = quotas.unusedGuaranteesOfOthers(tenantId, type, window);
        if (unused.isEmpty()) {
            return Optional.empty();
        }
        int capacity = inventory.healthyGpus(type);
        Map<Instant, Integer> allocated = allocatedPerHour(type, window);
        Map<Instant, Integer> reclaimable = reclaimablePerHour(type, window);
        List<String> hours = new ArrayList<>();
        Instant first = null;
        int firstFree = 0;
        int firstNeeded = 0;
        for (Map.Entry<Instant, Integer> hour : unused.entrySet()) {
            int free = capacity - allocated.getOrDefault(hour.getKey(), 0) - gpus;
            int coverable = Math.max(0, free) + reclaimable.getOrDefault(hour.getKey(), 0);
            if (coverable < hour.getValue()) {
                if (first == null) {
                    first = hour.getKey();
                    firstFree = Math.max(0, free + gpus);
                    firstNeeded = hour.getValue();
                }
                hours.add(hour.getKey().toString());
            }
        }
        if (first == null) {
            return Optional.empty();
        }
        return Optional.of(headroomRefusal(type, decision, first, firstFree, firstNeeded, hours));
    }

    /**
     * What reclaiming can give the guarantees in each hour of the window: a team's preemptible GPUs beyond its own
     * guarantee. Those within it do not count: reclaiming them leaves that team's guarantee unused in turn. (Counting
     * them let an on-demand booking take what a guarantee needed, which showed once the preemptible reservation was
     * cancelled: GuaranteeHeadroomProperties.)
     */
    private Map<Instant, Integer> reclaimablePerHour(GpuType type, TimeWindow window) {
        Map<UUID, Integer> guarantees = quotas.guarantees(type);
        Map<Instant, Integer> reclaimable = new HashMap<>();
        jdbc.sql("""
				SELECT h.hour, r.tenant_id, sum(r.gpus), coalesce(sum(r.gpus) FILTER (WHERE r.preemptible), 0)
				FROM generate_series(CAST(? AS timestamptz), CAST(? AS timestamptz), interval '1 hour') AS h(hour)
				JOIN pool p ON p.gpu_type_id = ?
				JOIN reservation r ON r.pool_id = p.id AND r.cancelled_at IS NULL AND r.lifecycle_status IS NULL
				    AND r.starts_at <= h.hour AND r.ends_at >= h.hour + interval '1 hour'
				GROUP BY h.hour, r.tenant_id
				HAVING bool_or(r.preemptible)""")
                .params(
                        Timestamp.from(window.start().truncatedTo(ChronoUnit.HOURS)),
                        Timestamp.from(window.end().minusNanos(1).truncatedTo(ChronoUnit.HOURS)),
                        type.id())
                .query((rs, n) -> reclaimable.merge(
                        rs.getTimestamp(1).toInstant(),
                        Math.min(
                                rs.getInt(4),
                                Math.max(0, rs.getInt(3) - guarantees.getOrDefault(rs.getObject(2, UUID.class), 0))),
                        Integer::sum))
                .list();
        return reclaimable;
    }

    /** The {@code 409 guarantee_headroom} refusal, naming the first hour short and every hour that is. */
    private static AllotException headroomRefusal(
            GpuType type, QuotaDecision decision, Instant first, int firstFree, int firstNeeded, List<String> hours) {
        return AllotException.conflict(
                        "guarantee_headroom",
                        "From " + UtcText.of(first) + ", other teams' "
                                + firstNeeded + " guaranteed " + type.code()
                                + " GPUs they do not use then must stay available to "
                                + "them, and " + firstFree
                                + " are free: this booking beyond your guarantee is not preemptible, so it "
                                + "cannot take them. Book it with \"preemptible\": true (same price, "
                                + decision.total() + " "
                                + decision.currency()
                                + "; it may then be reclaimed with notice), fewer GPUs, or another window")
                .with("at", first.toString())
                .with("hours", hours)
                .with("freeGpus", firstFree)
                .with("unusedGuaranteedGpus", firstNeeded)
                .with("preemptiblePrice", decision.total())
                .with("currency", decision.currency());
    }

    private Map<Instant, Integer> allocatedPerHour(GpuType type, TimeWindow window) {
        Map<Instant, Integer> allocated = new HashMap<>();
        jdbc.sql("""
				SELECT ph.hour, sum(ph.allocated_nodes * p.gpus_per_node) FROM pool_hour ph JOIN pool p ON p.id = ph.pool_id
				WHERE p.gpu_type_id = ? AND ph.hour >= ? AND ph.hour < ? GROUP BY ph.hour""")
                .params(
                        type.id(),
                        Timestamp.from(window.start().truncatedTo(ChronoUnit.HOURS)),
                        Timestamp.from(window.end()))
                .query((rs, n) -> allocated.put(rs.getTimestamp(1).toInstant(), rs.getInt(2)))
                .list();
        return allocated;
    }

    /**
     * The refusal ({@code 409 capacity_not_available}, naming the hour and how much is held) of a booking that would
     * borrow what other tenants hold back in some hour of its window; empty when it would not (for quotes and
     * earliest-fit, which say so rather than fail).
     */
    public Optional<AllotException> heldBack(
            UUID tenantId, GpuType type, TimeWindow window, int gpus, QuotaDecision decision) {
        if (decision.reservedOnly()) {
            return Optional.empty();
        }
        Map<Instant, Integer> held = quotas.heldBackFromBorrowers(tenantId, type, window);
        if (held.isEmpty()) {
            return Optional.empty();
        }
        int capacity = inventory.healthyGpus(type);
        Map<Instant, Integer> allocated = allocatedPerHour(type, window);
        for (Map.Entry<Instant, Integer> hour : held.entrySet()) {
            int free = capacity - allocated.getOrDefault(hour.getKey(), 0);
            if (free - gpus < hour.getValue()) {
                return Optional.of(AllotException.conflict(
                                "capacity_not_available",
                                "From "
                                        + UtcText.of(hour.getKey()) + ", " + Math.max(0, free) + " " + type.code()
                                        + " GPUs are free and "
                                        + hour.getValue()
                                        + " of them are held for other teams' guarantees, which they do not lend: a "
                                        + "booking beyond your own guarantee can take at most "
                                        + Math.max(0, free - hour.getValue())
                                        + " then")
                        .with("at", hour.getKey().toString())
                        .with("freeGpus", Math.max(0, free))
                        .with("heldGpus", hour.getValue()));
            }
        }
        return Optional.empty();
    }
}
