package dev.allot.bench;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.regex.Pattern;

/**
 * The sharing scenario (issue 12), on a pool of its own ({@link SharedPool}). First the borrowers book every node of
 * it over the next two days through the API (the fill). Then, measured: guaranteed tenants book within their
 * guarantees into the full pool, so that each of their bookings has to reclaim borrowed nodes, while borrowers keep
 * booking what is freed; half of the clients each, as many clients as the plain phase it is compared with. Answers
 * bookings and preemptions a second, the guaranteed bookings refused although within their guarantee, and what SQL
 * finds afterwards: no node held twice, nothing preempted but preemptible reservations.
 */
final class Sharing {

    /** From the next whole hour plus this: past the preemption notice, so a victim lets go of its nodes at once. */
    private static final Duration LEAD = Duration.ofHours(2);

    private static final Duration HORIZON = Duration.ofHours(48);

    /** The fill books the pool in slots of this length, every node of a slot by one to four-node bookings. */
    private static final Duration SLOT = Duration.ofHours(12);

    private static final Pattern RECLAIM_CONSIDERED = Pattern.compile("\"reclaimConsidered\"\\s*:\\s*true");

    /**
     * What the scenario measured. {@code guaranteedRefusedAfterReclaiming}: guaranteed bookings answered 409 with
     * {@code reclaimConsidered} (wholly within the guarantee, since the guaranteed tenants' {@code maxGpus} is their
     * guarantee, yet no room was made): broken guarantees.
     */
    record Result(
            String pool,
            int nodes,
            int guaranteedTenants,
            int guaranteeGpus,
            int borrowerTenants,
            Instant from,
            Instant to,
            Tally.Figures fill,
            double fillOccupancy,
            Tally.Figures all,
            Tally.Figures guaranteed,
            Tally.Figures borrowed,
            long preemptions,
            double preemptionsPerSecond,
            long guaranteedRefusedAfterReclaiming,
            long guaranteedRefusedWithoutReclaiming,
            double plainBookedPerSecond,
            double ratio,
            String loadAtStart,
            String loadAtEnd,
            String cpu,
            Checks.Shared checks) {

        boolean passed() {
            return checks.passed()
                    && fill.server5xx() == 0
                    && fill.errors() == 0
                    && all.server5xx() == 0
                    && all.errors() == 0;
        }
    }

    private record Booking(Fleet.Tenant tenant, int nodes, Instant start, Instant end) {

        String json() {
            return "{\"project\":\"" + Fleet.PROJECT + "\",\"pool\":\"" + SharedPool.POOL + "\",\"gpus\":"
                    + nodes * Settings.GPUS_PER_NODE + ",\"startsAt\":\"" + start + "\",\"endsAt\":\"" + end
                    + "\",\"cluster\":{\"orchestrator\":\"KUBERNETES\"}}";
        }
    }

    private final SharedPool shared;

    private final String base;

    private final List<String> tokens;

    private final Instant from;

    private Sharing(SharedPool shared, String base, List<String> tokens, Instant from) {
        this.shared = shared;
        this.base = base;
        this.tokens = tokens;
        this.from = from;
    }

    /** Runs both phases against the running application; {@code plain}: the plain API phase at the same clients. */
    static Result run(Settings settings, Fleet fleet, App app, Tally.Figures plain) throws Exception {
        SharedPool shared = fleet.shared();
        Http http = new Http(app.baseUrl());
        List<String> tokens = http.tokens(http.serviceAccounts(shared.tenants()));
        Instant from = Instant.now().truncatedTo(ChronoUnit.HOURS).plus(LEAD);
        Sharing sharing = new Sharing(shared, app.baseUrl(), tokens, from);
        int clients = settings.curveClients();
        System.out.printf(
                "%n== sharing: %s, %d nodes, %d guaranteed tenants of %d GPUs each and %d borrowers, "
                        + "booking %s to %s%n",
                SharedPool.POOL,
                shared.nodes(),
                shared.guaranteed().size(),
                shared.guaranteeGpus(),
                shared.borrowers().size(),
                from,
                from.plus(HORIZON));
        Tally.Figures fill = sharing.fill(clients);
        double occupancy;
        try (Connection c = Fleet.connect(settings)) {
            occupancy = sharing.occupancy(c);
        }
        System.out.printf(
                "  %-12s %3d clients %5.1f s: %7.1f booked/s, %d borrowed bookings, 409 %d, 422 %d, 5xx %d, "
                        + "errors %d; the pool is %.1f %% booked over the window%n",
                "fill",
                clients,
                fill.seconds(),
                fill.acceptedPerSecond(),
                fill.accepted(),
                fill.conflicts(),
                fill.quota(),
                fill.server5xx(),
                fill.errors(),
                occupancy * 100);
        long preemptedBefore;
        try (Connection c = Fleet.connect(settings)) {
            preemptedBefore = sharing.preempted(c);
        }
        String loadAtStart = Bench.loadAverage();
        Spent before = Spent.now(app.pid(), settings);
        Reclaim reclaim = sharing.reclaim(clients, settings.seconds());
        String spent = Spent.now(app.pid(), settings)
                .perRequest(before, "sharing", clients, reclaim.all().attempts())
                .toString();
        String loadAtEnd = Bench.loadAverage();
        Checks.Shared checks;
        long preemptions;
        try (Connection c = Fleet.connect(settings)) {
            preemptions = sharing.preempted(c) - preemptedBefore;
            checks = Checks.shared(c, shared);
        }
        Tally.Figures all = reclaim.all();
        double ratio = plain == null || plain.acceptedPerSecond() == 0
                ? 0
                : all.acceptedPerSecond() / plain.acceptedPerSecond();
        Result result = new Result(
                SharedPool.POOL,
                shared.nodes(),
                shared.guaranteed().size(),
                shared.guaranteeGpus(),
                shared.borrowers().size(),
                from,
                from.plus(HORIZON),
                fill,
                occupancy,
                all,
                reclaim.guaranteed(),
                reclaim.borrowed(),
                preemptions,
                preemptions / all.seconds(),
                reclaim.afterReclaiming(),
                reclaim.guaranteed().conflicts() - reclaim.afterReclaiming(),
                plain == null ? 0 : plain.acceptedPerSecond(),
                ratio,
                loadAtStart,
                loadAtEnd,
                spent,
                checks);
        print(result);
        return result;
    }

