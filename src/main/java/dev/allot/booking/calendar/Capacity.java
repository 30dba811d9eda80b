package dev.allot.booking.calendar;

import dev.allot.booking.allocation.EarliestFit;
import dev.allot.booking.allocation.FreeCapacityRepository;
import dev.allot.booking.allocation.Hours;
import dev.allot.booking.spec.ClusterSpec;
import dev.allot.booking.spec.OrchestratorCheck;
import dev.allot.inventory.Inventory;
import dev.allot.inventory.Pool;
import dev.allot.quota.QuotaDecision;
import dev.allot.quota.QuotaExceededException;
import dev.allot.quota.Quotas;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.TimeWindow;
import dev.allot.shared.security.Caller;
import dev.allot.tenancy.Tenancy;
import dev.allot.tenancy.Tenant;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** The capacity calendar and earliest-fit search; counts only, never who holds what. */
@Service
public class Capacity {

    public static final int MAX_BUCKETS = 10_000;

    /** How far ahead the calendar is read to skip starts it rules out before the exact earliest-fit sweep. */
    private static final Duration EARLIEST_CALENDAR_SPAN = Duration.ofDays(100);

    public record Bucket(Instant start, int totalGpus, int availableGpus, int allocatedGpus, int unhealthyGpus) {}

    public record Calendar(String pool, Duration step, List<Bucket> buckets) {}

    /** A window where the request fits, priced for the tenant when one is known. */
    public record Fit(
            Instant startsAt, Instant endsAt, @Nullable QuotaDecision quote) {}

    private final CapacityCalendarRepository calendar;

    private final LiveCalendar live;

    private final FreeCapacityRepository freeCapacity;

    private final Inventory inventory;

    private final Quotas quotas;

    private final Tenancy tenancy;

    private final JdbcClient jdbc;

    private final Clock clock;

    private final OrchestratorCheck orchestrators;

    private final Lending lending;

    Capacity(
            CapacityCalendarRepository calendar,
            LiveCalendar live,
            FreeCapacityRepository freeCapacity,
            Inventory inventory,
            Quotas quotas,
            Tenancy tenancy,
            JdbcClient jdbc,
            Clock clock,
            OrchestratorCheck orchestrators,
            Lending lending) {
        this.orchestrators = orchestrators;
        this.lending = lending;
        this.calendar = calendar;
        this.live = live;
        this.freeCapacity = freeCapacity;
        this.inventory = inventory;
        this.quotas = quotas;
        this.tenancy = tenancy;
        this.jdbc = jdbc;
        this.clock = clock;
    }

    @Transactional(readOnly = true)
    public Calendar calendar(
            Caller caller, String poolName, @Nullable Instant from, @Nullable Instant to, Duration step) {
        Pool pool = pool(caller, poolName);
        if (step.isNegative() || step.isZero() || step.toSeconds() % 3600 != 0) {
            throw InvalidInputException.of("step", "must be a whole number of hours, such as PT1H");
        }
        Instant start = (from != null ? from : clock.instant()).truncatedTo(ChronoUnit.HOURS);
        Instant end = to != null ? to : start.plus(Duration.ofDays(7));
        if (!end.isAfter(start)) {
            throw InvalidInputException.of("to", "must be after from");
        }
        long buckets = (Duration.between(start, end).toSeconds() + step.toSeconds() - 1) / step.toSeconds();
        if (buckets > MAX_BUCKETS) {
            throw InvalidInputException.of("to", "asks for more than " + MAX_BUCKETS + " buckets");
        }
        Instant stop = start.plus(step.multipliedBy(buckets));
        Map<Instant, Integer> allocated = step.equals(Hours.HOUR)
                ? hourly(pool, start, stop)
                : step.equals(Hours.DAY) && start.equals(start.truncatedTo(ChronoUnit.DAYS))
                        ? daily(pool, start, stop)
                        : calendar.binned(pool.id(), start, stop, step);
        Inventory.PoolSize size = inventory.size(pool);
        int perNode = pool.gpusPerNode();
        List<Bucket> result = new ArrayList<>();
        for (Instant bucket = start; bucket.isBefore(stop); bucket = bucket.plus(step)) {
            int allocatedGpus = allocated.getOrDefault(bucket, 0) * perNode;
            // hot spares are held out of bookable capacity: the pool is shown without them
            int total = size.withoutSpares() * perNode;
            int unhealthy = size.unhealthyNodes() * perNode;
            result.add(new Bucket(
                    bucket, total, Math.max(0, total - allocatedGpus - unhealthy), allocatedGpus, unhealthy));
        }
        return new Calendar(pool.name(), step, result);
    }

