package dev.allot.provisioning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.kagkarlsson.scheduler.task.Task;
import com.github.kagkarlsson.scheduler.testhelper.ManualScheduler;
import com.github.kagkarlsson.scheduler.testhelper.SettableClock;
import com.github.kagkarlsson.scheduler.testhelper.TestHelper;
import dev.allot.support.Api;
import dev.allot.support.FleetTest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.context.bean.override.convention.TestBean;
import tools.jackson.databind.JsonNode;

/**
 * Drives the cluster lifecycle as db-scheduler would, but in the test's thread and at times the test chooses:
 * these tests run in an application context of their own whose poller is off, and {@link #runDueAt} runs, with
 * db-scheduler's own {@code ManualScheduler} (real picking, failure handlers, backoff), every lifecycle step due
 * at that instant.
 * <p>
 * The database is shared with other contexts whose pollers run in real time. This context's clock is years ahead
 * of the real one, so that every step these tests schedule (even "now") is years away for those pollers. Other
 * tests' bookings get clusters too; each lifecycle test first retires them and starts from an empty queue.
 */
@TestPropertySource(
        properties = {
            "db-scheduler.enabled=false",
            // A context more in the test JVM: keep its share of PostgreSQL's connections small.
            "spring.datasource.hikari.maximum-pool-size=6",
            "spring.datasource.hikari.minimum-idle=1"
        })
public abstract class LifecycleTest extends FleetTest {

    /**
     * The application's clock in this context: the real one, seven years ahead. The manual scheduler also runs
     * billing's month closing at this time: the billing tests' clock ({@code BillingTest}) must stay months behind.
     */
    private static final AheadClock AHEAD = new AheadClock(Duration.ofDays(7 * 365));

    /**
     * The real clock, ahead by an offset that tests may only grow ({@link #advanceApplicationClock}): time still
     * flows, and a test can jump to where a deadline has passed. Every test reads its times from {@link #now()}.
     */
    private static final class AheadClock extends Clock {

        private volatile Duration ahead;

        AheadClock(Duration ahead) {
            this.ahead = ahead;
        }

        synchronized void advance(Duration by) {
            if (by.isNegative()) {
                throw new IllegalArgumentException("The application clock only moves forward");
            }
            ahead = ahead.plus(by);
        }

        @Override
        public Instant instant() {
            return Instant.now().plus(ahead);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return Clock.offset(Clock.system(zone), ahead);
        }
    }

    /** Moves the application's clock forward (for every lifecycle test after this one too). */
    protected static void advanceApplicationClock(Duration by) {
        AHEAD.advance(by);
    }

    @TestBean(name = "clock", methodName = "lifecycleClock")
    Clock applicationClock;

    static Clock lifecycleClock() {
        return AHEAD;
    }

    /** A tenant able to book whole 8-GPU nodes of its own pool. */
    public record Setup(String tenant, String gpuType, String pool, String token, List<String> nodes) {}

    @Autowired
    protected DataSource dataSource;

    @Autowired
    private List<Task<?>> tasks;

    protected SettableClock schedulerClock;

    protected ManualScheduler scheduler;

    @BeforeEach
    void emptyTheLifecycleQueue() {
        jdbc.sql("DELETE FROM scheduled_tasks WHERE task_name LIKE 'cluster-%'").update();
        jdbc.sql("UPDATE cluster SET open = false, state = 'DELETED' WHERE open")
                .update();
        schedulerClock = new SettableClock();
        schedulerClock.set(now());
        List<Task<?>> steps = tasks.stream()
                .filter(t -> t.getName().startsWith("cluster-")
                        && !t.getName().equals("cluster-watchdog")
                        && !t.getName().equals("cluster-reconciler"))
                .toList();
        scheduler = TestHelper.createManualScheduler(dataSource, steps)
                .clock(schedulerClock)
                .build();
    }

    /** Runs every lifecycle step due at that instant (and any retry that becomes due by then). */
    protected void runDueAt(Instant instant) {
        schedulerClock.set(instant);
        scheduler.runAnyDueExecutions();
    }

    protected Setup setup(int nodes, List<String> hostnames, String pool, String gpuType) {
        String tenant = newTenant();
        newProject(tenant, "training");
        setQuota(tenant, gpuType, nodes * 8, nodes * 8, false);
        return new Setup(tenant, gpuType, pool, tenantToken(tenant, "MEMBER"), hostnames);
    }

    /**
     * A pool with a fixed name and hostnames (those a real driver's configuration names: a Slurm controller's
     * nodes, a Kubernetes cluster's), created through the API, and a tenant on two of its nodes.
     */
    protected Setup namedPool(String pool, List<String> hostnames) {
        String type = newGpuType();
        setRateCard(type);
        assertThat(api.post(
                                "/api/v1/pools",
                                adminToken(),
                                Map.of("name", pool, "gpuType", type, "gpusPerNode", 8, "region", "eu-test-1"))
                        .status())
                .isEqualTo(201);
        for (String node : hostnames) {
            assertThat(api.post(
                                    "/api/v1/pools/" + pool + "/nodes",
                                    adminToken(),
                                    Map.of(
                                            "hostname",
                                            node,
                                            "rack",
                                            "rack-0",
                                            "ibBlock",
                                            "ib-0",
                                            "cudaDrivers",
                                            List.of("550.54")))
                            .status())
                    .isEqualTo(201);
        }
        return setup(2, hostnames, pool, type);
    }