    /** Borrowers book every node over the window, slot by slot, from a queue the clients share. */
    private Tally.Figures fill(int clients) throws InterruptedException {
        SplittableRandom random = new SplittableRandom(12);
        Queue<Booking> tiles = new ConcurrentLinkedQueue<>();
        int count = 0;
        for (Instant slot = from; slot.isBefore(from.plus(HORIZON)); slot = slot.plus(SLOT)) {
            for (int left = shared.nodes(); left > 0; ) {
                int nodes = Math.min(left, 1 + random.nextInt(4));
                tiles.add(new Booking(
                        shared.borrowers().get(count++ % shared.borrowers().size()), nodes, slot, slot.plus(SLOT)));
                left -= nodes;
            }
        }
        List<Tally> tallies = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        long started = System.nanoTime();
        for (int i = 0; i < clients; i++) {
            Tally tally = new Tally();
            tallies.add(tally);
            threads.add(Thread.ofPlatform().name("sharing-fill-" + i).start(() -> {
                HttpClient http = client();
                for (Booking tile = tiles.poll(); tile != null; tile = tiles.poll()) {
                    book(http, tile, tally);
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        return Tally.merge(tallies).figures("fill", clients, (System.nanoTime() - started) / 1e9);
    }

    private record Reclaim(Tally.Figures all, Tally.Figures guaranteed, Tally.Figures borrowed, long afterReclaiming) {}

    /**
     * The measured phase: the first half of the clients book for guaranteed tenants (one or two nodes for one to six
     * hours), the others for borrowers (one to four nodes for one to twelve hours), anywhere in the window, each
     * request for a tenant of its kind at random.
     */
    private Reclaim reclaim(int clients, int seconds) throws InterruptedException {
        int guaranteedClients = Math.max(1, (clients + 1) / 2);
        List<Tally> guaranteed = new ArrayList<>();
        List<Tally> borrowed = new ArrayList<>();
        long[] afterReclaiming = new long[clients];
        List<Thread> threads = new ArrayList<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        long started = System.nanoTime();
        for (int i = 0; i < clients; i++) {
            int client = i;
            boolean reclaims = i < guaranteedClients;
            Tally tally = new Tally();
            (reclaims ? guaranteed : borrowed).add(tally);
            SplittableRandom random = new SplittableRandom(500 + i);
            threads.add(Thread.ofPlatform().name("sharing-client-" + i).start(() -> {
                HttpClient http = client();
                while (System.nanoTime() < deadline) {
                    Booking booking = reclaims
                            ? next(random, shared.guaranteed(), 2, 6)
                            : next(random, shared.borrowers(), 4, 12);
                    String refusal = book(http, booking, tally);
                    if (reclaims
                            && refusal != null
                            && RECLAIM_CONSIDERED.matcher(refusal).find()) {
                        afterReclaiming[client]++;
                        tally.sample("guaranteed " + booking.json() + " refused after reclaiming: " + refusal);
                    }
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        double elapsed = (System.nanoTime() - started) / 1e9;
        List<Tally> every = new ArrayList<>(guaranteed);
        every.addAll(borrowed);
        long broken = 0;
        for (long n : afterReclaiming) {
            broken += n;
        }
        return new Reclaim(
                Tally.merge(every).figures("sharing", clients, elapsed),
                Tally.merge(guaranteed).figures("guaranteed", guaranteedClients, elapsed),
                Tally.merge(borrowed).figures("borrowers", clients - guaranteedClients, elapsed),
                broken);
    }

    /** A booking of 1 to {@code maxNodes} nodes for 1 to {@code maxHours} hours, starting at a quarter hour. */
    private Booking next(SplittableRandom random, List<Fleet.Tenant> tenants, int maxNodes, int maxHours) {
        Duration length = Duration.ofHours(1 + random.nextInt(maxHours));
        long quarters = HORIZON.minus(length).toMinutes() / 15;
        Instant start = from.plus(Duration.ofMinutes(15 * random.nextLong(quarters + 1)));
        return new Booking(
                tenants.get(random.nextInt(tenants.size())), 1 + random.nextInt(maxNodes), start, start.plus(length));
    }

    /** Books and counts the answer; answers the body of a 409 (else null). */
    private String book(HttpClient http, Booking booking, Tally tally) {
        int index = shared.tenants().indexOf(booking.tenant());
        HttpRequest post = Http.booking(
                base,
                booking.tenant().slug(),
                tokens.get(index),
                UUID.randomUUID().toString(),
                booking.json());
        long start = System.nanoTime();
        try {
            HttpResponse<String> answer = http.send(post, HttpResponse.BodyHandlers.ofString());
            tally.record(System.nanoTime() - start);
            int status = answer.statusCode();
            if (status == 201) {
                tally.accepted++;
            } else {
                tally.refused(status, answer.body());
                if (status == 409) {
                    return answer.body();
                }
            }
        } catch (Exception ex) {
            tally.failed(System.nanoTime() - start, ex);
        }
        return null;
    }

    private static HttpClient client() {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    /** The pool's reservations preempted so far. */
    private long preempted(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT count(*) FROM reservation WHERE pool_id = ? AND lifecycle_status = 'PREEMPTED'")) {
            ps.setObject(1, shared.poolId());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** The share of the pool's node-hours in the window that live allocations hold. */
    private double occupancy(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
				SELECT coalesce(sum(extract(epoch FROM upper(w) - lower(w))), 0) / 3600.0
				FROM (SELECT during * tstzrange(CAST(? AS timestamptz), CAST(? AS timestamptz)) AS w
				      FROM allocation WHERE pool_id = ? AND active
				        AND during && tstzrange(CAST(? AS timestamptz), CAST(? AS timestamptz))) a""")) {
            Timestamp start = Timestamp.from(from);
            Timestamp end = Timestamp.from(from.plus(HORIZON));
            ps.setTimestamp(1, start);
            ps.setTimestamp(2, end);
            ps.setObject(3, shared.poolId());
            ps.setTimestamp(4, start);
            ps.setTimestamp(5, end);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getDouble(1) / (shared.nodes() * (double) HORIZON.toHours());
            }
        }
    }

    static void print(Result r) {
        Tally.Figures all = r.all();
        System.out.printf(
                "  %-12s %3d clients %5.1f s: %7.1f booked/s (%6.1f answered/s), %.1f preemptions/s; "
                        + "%s of plain's %.1f booked/s at the same clients (target 0.7); load average %s, at end %s%n",
                "sharing",
                all.clients(),
                all.seconds(),
                all.acceptedPerSecond(),
                Bench.answered(all),
                r.preemptionsPerSecond(),
                r.ratio() == 0 ? "-" : "%.2f".formatted(r.ratio()),
                r.plainBookedPerSecond(),
                r.loadAtStart(),
                r.loadAtEnd());
        for (Tally.Figures f : List.of(r.guaranteed(), r.borrowed())) {
            System.out.printf(
                    "  %-12s %3d clients: %7.1f booked/s  p50 %6.1f  p95 %6.1f  p99 %6.1f  max %7.1f ms  "
                            + "409 %5d  422 %5d  other 4xx %d  5xx %d  errors %d%s%n",
                    f.mode(),
                    f.clients(),
                    f.acceptedPerSecond(),
                    f.p50(),
                    f.p95(),
                    f.p99(),
                    f.max(),
                    f.conflicts(),
                    f.quota(),
                    f.other4xx(),
                    f.server5xx(),
                    f.errors(),
                    f.samples().isEmpty() ? "" : "  e.g. " + f.samples().getFirst());
        }
        System.out.printf("  %-12s %s%n", "", r.cpu());
        Checks.Shared c = r.checks();
        System.out.printf(
                "  %d preemptions by %d bookings (at most %d by one); guaranteed bookings refused (409) after "
                        + "reclaiming %d, without %d; checks: %d double bookings in the pool, %d preempted reservations that were "
                        + "not preemptible, %d preempted still holding nodes or usage, %d reservations split against their "
                        + "tenant's policy; %d preempted holding no node of their preemptor; %.2f preempted GPU-hours per GPU-hour "
                        + "booked by their preemptors%n",
                r.preemptions(),
                c.reclaimingBookings(),
                c.mostPreemptedByOne(),
                r.guaranteedRefusedAfterReclaiming(),
                r.guaranteedRefusedWithoutReclaiming(),
                c.doubleBookings(),
                c.preemptedNotPreemptible(),
                c.preemptedHolding(),
                c.misclassified(),
                c.preemptedForNothing(),
                c.preemptedPerBooked());
    }
}