    /**
     * The first windows (up to 5) from {@code after} on where the pool has the nodes free and, when a tenant is
     * named (or the caller belongs to exactly one), the tenant's quota allows the booking, each with its quote.
     * The search ends at the tenant's {@code maxAdvance}: other tenants' bookings beyond it never make it fail.
     */
    @Transactional(readOnly = true)
    public List<Fit> earliest(
            Caller caller,
            String poolName,
            int gpus,
            Duration duration,
            @Nullable Instant after,
            @Nullable String tenantSlug) {
        return earliest(caller, poolName, gpus, duration, after, tenantSlug, 50, Instant.MAX);
    }

    /**
     * As {@link #earliest(Caller, String, int, Duration, Instant, String)} for a cluster of {@code orchestrator}: a
     * pool whose driver does not build it is refused ({@code 400} naming the pools that do), as a booking would be.
     */
    @Transactional(readOnly = true)
    public List<Fit> earliest(
            Caller caller,
            String poolName,
            int gpus,
            Duration duration,
            @Nullable Instant after,
            @Nullable String tenantSlug,
            ClusterSpec.Orchestrator orchestrator) {
        orchestrators.refusal(pool(caller, poolName), orchestrator).ifPresent(refusal -> {
            throw InvalidInputException.of("orchestrator", refusal.message());
        });
        return earliest(caller, poolName, gpus, duration, after, tenantSlug, 50, Instant.MAX);
    }

    /**
     * As {@link #earliest(Caller, String, int, Duration, Instant, String)}, looking at no more than {@code candidates}
     * starts where the nodes are free (some may be over the tenant's quota), all before {@code until}.
     */
    @Transactional(readOnly = true)
    public List<Fit> earliest(
            Caller caller,
            String poolName,
            int gpus,
            Duration duration,
            @Nullable Instant after,
            @Nullable String tenantSlug,
            int candidates,
            Instant until) {
        Pool pool = pool(caller, poolName);
        requireSearchable(pool, gpus, duration);
        Instant soonest = clock.instant().plus(BOOKING_LEAD);
        Instant from = nextMinute(after != null && after.isAfter(soonest) ? after : soonest);
        Tenant tenant = tenant(caller, tenantSlug);
        if (tenant != null && !pool.openTo(tenant.slug())) {
            throw InvalidInputException.of("pool", "no such pool open to " + tenant.slug());
        }
        List<Fit> fits = new ArrayList<>();
        int nodes = gpus / pool.gpusPerNode();
        Instant sweepFrom = firstNotRuledOut(pool, nodes, duration, from);
        Iterator<Instant> starts = freeCapacity.earliestStarts(pool.id(), nodes, duration, sweepFrom, until);
        for (int looked = 0; looked < candidates && starts.hasNext(); looked++) {
            Instant start = starts.next();
            TimeWindow window = new TimeWindow(start, start.plus(duration));
            if (tenant == null) {
                fits.add(new Fit(window.start(), window.end(), null));
            } else if (!addWithinQuota(tenant, pool, window, gpus, fits)) {
                return fits;
            }
            if (fits.size() == 5) {
                break;
            }
        }
        return fits;
    }

    /** A search for whole nodes of the pool, for a positive whole number of minutes. */
    private static void requireSearchable(Pool pool, int gpus, Duration duration) {
        if (gpus <= 0 || gpus % pool.gpusPerNode() != 0) {
            throw InvalidInputException.of(
                    "gpus", "must be a positive multiple of the pool's " + pool.gpusPerNode() + " GPUs per node");
        }
        if (duration.isNegative() || duration.isZero() || duration.toSeconds() % 60 != 0) {
            throw InvalidInputException.of("duration", "must be a positive whole number of minutes");
        }
    }

