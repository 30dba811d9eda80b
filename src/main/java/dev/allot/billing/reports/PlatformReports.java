package dev.allot.billing.reports;

import dev.allot.billing.ledger.LedgerRepository;
import dev.allot.billing.metering.NodeOutages;
import dev.allot.billing.metering.Outage;
import dev.allot.inventory.Inventory;
import dev.allot.inventory.Node;
import dev.allot.inventory.NodeState;
import dev.allot.inventory.Pool;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.PageQuery;
import dev.allot.shared.PageResponse;
import dev.allot.shared.security.Caller;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The platform report. Healthy GPU-hours count each node from when it was added (until retired) less its
 * times out of service; allocated GPU-hours count every reservation's billable life (failed ones excluded).
 */
@Service
@Transactional(readOnly = true)
public class PlatformReports {

    private static final int MAX_BUCKETS = 1000;

    private record Held(int gpus, Instant from, Instant to) {}

    private final JdbcClient jdbc;

    private final Inventory inventory;

    private final NodeOutages outages;

    private final Clock clock;

    PlatformReports(JdbcClient jdbc, Inventory inventory, NodeOutages outages, Clock clock) {
        this.jdbc = jdbc;
        this.inventory = inventory;
        this.outages = outages;
        this.clock = clock;
    }

    public PlatformReport report(
            Caller caller,
            @Nullable String from,
            @Nullable String to,
            @Nullable String step,
            @Nullable String poolName) {
        caller.requireReadsEverything();
        Instant now = clock.instant();
        ReportRange range = ReportRange.parse(from, to, now.minus(Duration.ofDays(7)), now);
        String unit = step == null || step.isBlank() ? "day" : step;
        List<Instant> starts = buckets(range, unit);
        List<PlatformReport.PoolUtilisation> pools = new ArrayList<>();
        List<Pool> chosen = poolName == null || poolName.isBlank()
                ? all(page -> inventory.pools(page))
                : List.of(inventory.pool(poolName).orElseThrow(() -> InvalidInputException.of("pool", "no such pool")));
        for (Pool pool : chosen) {
            pools.add(utilisation(caller, pool, starts, range.to()));
        }
        return new PlatformReport(range.from(), range.to(), unit, pools, topTenants(range), burst(range), idle(range));
    }

    private PlatformReport.PoolUtilisation utilisation(Caller caller, Pool pool, List<Instant> starts, Instant end) {
        List<Node> nodes = all(page -> inventory.nodes(caller, pool.name(), page));
        List<Outage> down = nodes.isEmpty()
                ? List.of()
                : outages.of(nodes.stream().map(Node::hostname).toList(), starts.getFirst(), end);
        List<Held> held = jdbc.sql("""
				SELECT gpus, greatest(starts_at, coalesce(ready_at, starts_at)) AS s, least(ends_at, coalesce(stopped_at, ends_at)) AS e
				FROM billable_reservation WHERE pool = ? AND failed_at IS NULL
				  AND starts_at < ? AND least(ends_at, coalesce(stopped_at, ends_at)) > ?""")
                .params(pool.name(), Timestamp.from(end), Timestamp.from(starts.getFirst()))
                .query((rs, n) -> new Held(
                        rs.getInt("gpus"),
                        rs.getTimestamp("s").toInstant(),
                        rs.getTimestamp("e").toInstant()))
                .list();
        List<PlatformReport.PlatformBucket> buckets = new ArrayList<>();
        for (int i = 0; i < starts.size(); i++) {
            Instant from = starts.get(i);
            Instant to = i + 1 < starts.size() ? starts.get(i + 1) : end;
            long healthy = 0;
            for (Node node : nodes) {
                Instant retired = node.state() == NodeState.RETIRED ? node.stateChangedAt() : to;
                long alive = overlap(from, to, node.createdAt(), retired);
                long out = down.stream()
                        .filter(o -> o.hostname().equals(node.hostname()))
                        .mapToLong(o -> overlap(from, to, later(o.from(), node.createdAt()), o.endOr(retired)))
                        .sum();
                healthy += (alive - out) * pool.gpusPerNode();
            }
            long allocated = held.stream()
                    .mapToLong(h -> h.gpus() * overlap(from, to, h.from(), h.to()))
                    .sum();
            BigDecimal healthyHours = LedgerRepository.gpuHours(healthy);
            buckets.add(new PlatformReport.PlatformBucket(
                    from,
                    healthyHours,
                    LedgerRepository.gpuHours(allocated),
                    healthy == 0
                            ? BigDecimal.ZERO
                            : BigDecimal.valueOf(allocated)
                                    .divide(BigDecimal.valueOf(healthy), 4, RoundingMode.HALF_EVEN)));
        }
        return new PlatformReport.PoolUtilisation(pool.name(), buckets);
    }

