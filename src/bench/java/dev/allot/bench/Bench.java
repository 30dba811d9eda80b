package dev.allot.bench;

import ch.qos.logback.classic.Level;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The benchmark: {@code ./mvnw -Pbench verify -Dbench.size=small|full}. For each scenario (a seeded history of
 * so many reservations at so much occupancy) it starts the packaged application, books through the API with N
 * clients, then issues the same booking transaction over JDBC with N clients (the ceiling), reads the capacity
 * calendar idle and under booking load, and checks by SQL that nothing is double-booked and the calendar agrees
 * with the allocations. In the first scenario's application it also runs the sharing scenario ({@link Sharing}:
 * guaranteed tenants reclaiming a pool that borrowers filled; {@code sharing} is null in the other scenarios).
 * Prints a table, writes {@code target/bench/results.json}, and exits non-zero only when a correctness check fails
 * (a double booking, a 5xx, a wrong replay, a calendar mismatch, a wrong preemption), never on a timing.
 */
public final class Bench {

    private Bench() {}

    record Calendar(String what, String when, int samples, double p50, double p99, double max, long failures) {}

    record ScenarioResult(
            String scenario,
            long reservations,
            int occupancyTargetPercent,
            History.Seeded seeded,
            double startSeconds,
            double rssIdleMib,
            double rssLoadMib,
            List<Tally.Figures> phases,
            List<Spent.PerRequest> costs,
            List<Calendar> calendar,
            Sharing.Result sharing,
            Checks.Result checks) {}