    /** A pool of {@code nodes} fake-driven nodes (no driver configured: the default, fake) and a tenant on it. */
    protected Setup fleet(int nodes) {
        String type = newGpuType();
        setRateCard(type);
        String pool = newPool(type, 8);
        return setup(nodes, addNodes(pool, nodes, 4), pool, type);
    }

    /** Now, as the application sees it. */
    protected static Instant now() {
        return AHEAD.instant();
    }

    protected static Instant hour(int hoursFromNow) {
        return now().truncatedTo(ChronoUnit.HOURS).plus(Duration.ofHours(hoursFromNow));
    }

    protected Api.Response book(Setup s, int gpus, Instant start, Instant end, String orchestrator) {
        Map<String, Object> body = new HashMap<>();
        body.put("project", "training");
        body.put("pool", s.pool());
        body.put("gpus", gpus);
        body.put("startsAt", start.toString());
        body.put("endsAt", end.toString());
        body.put(
                "cluster",
                Map.of(
                        "orchestrator",
                        orchestrator,
                        "cudaDriver",
                        "550.54",
                        "sharedMemoryGi",
                        64,
                        "volumes",
                        List.of(Map.of("name", "data", "sizeGi", 50))));
        return api.post("/api/v1/tenants/" + s.tenant() + "/reservations", s.token(), body);
    }

    /** Books and waits until the lifecycle has scheduled the reservation's steps (booking's event is async). */
    protected String bookAndAwaitSchedule(Setup s, int gpus, Instant start, Instant end, String orchestrator) {
        Api.Response booked = book(s, gpus, start, end, orchestrator);
        if (booked.status() != 201) {
            throw new AssertionError("Not booked: " + booked);
        }
        String id = booked.json().get("id").asString();
        await().atMost(Duration.ofSeconds(30)).until(() -> scheduled("cluster-teardown", id) != null);
        return id;
    }

    /** When the step is scheduled to run, or {@code null} when it is not. */
    protected Instant scheduled(String task, String reservationId) {
        return jdbc.sql("SELECT execution_time FROM scheduled_tasks WHERE task_name = ? AND task_instance = ?")
                .params(task, reservationId)
                .query((rs, n) -> rs.getTimestamp(1).toInstant())
                .optional()
                .orElse(null);
    }

    protected String path(Setup s, String reservationId) {
        return "/api/v1/tenants/" + s.tenant() + "/reservations/" + reservationId;
    }

    protected JsonNode cluster(Setup s, String reservationId) {
        Api.Response response = api.get(path(s, reservationId) + "/cluster", s.token());
        if (response.status() != 200) {
            throw new AssertionError("No cluster view: " + response);
        }
        return response.json();
    }

    protected String reservationStatus(Setup s, String reservationId) {
        return api.get(path(s, reservationId), s.token()).json().get("status").asString();
    }

    protected List<String> timeline(JsonNode cluster) {
        return cluster.get("timeline")
                .valueStream()
                .map(e -> e.get("step").asString() + " " + e.get("outcome").asString() + " "
                        + e.get("state").asString())
                .toList();
    }

    /** How long a step took, from its first STARTED entry to its last SUCCEEDED one in the timeline. */
    protected Duration took(JsonNode cluster, String step) {
        List<JsonNode> entries = cluster.get("timeline")
                .valueStream()
                .filter(e -> e.get("step").asString().equals(step))
                .toList();
        Instant started = entries.stream()
                .filter(e -> e.get("outcome").asString().equals("STARTED"))
                .map(e -> Instant.parse(e.get("at").asString()))
                .findFirst()
                .orElseThrow();
        Instant succeeded = entries.stream()
                .filter(e -> e.get("outcome").asString().equals("SUCCEEDED"))
                .map(e -> Instant.parse(e.get("at").asString()))
                .reduce((a, b) -> b)
                .orElseThrow();
        return Duration.between(started, succeeded);
    }

    /**
     * Two clusters whose nodes failed at once competed for one replacement: exactly one of them got it and is READY,
     * the other is DEGRADED saying none was left, and the node holds one active allocation.
     */
    protected void assertOneGotTheOnlyReplacement(Setup s, String first, String second, String replacement) {
        List<JsonNode> clusters = List.of(cluster(s, first), cluster(s, second));
        assertThat(clusters.stream().filter(c -> c.get("state").asString().equals("READY")))
                .hasSize(1);
        JsonNode degraded = clusters.stream()
                .filter(c -> c.get("state").asString().equals("DEGRADED"))
                .findFirst()
                .orElseThrow();
        assertThat(degraded.get("stateReason").asString()).endsWith("no spare or free node can replace it");
        assertThat(clusters.stream()
                        .flatMap(c -> c.get("nodes").valueStream())
                        .map(n -> n.get("hostname").asString())
                        .filter(replacement::equals))
                .hasSize(1);
        assertThat(jdbc.sql(
                                "SELECT count(*) FROM allocation a JOIN node n ON n.id = a.node_id WHERE n.hostname = ? AND a.active")
                        .param(replacement)
                        .query(Long.class)
                        .single())
                .isEqualTo(1);
    }

    protected long activeAllocations(String reservationId) {
        return jdbc.sql("SELECT count(*) FROM allocation WHERE reservation_id = ?::uuid AND active")
                .param(reservationId)
                .query(Long.class)
                .single();
    }
}