    private List<PlatformReport.TenantUsage> topTenants(ReportRange range) {
        return jdbc.sql("""
				SELECT t.slug, e.currency, sum(e.gpu_seconds) FILTER (WHERE e.line = 'USAGE') AS used, sum(e.amount) AS net
				FROM ledger_entry e JOIN ledger_account a ON a.id = e.account_id JOIN tenant t ON t.id = a.tenant_id
				WHERE a.kind = 'RECEIVABLE' AND e.line IN ('USAGE', 'CREDIT') AND e.period_start >= ? AND e.period_start < ?
				GROUP BY t.slug, e.currency ORDER BY used DESC NULLS LAST, t.slug LIMIT 10""")
                .params(Timestamp.from(range.from()), Timestamp.from(range.to()))
                .query((rs, n) -> new PlatformReport.TenantUsage(
                        rs.getString("slug"),
                        LedgerRepository.gpuHours(rs.getLong("used")),
                        rs.getBigDecimal("net"),
                        rs.getString("currency")))
                .list();
    }

    private PlatformReport.BurstShare burst(ReportRange range) {
        return jdbc.sql("""
				SELECT coalesce(sum(e.gpu_seconds) FILTER (WHERE e.rate_class = 'ON_DEMAND'), 0) AS on_demand,
				       coalesce(sum(e.gpu_seconds), 0) AS total
				FROM ledger_entry e JOIN ledger_account a ON a.id = e.account_id
				WHERE a.kind = 'RECEIVABLE' AND e.line = 'USAGE' AND e.period_start >= ? AND e.period_start < ?""")
                .params(Timestamp.from(range.from()), Timestamp.from(range.to()))
                .query((rs, n) -> {
                    long onDemand = rs.getLong("on_demand");
                    long total = rs.getLong("total");
                    return new PlatformReport.BurstShare(
                            LedgerRepository.gpuHours(onDemand),
                            LedgerRepository.gpuHours(total),
                            total == 0
                                    ? BigDecimal.ZERO
                                    : BigDecimal.valueOf(onDemand)
                                            .divide(BigDecimal.valueOf(total), 4, RoundingMode.HALF_EVEN));
                })
                .single();
    }

    private List<PlatformReport.IdleReservation> idle(ReportRange range) {
        return jdbc.sql("""
				SELECT f.reservation_id, r.tenant_slug, r.pool, f.idle_since, f.flagged_at, f.max_utilisation
				FROM idle_flag f JOIN billable_reservation r ON r.reservation_id = f.reservation_id
				WHERE f.flagged_at >= ? AND f.flagged_at < ? ORDER BY f.flagged_at DESC LIMIT 100""")
                .params(Timestamp.from(range.from()), Timestamp.from(range.to()))
                .query((rs, n) -> new PlatformReport.IdleReservation(
                        rs.getObject(1, UUID.class),
                        rs.getString(2),
                        rs.getString(3),
                        rs.getTimestamp(4).toInstant(),
                        rs.getTimestamp(5).toInstant(),
                        rs.getBigDecimal(6)))
                .list();
    }

    private static List<Instant> buckets(ReportRange range, String unit) {
        List<Instant> starts = new ArrayList<>();
        for (Instant start = range.from(); start.isBefore(range.to()); start = next(start, unit)) {
            starts.add(start);
            if (starts.size() > MAX_BUCKETS) {
                throw InvalidInputException.of(
                        "step", "gives more than " + MAX_BUCKETS + " buckets; choose a longer step");
            }
        }
        return starts;
    }

    private static Instant next(Instant start, String unit) {
        return switch (unit) {
            case "hour" -> start.plus(Duration.ofHours(1));
            case "day" -> start.plus(Duration.ofDays(1));
            case "week" -> start.plus(Duration.ofDays(7));
            case "month" -> start.atOffset(ZoneOffset.UTC).plusMonths(1).toInstant();
            default -> throw InvalidInputException.of("step", "must be one of hour, day, week, month");
        };
    }

    private interface Pages<T> {

        PageResponse<T> get(PageQuery page);
    }

    private static <T> List<T> all(Pages<T> pages) {
        List<T> all = new ArrayList<>();
        for (int page = 0; ; page++) {
            PageResponse<T> response = pages.get(new PageQuery(page, PageQuery.MAX_SIZE));
            all.addAll(response.items());
            if (response.items().size() < PageQuery.MAX_SIZE) {
                return all;
            }
        }
    }

    private static long overlap(Instant from, Instant to, Instant start, Instant end) {
        Instant s = later(from, start);
        Instant e = end.isBefore(to) ? end : to;
        return e.isAfter(s) ? Duration.between(s, e).toSeconds() : 0;
    }

    private static Instant later(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