    public static void main(String[] args) throws Exception {
        ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME))
                .setLevel(Level.WARN);
        Settings settings = Settings.fromSystemProperties();
        String loadBefore = loadAverage();
        Files.createDirectories(settings.out());
        System.out.printf(
                "Allot benchmark, size %s: %,d nodes in %d pools, %d tenants; database %s%n",
                settings.size(), settings.nodes(), Settings.POOLS.length, settings.tenants(), settings.database());
        long t0 = System.nanoTime();
        Fleet fleet = Fleet.create(settings);
        System.out.printf("Fleet created in %.1f s%n", (System.nanoTime() - t0) / 1e9);
        List<Settings.Scenario> scenarios = new ArrayList<>();
        scenarios.add(settings.main());
        scenarios.addAll(settings.curve());
        List<ScenarioResult> results = new ArrayList<>();
        List<Http.Account> accounts = null;
        for (int s = 0; s < scenarios.size(); s++) {
            Settings.Scenario scenario = scenarios.get(s);
            boolean main = s == 0;
            Instant now = Instant.now();
            History.Seeded seeded = History.seed(settings, fleet, scenario, now);
            System.out.printf(
                    "%n== %s: seeded %,d reservations, %,d allocations, %,d gaps, %,d usage rows in %.1f s "
                            + "(indexes %.1f s)%n",
                    scenario.label(),
                    seeded.reservations(),
                    seeded.allocations(),
                    seeded.gaps(),
                    seeded.usage(),
                    seeded.seconds(),
                    seeded.indexSeconds());
            long watermark;
            try (Connection c = Fleet.connect(settings)) {
                fleet.shared().free(c);
                watermark = Checks.maxAllocationId(c);
            }
            try (App app = App.start(settings, "s" + s);
                    JdbcMirror mirror = new JdbcMirror(settings, fleet)) {
                System.out.printf("Application ready in %.1f s%n", app.startSeconds());
                Http http = new Http(app.baseUrl());
                if (accounts == null) {
                    accounts = http.serviceAccounts(fleet.tenants());
                }
                List<String> tokens = http.tokens(accounts);
                ApiLoad api = new ApiLoad(app.baseUrl(), tokens, fleet.tenants());
                Requests requests = new Requests(fleet.tenants().size(), now);
                double[] rssMax = {0};
                Runnable sampler = () -> rssMax[0] = Math.max(rssMax[0], app.rssMib());
                // warm the JIT of both processes before measuring anything
                api.run(requests, settings.curveClients(), main ? 10 : 5, 7_000 + s, () -> {});
                Thread.sleep(2000);
                double rssIdle = app.rssMib();
                try {
                    OneBooking.print(settings, app.baseUrl(), fleet.tenants(), tokens, requests);
                } catch (Exception ex) {
                    // a figure, not a check: the run goes on without it
                    System.out.println("Statements of one booking: not listed (" + ex + ")");
                }
                List<Tally.Figures> phases = new ArrayList<>();
                List<Spent.PerRequest> costs = new ArrayList<>();
                List<Calendar> calendar = new ArrayList<>();
                String token = tokens.getFirst();
                Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS);
                Instant midnight = hour.truncatedTo(ChronoUnit.DAYS);
                List<String> onePool = List.of("/api/v1/capacity?pool=" + Settings.POOLS[0] + "&from=" + hour + "&to="
                        + hour.plus(Duration.ofDays(90)) + "&step=PT1H");
                List<String> allPools = new ArrayList<>();
                for (String pool : Settings.POOLS) {
                    allPools.add("/api/v1/capacity?pool=" + pool + "&from=" + midnight + "&to="
                            + midnight.plus(Duration.ofDays(365)) + "&step=P1D");
                }
                // earliest-fit for 64 nodes (or a quarter of a small pool) for 24 hours, from now on
                List<String> earliest = List.of("/api/v1/capacity/earliest?pool=" + Settings.POOLS[0] + "&gpus="
                        + Math.min(64, settings.nodesPerPool() / 4) * Settings.GPUS_PER_NODE + "&duration=PT24H");
                Map<String, List<String>> reads = new LinkedHashMap<>();
                reads.put("one pool, hourly, 90 days", onePool);
                reads.put("all pools, daily, 1 year", allPools);
                reads.put("earliest-fit, " + Math.min(64, settings.nodesPerPool() / 4) + " nodes x 24 h", earliest);
                if (main) {
                    for (Map.Entry<String, List<String>> read : reads.entrySet()) {
                        calendar.add(calendar(
                                http,
                                token,
                                read.getValue(),
                                read.getKey(),
                                "idle",
                                samples(read.getKey(), read.getValue(), settings)));
                    }
                }
                List<Integer> clientCounts = main ? settings.clients() : List.of(settings.curveClients());
                int seconds = main ? settings.seconds() : settings.curveSeconds();
                for (int clients : clientCounts) {
                    Spent before = Spent.now(app.pid(), settings);
                    Tally.Figures viaApi = api.run(requests, clients, seconds, 100 + clients, sampler);
                    costs.add(print(viaApi, before, app, settings));
                    phases.add(viaApi);
                    before = Spent.now(app.pid(), settings);
                    Tally.Figures viaJdbc = mirror.run(requests, clients, seconds, 200 + clients);
                    costs.add(print(viaJdbc, before, app, settings));
                    phases.add(viaJdbc);
                    before = Spent.now(app.pid(), settings);
                    Tally.Figures minimal = mirror.runMinimal(requests, clients, seconds, 400 + clients);
                    costs.add(print(minimal, before, app, settings));
                    phases.add(minimal);
                    mirror.undoMinimal();
                }
                if (main) {
                    for (Map.Entry<String, List<String>> entry : reads.entrySet()) {
                        List<String> gets = entry.getValue();
                        AtomicBoolean stop = new AtomicBoolean();
                        AtomicReference<Tally> read = new AtomicReference<>();
                        AtomicReference<Exception> failed = new AtomicReference<>();
                        Thread reader = Thread.ofPlatform().start(() -> {
                            try {
                                read.set(ApiLoad.calendar(http, token, gets, stop, Integer.MAX_VALUE));
                            } catch (Exception ex) {
                                failed.set(ex);
                            }
                        });
                        Tally.Figures loaded = api.run(
                                requests,
                                settings.curveClients(),
                                Math.max(10, seconds / 2),
                                300 + gets.size(),
                                sampler);
                        stop.set(true);
                        reader.join();
                        if (failed.get() != null) {
                            throw failed.get();
                        }
                        phases.add(new Tally.Figures(
                                "API+calendar",
                                loaded.clients(),
                                loaded.seconds(),
                                loaded.attempts(),
                                loaded.accepted(),
                                loaded.acceptedPerSecond(),
                                loaded.p50(),
                                loaded.p95(),
                                loaded.p99(),
                                loaded.max(),
                                loaded.replayed(),
                                loaded.conflicts(),
                                loaded.quota(),
                                loaded.other4xx(),
                                loaded.server5xx(),
                                loaded.errors(),
                                loaded.replayMismatches(),
                                loaded.samples()));
                        print(phases.getLast());
                        Tally t = read.get();
                        calendar.add(new Calendar(
                                entry.getKey(),
                                "under load (" + settings.curveClients() + " booking clients)",
                                t.attempts,
                                t.millis(0.5),
                                t.millis(0.99),
                                t.millis(1.0),
                                t.errors));
                    }
                    calendar.forEach(Bench::print);
                }
                // in the same application, compared with the plain API phase at the same clients
                Sharing.Result sharing = main
                        ? Sharing.run(
                                settings,
                                fleet,
                                app,
                                phases.stream()
                                        .filter(f -> f.mode().equals("API") && f.clients() == settings.curveClients())
                                        .findFirst()
                                        .orElse(null))
                        : null;
                Checks.Result checks;
                try (Connection c = Fleet.connect(settings)) {
                    checks = Checks.run(c, watermark, now, fleet.poolIds());
                }
                System.out.printf(
                        "Checks: %d double bookings, %d allocations overlapping a free gap, %d hourly and %d "
                                + "daily calendar buckets that disagree with the allocations, %d usage edges or hour levels and %d "
                                + "month spend counters that disagree with the priced segments; occupancy of the next 90 days now "
                                + "%.1f %%%n",
                        checks.doubleBookings(),
                        checks.gapOverlaps(),
                        checks.hourMismatches(),
                        checks.dayMismatches(),
                        checks.usageMismatches(),
                        checks.spendMismatches(),
                        checks.occupancy() * 100);
                results.add(new ScenarioResult(
                        scenario.label(),
                        seeded.reservations(),
                        scenario.occupancyPercent(),
                        seeded,
                        app.startSeconds(),
                        rssIdle,
                        rssMax[0],
                        phases,
                        costs,
                        calendar,
                        sharing,
                        checks));
            }
        }
        boolean passed = report(settings, results, loadBefore);
        System.exit(passed ? 0 : 1);
    }

    /** The same figures as a Markdown page (bench/RESULTS.md keeps the latest full-size one). */
    private static String markdown(Settings settings, List<ScenarioResult> results, String loadBefore, boolean passed) {
        StringBuilder md = new StringBuilder();
        md.append("Size `")
                .append(settings.size())
                .append("`: ")
                .append("%,d".formatted(settings.nodes()))
                .append(" nodes in ")
                .append(Settings.POOLS.length)
                .append(" pools of 8-GPU nodes, ")
                .append(settings.tenants())
                .append(" tenants; finished ")
                .append(Instant.now().truncatedTo(ChronoUnit.SECONDS))
                .append("; ")
                .append(Runtime.getRuntime().availableProcessors())
                .append(" cores, load average at start ")
                .append(loadBefore)
                .append(", at end ")
                .append(loadAverage())
                .append("; correctness checks ")
                .append(passed ? "passed" : "FAILED")
                .append(".\n\n");
        md.append(
                "| scenario | mode | clients | booked/s | full JDBC/s | minimal/s | of full | of minimal | answered/s "
                        + "| JDBC answered/s | p50 ms | p95 ms | p99 ms | max ms | 409 | 422 | 5xx |\n");
        md.append(
                "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
                        + "| ---: |\n");
        for (ScenarioResult r : results) {
            List<Tally.Figures> phases = r.phases();
            for (int i = 0; i < phases.size(); i++) {
                Tally.Figures f = phases.get(i);
                if (!f.mode().startsWith("API")) {
                    continue;
                }
                Tally.Figures ceiling = f.mode().equals("API") ? following(phases, i, "JDBC") : null;
                Tally.Figures floor = f.mode().equals("API") ? following(phases, i, "minimal") : null;
                md.append(
                        "| %s | %s | %d | %.1f | %s | %s | %s | %s | %.1f | %s | %.0f | %.0f | %.0f | %.0f | %d | %d | %d |\n"
                                .formatted(
                                        r.scenario(),
                                        f.mode(),
                                        f.clients(),
                                        f.acceptedPerSecond(),
                                        rate(ceiling),
                                        rate(floor),
                                        ratio(f, ceiling),
                                        ratio(f, floor),
                                        answered(f),
                                        ceiling == null ? "" : "%.1f".formatted(answered(ceiling)),
                                        f.p50(),
                                        f.p95(),
                                        f.p99(),
                                        f.max(),
                                        f.conflicts(),
                                        f.quota(),
                                        f.server5xx()));
            }
        }
        md.append(
                "\n| scenario | sharing | clients | booked/s | guaranteed/s | borrowers/s | preemptions/s | plain booked/s "
                        + "| of plain | guaranteed p99 ms | guaranteed 409 (after reclaiming) | guaranteed 422 | borrower 409 | 5xx "
                        + "| load average |\n");
        md.append(
                "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
        for (ScenarioResult r : results) {
            Sharing.Result s = r.sharing();
            if (s != null) {
                md.append(
                        "| %s | %s, %d nodes filled | %d | %.1f | %.1f | %.1f | %.1f | %.1f | %s | %.0f | %d (%d) | %d | %d | %d | %s |\n"
                                .formatted(
                                        r.scenario(),
                                        s.pool(),
                                        s.nodes(),
                                        s.all().clients(),
                                        s.all().acceptedPerSecond(),
                                        s.guaranteed().acceptedPerSecond(),
                                        s.borrowed().acceptedPerSecond(),
                                        s.preemptionsPerSecond(),
                                        s.plainBookedPerSecond(),
                                        s.ratio() == 0 ? "" : "%.2f".formatted(s.ratio()),
                                        s.guaranteed().p99(),
                                        s.guaranteed().conflicts(),
                                        s.guaranteedRefusedAfterReclaiming(),
                                        s.guaranteed().quota(),
                                        s.borrowed().conflicts(),
                                        s.all().server5xx() + s.fill().server5xx(),
                                        s.loadAtStart()));
            }
        }
        md.append("\n| scenario | calendar request | when | samples | p50 ms | p99 ms | max ms |\n");
        md.append("| --- | --- | --- | ---: | ---: | ---: | ---: |\n");
        for (ScenarioResult r : results) {
            for (Calendar c : r.calendar()) {
                md.append("| %s | %s | %s | %d | %.1f | %.1f | %.1f |\n"
                        .formatted(r.scenario(), c.what(), c.when(), c.samples(), c.p50(), c.p99(), c.max()));
            }
        }
        md.append("\n| scenario | seeded reservations | seed s | start-up s | RSS idle MiB | RSS under load MiB | "
                + "occupancy after | double bookings | calendar mismatches | usage mismatches | spend mismatches |\n");
        md.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (ScenarioResult r : results) {
            md.append("| %s | %,d | %.0f | %.1f | %.0f | %.0f | %.1f %% | %d | %d | %d | %d |\n"
                    .formatted(
                            r.scenario(),
                            r.reservations(),
                            r.seeded().seconds(),
                            r.startSeconds(),
                            r.rssIdleMib(),
                            r.rssLoadMib(),
                            r.checks().occupancy() * 100,
                            r.checks().doubleBookings(),
                            r.checks().hourMismatches() + r.checks().dayMismatches(),
                            r.checks().usageMismatches(),
                            r.checks().spendMismatches()));
        }
        return md.toString();
    }

    /** Idle samples of a read: fewer for several requests per sample, and for earliest-fit (a search, not a sum). */
    private static int samples(String what, List<String> gets, Settings settings) {
        return what.startsWith("earliest")
                ? Math.max(20, settings.calendarSamples() / 5)
                : gets.size() == 1 ? settings.calendarSamples() : settings.calendarSamples() / 2;
    }

    /** The first phase of the mode after the API phase at {@code i} (its JDBC and minimal runs), if any. */
    private static Tally.Figures following(List<Tally.Figures> phases, int i, String mode) {
        for (int j = i + 1; j < phases.size() && !phases.get(j).mode().startsWith("API"); j++) {
            if (phases.get(j).mode().equals(mode)) {
                return phases.get(j);
            }
        }
        return null;
    }

    private static String rate(Tally.Figures f) {
        return f == null ? "" : "%.1f".formatted(f.acceptedPerSecond());
    }

    /** Bookings per second through the API as a share of another mode's. */
    private static String ratio(Tally.Figures api, Tally.Figures other) {
        return other == null || other.acceptedPerSecond() == 0
                ? ""
                : "%.2f".formatted(api.acceptedPerSecond() / other.acceptedPerSecond());
    }

    /** Requests decided per second: booked, refused for capacity (409) or by the quota (422), or replayed. */
    static double answered(Tally.Figures f) {
        return (f.accepted() + f.replayed() + f.conflicts() + f.quota()) / f.seconds();
    }

    /** The machine's load average (1, 5 and 15 minutes): other work on the same cores skews every figure. */
    static String loadAverage() {
        try {
            String[] parts = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return parts[0] + " " + parts[1] + " " + parts[2];
        } catch (IOException ex) {
            return "unknown";
        }
    }

    private static Calendar calendar(Http http, String token, List<String> gets, String what, String when, int samples)
            throws Exception {
        Tally t = ApiLoad.calendar(http, token, gets, new AtomicBoolean(), samples);
        return new Calendar(what, when, t.attempts, t.millis(0.5), t.millis(0.99), t.millis(1.0), t.errors);
    }

    private static void print(Tally.Figures f) {
        System.out.printf(
                "  %-12s %3d clients %5.1f s: %7.1f booked/s (%6.1f answered/s)  p50 %6.1f  p95 %6.1f  p99 %6.1f  max %7.1f ms  "
                        + "409 %5d  422 %5d  other 4xx %d  5xx %d  errors %d  replays %d%s%n",
                f.mode(),
                f.clients(),
                f.seconds(),
                f.acceptedPerSecond(),
                answered(f),
                f.p50(),
                f.p95(),
                f.p99(),
                f.max(),
                f.conflicts(),
                f.quota(),
                f.other4xx(),
                f.server5xx(),
                f.errors(),
                f.replayed(),
                f.samples().isEmpty() ? "" : "  e.g. " + f.samples().getFirst());
    }

    /** The phase's line, then what one answered request cost (see {@link Spent}). */
    private static Spent.PerRequest print(Tally.Figures f, Spent before, App app, Settings settings) {
        print(f);
        Spent.PerRequest cost = Spent.now(app.pid(), settings).perRequest(before, f.mode(), f.clients(), f.attempts());
        System.out.printf("  %-12s %s%n", "", cost);
        return cost;
    }

    private static void print(Calendar c) {
        System.out.printf(
                "  read %-32s %-30s %4d samples: p50 %6.1f  p99 %6.1f  max %6.1f ms  failures %d%n",
                c.what(), c.when(), c.samples(), c.p50(), c.p99(), c.max(), c.failures());
    }

    /** The summary table and the JSON file; answers whether every correctness check passed. */
    private static boolean report(Settings settings, List<ScenarioResult> results, String loadBefore) throws Exception {
        boolean passed = true;
        System.out.printf("%n%s%n", "=".repeat(118));
        System.out.printf(
                "%-14s %-13s %7s %9s %9s %9s %7s %7s %7s %7s %7s %6s %6s %5s %8s %8s %8s%n",
                "scenario",
                "mode",
                "clients",
                "booked/s",
                "full/s",
                "minimal/s",
                "of full",
                "of min",
                "p50 ms",
                "p95 ms",
                "p99 ms",
                "409",
                "422",
                "5xx",
                "stmt/req",
                "app ms",
                "pg ms");
        for (ScenarioResult r : results) {
            List<Tally.Figures> phases = r.phases();
            for (int i = 0; i < phases.size(); i++) {
                Tally.Figures f = phases.get(i);
                if (!f.mode().equals("API")) {
                    continue;
                }
                Tally.Figures ceiling = following(phases, i, "JDBC");
                Tally.Figures floor = following(phases, i, "minimal");
                Spent.PerRequest cost = r.costs().stream()
                        .filter(c -> c.mode().equals(f.mode()) && c.clients() == f.clients())
                        .findFirst()
                        .orElse(null);
                System.out.printf(
                        "%-14s %-13s %7d %9.1f %9s %9s %7s %7s %7.1f %7.1f %7.1f %6d %6d %5d %8s %8s %8s%n",
                        r.scenario(),
                        f.mode(),
                        f.clients(),
                        f.acceptedPerSecond(),
                        rate(ceiling),
                        rate(floor),
                        ratio(f, ceiling),
                        ratio(f, floor),
                        f.p50(),
                        f.p95(),
                        f.p99(),
                        f.conflicts(),
                        f.quota(),
                        f.server5xx(),
                        cost == null || cost.statements() < 0 ? "-" : "%.1f".formatted(cost.statements()),
                        cost == null ? "-" : "%.1f".formatted(cost.appCpuMs()),
                        cost == null ? "-" : "%.1f".formatted(cost.databaseCpuMs()));
            }
            for (Tally.Figures f : phases) {
                passed &= f.server5xx() == 0 && f.replayMismatches() == 0 && f.errors() == 0;
            }
            for (Calendar c : r.calendar()) {
                passed &= c.failures() == 0;
            }
            passed &= r.checks().passed();
            Sharing.Result s = r.sharing();
            if (s != null) {
                passed &= s.passed();
                Tally.Figures f = s.all();
                System.out.printf(
                        "%-14s %-13s %7d %9.1f %9s %9s %7s %7s %7.1f %7.1f %7.1f %6d %6d %5d%n",
                        r.scenario(),
                        "sharing",
                        f.clients(),
                        f.acceptedPerSecond(),
                        "",
                        "",
                        "",
                        "",
                        f.p50(),
                        f.p95(),
                        f.p99(),
                        f.conflicts(),
                        f.quota(),
                        f.server5xx() + s.fill().server5xx());
                System.out.printf(
                        "%-28s guaranteed %.1f/s, borrowers %.1f/s, %.1f preemptions/s; %s of plain's %.1f "
                                + "booked/s at %d clients (target 0.7); guaranteed 409 %d (after reclaiming %d), 422 %d; load "
                                + "average %s%n",
                        "",
                        s.guaranteed().acceptedPerSecond(),
                        s.borrowed().acceptedPerSecond(),
                        s.preemptionsPerSecond(),
                        s.ratio() == 0 ? "-" : "%.2f".formatted(s.ratio()),
                        s.plainBookedPerSecond(),
                        f.clients(),
                        s.guaranteed().conflicts(),
                        s.guaranteedRefusedAfterReclaiming(),
                        s.guaranteed().quota(),
                        s.loadAtStart());
            }
        }
        System.out.println();
        for (ScenarioResult r : results) {
            System.out.printf(
                    "%-14s start-up %.1f s, RSS idle %.0f MiB, under load %.0f MiB; seeded in %.1f s; "
                            + "occupancy after %.1f %%; double bookings %d; calendar mismatches %d; usage mismatches %d; spend "
                            + "mismatches %d%n",
                    r.scenario(),
                    r.startSeconds(),
                    r.rssIdleMib(),
                    r.rssLoadMib(),
                    r.seeded().seconds(),
                    r.checks().occupancy() * 100,
                    r.checks().doubleBookings(),
                    r.checks().hourMismatches() + r.checks().dayMismatches(),
                    r.checks().usageMismatches(),
                    r.checks().spendMismatches());
            r.calendar().forEach(Bench::print);
            if (r.sharing() != null) {
                Checks.Shared c = r.sharing().checks();
                System.out.printf(
                        "%-14s sharing: %d reservations on %s, %d preempted by %d bookings (at most %d by one); "
                                + "double bookings %d; preempted although not preemptible %d; preempted still holding nodes or usage "
                                + "%d; split against the policy %d; preempted holding no node of their preemptor %d; preempted "
                                + "GPU-hours per GPU-hour booked by their preemptors %.2f%n",
                        r.scenario(),
                        c.reservations(),
                        r.sharing().pool(),
                        c.preempted(),
                        c.reclaimingBookings(),
                        c.mostPreemptedByOne(),
                        c.doubleBookings(),
                        c.preemptedNotPreemptible(),
                        c.preemptedHolding(),
                        c.misclassified(),
                        c.preemptedForNothing(),
                        c.preemptedPerBooked());
            }
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("size", settings.size());
        json.put("finishedAt", Instant.now().toString());
        json.put(
                "machine",
                Map.of(
                        "cores",
                        Runtime.getRuntime().availableProcessors(),
                        "os",
                        System.getProperty("os.name") + " " + System.getProperty("os.version"),
                        "java",
                        System.getProperty("java.version")));
        json.put("loadAverage", Map.of("atStart", loadBefore, "atEnd", loadAverage()));
        json.put("nodes", settings.nodes());
        json.put("tenants", settings.tenants());
        json.put("scenarios", results);
        json.put("passed", passed);
        JsonMapper mapper =
                JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();
        Files.writeString(settings.out().resolve("results.json"), mapper.writeValueAsString(json));
        Files.writeString(settings.out().resolve("results.md"), markdown(settings, results, loadBefore, passed));
        System.out.printf(
                "%nLoad average (1, 5, 15 min) at start %s, at end %s (%d cores)%n",
                loadBefore, loadAverage(), Runtime.getRuntime().availableProcessors());
        System.out.printf(
                "%nResults: %s; correctness checks %s%n",
                settings.out().resolve("results.json"), passed ? "PASSED" : "FAILED");
        return passed;
    }
}