    /**
     * Adds the window to {@code fits} when the tenant's quota allows it there, and other tenants lend enough for what
     * it would borrow; false when no later start can be within the tenant's reach.
     */
    private boolean addWithinQuota(Tenant tenant, Pool pool, TimeWindow window, int gpus, List<Fit> fits) {
        try {
            QuotaDecision decision = quotas.evaluate(tenant.id(), pool.gpuType(), window, gpus);
            // and where other tenants lend enough for what it would borrow
            if (lending.heldBack(tenant.id(), pool.gpuType(), window, gpus, decision)
                    .isEmpty()) {
                fits.add(new Fit(window.start(), window.end(), decision));
            }
        } catch (QuotaExceededException refused) {
            switch (refused.limit()) {
                // later candidates start later still: the windows within the tenant's reach are all found
                case "maxAdvance" -> {
                    return false;
                }
                // another start may be under the cap, or in another month or budget period
                case "maxGpus", "monthlyBudget", "projectBudget" -> {}
                // no start can help (a window longer than allowed, no policy for the GPU type)
                default -> throw refused;
            }
        }
        return true;
    }

    /** Recomputes a pool's calendar from its live allocations, holding every node of the pool meanwhile. */
    @Transactional
    public void rebuild(Caller caller, String poolName) {
        caller.requirePlatformAdmin();
        Pool pool = pool(caller, poolName);
        jdbc.sql("SELECT id FROM node WHERE pool_id = ? ORDER BY id FOR NO KEY UPDATE")
                .param(pool.id())
                .query(Long.class)
                .list();
        calendar.rebuild(pool.id());
    }

    private @Nullable Tenant tenant(Caller caller, @Nullable String slug) {
        if (slug != null) {
            return tenancy.readableInProjects(caller, slug);
        }
        if (caller.tenantsSeen().size() == 1) {
            return tenancy.readableInProjects(
                    caller, caller.tenantsSeen().iterator().next());
        }
        return null;
    }

    /** See {@link EarliestFit#firstNotRuledOut}: the calendar's hours skip starts that cannot fit. */
    private Instant firstNotRuledOut(Pool pool, int nodes, Duration duration, Instant from) {
        return EarliestFit.firstNotRuledOut(
                (hour, until) -> new TreeMap<>(hourly(pool, hour, until)),
                Duration.ofDays(7),
                from.plus(EARLIEST_CALENDAR_SPAN),
                inventory.size(pool).nodes(),
                nodes,
                duration,
                from);
    }

    /** From this replica's live copy, or from the database while it has none (starting, or resyncing). */
    private Map<Instant, Integer> hourly(Pool pool, Instant from, Instant to) {
        Map<Instant, Integer> live = this.live.hourly(pool.id(), from, to);
        return live != null ? live : calendar.hourly(pool.id(), from, to);
    }

    private Map<Instant, Integer> daily(Pool pool, Instant from, Instant to) {
        Map<Instant, Integer> live = this.live.daily(pool.id(), from, to);
        return live != null ? live : calendar.daily(pool.id(), from, to);
    }

    /** The pool, if the caller may see it: one dedicated to other tenants is no such pool, as one that is not. */
    private Pool pool(Caller caller, String name) {
        return inventory.pool(caller, name).orElseThrow(() -> InvalidInputException.of("pool", "no such pool"));
    }

    /**
     * How far ahead the earliest start offered lies at least: a client that books the window it is offered, at once,
     * still finds it in the future. Offered the next whole minute, one that asked in a minute's last second reached
     * the server after it had begun ({@code 400 startsAt: must be in the future}).
     */
    static final Duration BOOKING_LEAD = Duration.ofSeconds(30);

    private static Instant nextMinute(Instant instant) {
        Instant minute = instant.truncatedTo(ChronoUnit.MINUTES);
        return minute.equals(instant) ? minute : minute.plus(Duration.ofMinutes(1));
    }
}
