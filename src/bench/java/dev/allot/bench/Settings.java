package dev.allot.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What one run measures: the fleet, the history seeded before each scenario, the client counts and how long
 * each booking phase lasts. Sizes {@code small} (CI: about two minutes) and {@code full} (10,000 nodes, 1M
 * reservations), with overrides from {@code -Dbench.nodes=...} and friends. The sharing scenario's pool comes on
 * top: 32 nodes (small) or 256 (full).
 */
record Settings(
        String size,
        int nodes,
        int tenants,
        int tightTenants,
        Scenario main,
        List<Integer> clients,
        int seconds,
        List<Scenario> curve,
        int curveClients,
        int curveSeconds,
        int calendarSamples,
        boolean jfr,
        Path jar,
        Path migrations,
        Path out,
        String databaseUrl,
        String databaseUser) {

    static final String[] POOLS = {"h100-a", "h200-a", "b200-a", "a100-a"};

    static final String[] GPU_TYPES = {"H100", "H200", "B200", "A100"};

    static final int GPUS_PER_NODE = 8;

    /** A seeded state: how many reservations over the year, and how full the calendar is. */
    record Scenario(long reservations, int occupancyPercent) {

        String label() {
            return (reservations >= 1_000_000
                            ? reservations / 1_000_000 + "M"
                            : reservations >= 1000 ? reservations / 1000 + "k" : String.valueOf(reservations))
                    + " @ "
                    + occupancyPercent + " %";
        }
    }

    static Settings fromSystemProperties() {
        String size = System.getProperty("bench.size", "small").trim();
        String[] o = (System.getProperty("bench.overrides", "") + "|||||||").split("\\|", -1);
        Settings base = switch (size) {
            case "full" ->
                new Settings(
                        size,
                        10_000,
                        50,
                        5,
                        new Scenario(1_000_000, 50),
                        List.of(8, 16, 32),
                        30,
                        List.of(
                                new Scenario(10_000, 10),
                                new Scenario(100_000, 50),
                                new Scenario(1_000_000, 10),
                                new Scenario(1_000_000, 90)),
                        16,
                        20,
                        200,
                        false,
                        null,
                        null,
                        null,
                        null,
                        null);
            case "small" ->
                new Settings(
                        size,
                        200,
                        10,
                        1,
                        new Scenario(5_000, 50),
                        List.of(8),
                        10,
                        List.of(),
                        8,
                        10,
                        60,
                        false,
                        null,
                        null,
                        null,
                        null,
                        null);
            default -> throw new IllegalArgumentException("bench.size must be small or full, not " + size);
        };
        int nodes = intOr(o[0], base.nodes());
        long reservations = o[1].isBlank() ? base.main().reservations() : Long.parseLong(o[1].trim());
        List<Integer> clients = o[2].isBlank()
                ? base.clients()
                : Arrays.stream(o[2].split(","))
                        .map(String::trim)
                        .map(Integer::parseInt)
                        .toList();
        int seconds = intOr(o[3], base.seconds());
        int occupancy = intOr(o[4], base.main().occupancyPercent());
        int tenants = intOr(o[5], base.tenants());
        boolean jfr = !o[6].isBlank() && Boolean.parseBoolean(o[6].trim());
        if (nodes % POOLS.length != 0) {
            throw new IllegalArgumentException("bench.nodes must be a multiple of " + POOLS.length);
        }
        List<Scenario> curve = new ArrayList<>(base.curve());
        if (!o[1].isBlank() || !o[0].isBlank()) {
            curve.clear(); // a resized fleet has no meaningful preset curve
        }
        return new Settings(
                size,
                nodes,
                tenants,
                Math.max(1, tenants / 10),
                new Scenario(reservations, occupancy),
                clients,
                seconds,
                curve,
                clients.contains(base.curveClients()) ? base.curveClients() : clients.getFirst(),
                Math.min(base.curveSeconds(), seconds),
                base.calendarSamples(),
                jfr,
                Path.of(required("bench.jar")),
                Path.of(required("bench.migrations")),
                Path.of(System.getProperty("bench.out", "target/bench")),
                System.getProperty("bench.database.url", "jdbc:postgresql://127.0.0.1:5432/"),
                System.getProperty("bench.database.user", "postgres"));
    }

    /**
     * {@code -Dbench.database=...} names the database, so that two people benchmarking on one PostgreSQL do not
     * drop each other's; CI keeps {@code allot_bench_<size>}.
     */
    String database() {
        String named = System.getProperty("bench.database", "").trim();
        return named.isEmpty() ? "allot_bench_" + size : named;
    }

    String jdbcUrl() {
        return databaseUrl + database();
    }

    int nodesPerPool() {
        return nodes / POOLS.length;
    }

    /** The nodes of the sharing scenario's pool ({@link SharedPool}), besides {@link #nodes}. */
    int sharingNodes() {
        return size.equals("full") ? 256 : 32;
    }

    /** Guaranteed tenants of the shared pool, and as many borrowers: one of each per two clients. */
    int sharingTenants() {
        return Math.max(2, curveClients / 2);
    }

    private static int intOr(String value, int otherwise) {
        return value.isBlank() ? otherwise : Integer.parseInt(value.trim());
    }

    private static String required(String name) {
        String value = System.getProperty(name);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("-D" + name + " is required (run through ./mvnw -Pbench verify)");
        }
        return value;
    }
}
