package dev.allot.replicas;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * Allot on PostgreSQL made highly available with Patroni (etcd, a primary and a synchronous standby): the primary's
 * host dies ({@code kill -9} of its Patroni and its PostgreSQL) under booking load; Patroni promotes the standby, and
 * the application, given the multi-host JDBC URL docs/operations.md recommends, finds the new primary by itself.
 * Every booking it acknowledged, before or after, is on the new primary (synchronous replication: an acknowledged commit was on
 * the standby too). The failover time and the requests that failed during it are measured and printed.
 */
class PatroniFailoverTests {

    /** The recommended connection settings (docs/operations.md, "High availability"). */
    static final String JDBC_PARAMETERS =
            "targetServerType=primary&hostRecheckSeconds=2&connectTimeout=3&tcpKeepAlive=true";

    static PatroniCluster cluster;

    static Replica allot;

    @BeforeAll
    static void patroniAndAllot() throws Exception {
        long began = System.nanoTime();
        cluster = PatroniCluster.start();
        PatroniCluster.Node leader = cluster.primary().orElseThrow();
        try (Connection admin =
                        DriverManager.getConnection(cluster.jdbcUrl(leader, "postgres"), "postgres", cluster.password);
                Statement statement = admin.createStatement()) {
            statement.execute("CREATE DATABASE allot");
        }
        System.out.printf(
                "Patroni: etcd, primary %s and synchronous standby up in %.1f s%n%s",
                leader.name(), (System.nanoTime() - began) / 1e9, cluster.list());
        int port = Replica.freePort();
        allot = Replica.start(
                "allot-ha",
                port,
                "http://127.0.0.1:" + port,
                cluster.jdbcUrl("allot", JDBC_PARAMETERS),
                "postgres",
                cluster.password,
                Path.of("target", "replicas").toAbsolutePath(),
                List.of("--server.shutdown=immediate"));
        allot.awaitReady(Duration.ofMinutes(5));
    }

    @AfterAll
    static void stop() throws Exception {
        if (allot != null) {
            allot.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void thePrimaryDiesUnderLoadAndEveryAcknowledgedBookingIsOnTheNewPrimary() throws Exception {
        ReplicaFleet fleet = new ReplicaFleet(allot.api());
        String type = fleet.gpuType();
        fleet.pool("ha-pool", type, 5);
        List<ReplicaFleet.Tenant> tenants = List.of(fleet.tenant(type, 8, 24), fleet.tenant(type, 8, 24));
        BookingLoad load = new BookingLoad(
                tenants, "ha-pool", Instant.now().truncatedTo(ChronoUnit.HOURS).plus(Duration.ofHours(2)));
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> crashed = new AtomicReference<>();
        Thread clients = Thread.ofPlatform().start(() -> {
            try {
                load.run(8, Integer.MAX_VALUE, thread -> allot.api(), stop::get);
            } catch (Throwable ex) {
                crashed.set(ex);
            }
        });
        // a browser on the live calendar: its events come from the application's LISTEN on the primary
        String[] user = fleet.user();
        CalendarFeed feed = new CalendarFeed(ReplicaFleet.signIn(allot.baseUrl(), user[0], user[1]), allot.baseUrl());
        Thread.sleep(5000);
        int before = load.booked.size();
        PatroniCluster.Node old = cluster.primary().orElseThrow();
        PatroniCluster.Node standby =
                cluster.nodes.stream().filter(node -> node != old).findFirst().orElseThrow();
        Instant killed = Instant.now();
        cluster.kill(old);
        feed.clear();
        // Patroni promotes the standby once the old leader's key expires (ttl 10 s)
        Instant promoted = null;
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (promoted == null) {
            assertThat(System.nanoTime())
                    .as("the standby promoted within 2 minutes")
                    .isLessThan(deadline);
            if (cluster.answers(standby, "/primary")) {
                promoted = Instant.now();
            } else {
                Thread.sleep(100);
            }
        }
        // the load goes on until the application has served 10 s of requests on the new primary
        Instant restored = null;
        deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (restored == null) {
            assertThat(System.nanoTime())
                    .as("bookings served again within 2 minutes of the promotion")
                    .isLessThan(deadline);
            Thread.sleep(500);
            Instant lastFailure = load.outcomes.stream()
                    .filter(outcome -> !outcome.served())
                    .map(BookingLoad.Outcome::at)
                    .max(Instant::compareTo)
                    .orElse(killed);
            restored = load.outcomes.stream()
                    .filter(outcome -> outcome.status() == 201
                            && outcome.at().isAfter(lastFailure)
                            && outcome.at().isAfter(killed))
                    .map(BookingLoad.Outcome::at)
                    .min(Instant::compareTo)
                    .orElse(null);
        }
        // the LISTEN connection found the new primary too: the browser is told to reload, then sees bookings again
        try (feed) {
            assertThat(feed.await("resync", Duration.ofSeconds(30)))
                    .as("resync after the failover")
                    .isTrue();
            assertThat(feed.await("capacity-ha-pool", Duration.ofSeconds(30)))
                    .as("live updates after the failover")
                    .isTrue();
        }
        Thread.sleep(5_000);
        stop.set(true);
        clients.join();
        assertThat(crashed.get()).isNull();
        Instant end = restored;
        long failed =
                load.outcomes.stream().filter(outcome -> !outcome.served()).count();
        List<BookingLoad.Outcome> failedOutside = load.outcomes.stream()
                // a request sent while the primary was away may be answered (with an error) after the restore
                .filter(outcome -> !outcome.served()
                        && (outcome.at().isBefore(killed) || outcome.sent().isAfter(end)))
                .toList();
        System.out.printf(
                "Patroni failover under load: %s killed; %s promoted after %.1f s; Allot booked again %.1f s "
                        + "after the kill; %d requests failed during it (of %d; statuses %s, %d unanswered); %d bookings "
                        + "acknowledged (%d before the kill)%n%s",
                old.name(),
                standby.name(),
                Duration.between(killed, promoted).toMillis() / 1e3,
                Duration.between(killed, restored).toMillis() / 1e3,
                failed,
                load.outcomes.size(),
                load.statuses,
                load.unanswered.size(),
                load.booked.size(),
                before,
                cluster.list());
        load.unexpected.stream().limit(3).forEach(line -> System.out.println("  failed: " + line));
        assertThat(failedOutside)
                .as("requests failed outside the failover (killed %s, restored %s)", killed, end)
                .isEmpty();
        assertThat(load.booked.size())
                .as("bookings acknowledged after the failover")
                .isGreaterThan(before);
        // what failed during it failed as the contract says: 503 database_unavailable with Retry-After, never a 500
        assertThat(load.outcomes)
                .as("requests answered 500 or undocumented")
                .noneMatch(outcome -> outcome.status() == 500);
        assertThat(load.unexpected).as("503s without Retry-After").noneMatch(line -> line.contains("no Retry-After"));

        // every acknowledged booking is on the new primary, read there directly, not through the application
        JdbcClient primaryDb = JdbcClient.create(
                new DriverManagerDataSource(cluster.jdbcUrl(standby, "allot"), "postgres", cluster.password));
        assertThat(primaryDb
                        .sql("SELECT pg_is_in_recovery()")
                        .query(Boolean.class)
                        .single())
                .isFalse();
        load.assertStoredIn(primaryDb);
        // and the application reports itself ready on the new primary
        assertThat(allot.api().get("/actuator/health/readiness", null).body()).contains("UP");
    }
}
