package dev.allot.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.allot.client.ApiClient;
import dev.allot.client.api.GpuTypesApi;
import dev.allot.client.api.NodesApi;
import dev.allot.client.api.PoolsApi;
import dev.allot.client.api.ProjectsApi;
import dev.allot.client.api.QuotaApi;
import dev.allot.client.api.RateCardsApi;
import dev.allot.client.api.ServiceAccountsApi;
import dev.allot.client.api.TenantsApi;
import dev.allot.client.model.CreateGpuType;
import dev.allot.client.model.CreateNode;
import dev.allot.client.model.CreatePool;
import dev.allot.client.model.CreateProject;
import dev.allot.client.model.CreateServiceAccount;
import dev.allot.client.model.CreateTenant;
import dev.allot.client.model.CreatedBody;
import dev.allot.client.model.PolicyBody;
import dev.allot.client.model.PutCard;
import dev.allot.client.model.QuotaBody;
import dev.allot.client.model.StateReason;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI against the packaged application: a platform admin builds a fleet and a tenant through the generated
 * client, then a pipeline (the tenant's service account) drives {@code allot} from nothing to a READY cluster and
 * back, and every exit code a pipeline branches on is provoked once.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CliEndToEndTests {

    static final String SSH_KEY =
            "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHb3e0kH0Jx2y5Q0m7p9a1c2d3e4f5g6h7i8j9k0l1m2 ci@example";

    static final ObjectMapper JSON = new ObjectMapper();

    static RunningAllot allot;

    static String tenant;

    static String pool;

    static String smallPool;

    static CreatedBody serviceAccount;

    @TempDir
    static Path home;

    static Path config;

    @BeforeAll
    static void startAllotAndBuildAFleet() throws Exception {
        allot = RunningAllot.start();
        ApiClient admin = client(Tokens.fetch(allot.url, allot.adminClientId, allot.adminClientSecret)
                .value());
        String suffix = Long.toString(ThreadLocalRandom.current().nextLong(1L << 30, 1L << 35), 36);
        String type = "E2E" + suffix.toUpperCase();
        new GpuTypesApi(admin)
                .createGpuType(new CreateGpuType().code(type).memoryGb(80).interconnect("NVLINK"), null);
        new RateCardsApi(admin)
                .replaceRateCard(
                        type,
                        new PutCard()
                                .effectiveFrom(LocalDate.parse("2020-01-01"))
                                .currency("USD")
                                .prices(Map.of(
                                        "RESERVED",
                                        new BigDecimal("2.00"),
                                        "BORROWED",
                                        new BigDecimal("1.50"),
                                        "ON_DEMAND",
                                        new BigDecimal("4.00"))));
        pool = "ci-" + suffix;
        smallPool = "ci-small-" + suffix;
        PoolsApi pools = new PoolsApi(admin);
        pools.createPool(
                new CreatePool().name(pool).gpuType(type).gpusPerNode(8).region("eu-test-1"), null);
        pools.createPool(
                new CreatePool().name(smallPool).gpuType(type).gpusPerNode(8).region("eu-test-1"), null);
        NodesApi nodes = new NodesApi(admin);
        for (int i = 0; i < 4; i++) {
            nodes.addNode(pool, node(pool + "-n" + i, i / 2), null);
        }
        nodes.addNode(smallPool, node(smallPool + "-n0", 0), null);
        tenant = "t-" + suffix;
        new TenantsApi(admin).createTenant(new CreateTenant().slug(tenant).displayName("CI " + suffix), null);
        new ProjectsApi(admin)
                .createProject(tenant, new CreateProject().slug("training").displayName("Training"), null);
        // 16 GPUs at most: 24 GPUs in the 32-GPU pool is a quota refusal, 16 in the 8-GPU pool a capacity one
        new QuotaApi(admin)
                .replaceQuota(
                        tenant,
                        new QuotaBody()
                                .policies(List.of(new PolicyBody()
                                        .gpuType(type)
                                        .guaranteedGpus(16)
                                        .maxGpus(16)
                                        .burst(false)
                                        .maxWindow("P30D")
                                        .maxAdvance("P60D")
                                        .priority(PolicyBody.PriorityEnum.TRAINING))),
                        null);
        serviceAccount = new ServiceAccountsApi(admin)
                .createServiceAccount(
                        tenant, new CreateServiceAccount().name("ci").role(CreateServiceAccount.RoleEnum.MEMBER), null);
        config = home.resolve("allot").resolve("credentials");
    }

    @AfterAll
    static void stopAllot() throws Exception {
        if (allot != null) {
            allot.close();
        }
    }

    @Test
    @Order(1)
    void aPipelineGoesFromNothingToAReadyClusterAndBack() throws Exception {
        long began = System.nanoTime();
        CliRun login = allot(
                "login",
                "--url",
                allot.url,
                "--client-id",
                serviceAccount.getClientId(),
                "--client-secret",
                serviceAccount.getClientSecret());
        assertEquals(0, login.exitCode(), login.err());
        assertTrue(login.out().contains("tenant " + tenant), login.out());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(config)));
        String stored = Files.readString(config);
        assertTrue(stored.contains("accessTokenExpiresAt="), "the token is cached with its expiry");

        CliRun pools = allot("pools");
        assertEquals(0, pools.exitCode(), pools.err());
        assertTrue(pools.out().contains(pool), pools.out());

        CliRun earliest = allot("earliest", "--pool", pool, "--gpus", "8", "--duration", "PT1H", "--output", "json");
        assertEquals(0, earliest.exitCode(), earliest.err());
        assertFalse(earliest.json().path("windows").isEmpty(), earliest.out());

        CliRun quote = allot("quote", "--project", "training", "--pool", pool, "--gpus", "8", "--duration", "PT1H");
        assertEquals(0, quote.exitCode(), quote.err());
        assertTrue(quote.out().contains("fits") && quote.out().contains("USD"), quote.out());

        // no --start: the earliest window, which begins within the provisioning lead time
        CliRun book = allot(
                "book",
                "--project",
                "training",
                "--pool",
                pool,
                "--gpus",
                "8",
                "--duration",
                "PT1H",
                "--orchestrator",
                "SLURM",
                "--ssh-key",
                SSH_KEY,
                "--idempotency-key",
                "ci-run-1",
                "--wait",
                "READY",
                "--output",
                "json");
        assertEquals(0, book.exitCode(), book.err());
        JsonNode booked = book.json();
        assertEquals("READY", booked.path("cluster").path("state").asText(), book.out());
        String id = booked.path("reservation").path("id").asText();
        System.out.printf(
                "allot CLI: from nothing (login) to a READY cluster in %.1f s%n", (System.nanoTime() - began) / 1e9);

        // a retried step sends the same request (the window the first attempt got) with the same key
        String start = OffsetDateTime.parse(
                        booked.path("reservation").path("startsAt").asText())
                .toInstant()
                .toString();
        String end = OffsetDateTime.parse(
                        booked.path("reservation").path("endsAt").asText())
                .toInstant()
                .toString();
        CliRun again = allot(
                "book",
                "--project",
                "training",
                "--pool",
                pool,
                "--gpus",
                "8",
                "--start",
                start,
                "--end",
                end,
                "--orchestrator",
                "SLURM",
                "--ssh-key",
                SSH_KEY,
                "--idempotency-key",
                "ci-run-1",
                "--output",
                "json");
        assertEquals(0, again.exitCode(), again.err());
        assertEquals(id, again.json().path("reservation").path("id").asText(), "a retried step gets the same booking");

        CliRun status = allot("status", id);
        assertEquals(0, status.exitCode(), status.err());
        assertTrue(status.out().contains("SLURM READY"), status.out());

        // the app's default driver (fake) builds stand-in clusters: no login host, no Kubernetes API
        CliRun ssh = allot("ssh-config", id);
        assertEquals(ExitCodes.BAD_INPUT, ssh.exitCode(), ssh.out());
        assertTrue(ssh.err().contains("has no SSH endpoint (cluster SLURM READY)"), ssh.err());

        CliRun extend = allot("extend", id, "--by", "PT30M", "--output", "json");
        assertEquals(0, extend.exitCode(), extend.err());
        assertEquals(
                Duration.ofMinutes(90),
                Duration.between(
                        OffsetDateTime.parse(
                                booked.path("reservation").path("startsAt").asText()),
                        OffsetDateTime.parse(extend.json().path("endsAt").asText())));

        // waiting for the teardown frees the node for the next test's booking (the fake driver holds it till then)
        CliRun cancel = allot("cancel", id, "--wait", "DELETED");
        assertEquals(0, cancel.exitCode(), cancel.err());
        assertTrue(
                cancel.out().contains("CANCELLED")
                        || cancel.out().contains("ENDING")
                        || cancel.out().contains("COMPLETED"),
                cancel.out());

        CliRun usage = allot("usage", "--group-by", "project");
        assertEquals(0, usage.exitCode(), usage.err());
        assertTrue(usage.out().startsWith("{"), usage.out());
    }

    @Test
    @Order(2)
    void theShadedJarBooksAKubernetesClusterAsAProcess() throws Exception {
        Path jar = Path.of(System.getProperty("allot.cli.jar", "target/allot-cli.jar"));
        assertTrue(Files.isRegularFile(jar), "the shaded jar is built before the tests run: " + jar);
        ProcessBuilder builder = new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar",
                jar.toString(),
                "book",
                "--project",
                "training",
                "--pool",
                pool,
                "--gpus",
                "8",
                "--duration",
                "PT1H",
                "--wait",
                "READY",
                "--output",
                "json");
        builder.environment().put("ALLOT_CONFIG", config.toString());
        builder.redirectError(ProcessBuilder.Redirect.INHERIT);
        Process process = builder.start();
        String out = new String(process.getInputStream().readAllBytes());
        assertTrue(process.waitFor(5, TimeUnit.MINUTES));
        assertEquals(0, process.exitValue(), out);
        JsonNode booked = JSON.readTree(out);
        assertEquals("READY", booked.path("cluster").path("state").asText(), out);
        String id = booked.path("reservation").path("id").asText();

        // a stand-in (fake) cluster has no Kubernetes API: the problem's detail reaches stderr
        CliRun kubeconfig = allot("kubeconfig", id);
        assertEquals(ExitCodes.BAD_INPUT, kubeconfig.exitCode(), kubeconfig.out());
        assertTrue(kubeconfig.err().startsWith("allot: 404 no_kubeconfig: "), kubeconfig.err());
        assertEquals(0, allot("cancel", id).exitCode());
    }

    @Test
    @Order(3)
    void everyRefusalEndsWithTheExitCodeAPipelineBranchesOn() throws Exception {
        CliRun unparsable =
                allot("book", "--project", "training", "--pool", pool, "--gpus", "eight", "--duration", "PT1H");
        assertEquals(ExitCodes.BAD_INPUT, unparsable.exitCode(), unparsable.err());

        CliRun unknownPool = allot("earliest", "--pool", "no-such-pool", "--gpus", "8", "--duration", "PT1H");
        assertEquals(ExitCodes.BAD_INPUT, unknownPool.exitCode(), unknownPool.err());
        assertTrue(unknownPool.err().startsWith("allot: 4"), unknownPool.err());

        CliRun morethanThePool = allot(
                "book",
                "--project",
                "training",
                "--pool",
                smallPool,
                "--gpus",
                "16",
                "--start",
                tomorrow(),
                "--duration",
                "PT1H");
        assertEquals(ExitCodes.BAD_INPUT, morethanThePool.exitCode(), morethanThePool.err());
        assertTrue(morethanThePool.err().startsWith("allot: 400 "), morethanThePool.err());

        // the small pool's one node taken for the window, a second booking of it finds no room
        CliRun first = allot(
                "book",
                "--project",
                "training",
                "--pool",
                smallPool,
                "--gpus",
                "8",
                "--start",
                tomorrow(),
                "--duration",
                "PT1H",
                "--output",
                "json");
        assertEquals(0, first.exitCode(), first.err());
        CliRun noRoom = allot(
                "book",
                "--project",
                "training",
                "--pool",
                smallPool,
                "--gpus",
                "8",
                "--start",
                tomorrow(),
                "--duration",
                "PT1H");
        assertEquals(ExitCodes.NO_CAPACITY, noRoom.exitCode(), noRoom.err());
        assertTrue(noRoom.err().startsWith("allot: 409 capacity_not_available: "), noRoom.err());
        // the way out stays in both outputs: the earliest start and the alternatives the server named
        assertTrue(noRoom.err().contains("\nallot: earliest start 20"), noRoom.err());
        assertTrue(noRoom.err().contains("alternatives: 20"), noRoom.err());
        CliRun noRoomJson = allot(
                "book",
                "--project",
                "training",
                "--pool",
                smallPool,
                "--gpus",
                "8",
                "--start",
                tomorrow(),
                "--duration",
                "PT1H",
                "-o",
                "json");
        assertEquals(ExitCodes.NO_CAPACITY, noRoomJson.exitCode(), noRoomJson.err());
        assertEquals("capacity_not_available", noRoomJson.json().path("code").asText(), noRoomJson.out());
        assertFalse(noRoomJson.json().path("earliestStart").asText().isEmpty(), noRoomJson.out());
        assertFalse(noRoomJson.json().path("alternatives").isEmpty(), noRoomJson.out());
        CliRun quoteNoRoom = allot(
                "quote",
                "--project",
                "training",
                "--pool",
                smallPool,
                "--gpus",
                "8",
                "--start",
                tomorrow(),
                "--duration",
                "PT1H");
        assertEquals(ExitCodes.NO_CAPACITY, quoteNoRoom.exitCode(), quoteNoRoom.err());
        assertEquals(
                0,
                allot("cancel", first.json().path("reservation").path("id").asText())
                        .exitCode());

        CliRun overQuota = allot(
                "book",
                "--project",
                "training",
                "--pool",
                pool,
                "--gpus",
                "24",
                "--start",
                tomorrow(),
                "--duration",
                "PT1H");
        assertEquals(ExitCodes.QUOTA, overQuota.exitCode(), overQuota.err());
        assertTrue(overQuota.err().startsWith("allot: 422 "), overQuota.err());
        CliRun quoteOverQuota = allot(
                "quote",
                "--project",
                "training",
                "--pool",
                pool,
                "--gpus",
                "24",
                "--start",
                tomorrow(),
                "--duration",
                "PT1H");
        assertEquals(ExitCodes.QUOTA, quoteOverQuota.exitCode(), quoteOverQuota.err());

        CliRun badSecret = allot(
                "login",
                "--url",
                allot.url,
                "--client-id",
                serviceAccount.getClientId(),
                "--client-secret",
                "not-the-secret",
                "--config",
                home.resolve("other").toString());
        assertEquals(ExitCodes.AUTH, badSecret.exitCode(), badSecret.err());
        assertTrue(badSecret.err().contains("invalid_client"), badSecret.err());

        CliRun notSignedIn = allot("pools", "--config", home.resolve("nowhere").toString());
        assertEquals(ExitCodes.AUTH, notSignedIn.exitCode(), notSignedIn.err());
    }

    @Test
    @Order(4)
    void aWaitThatTimesOutStillPrintsTheBookingAndASecondCancelIsIdempotent() throws Exception {
        CliRun timedOut = allot(
                "book",
                "--project",
                "training",
                "--pool",
                pool,
                "--gpus",
                "8",
                "--start",
                inDays(3),
                "--duration",
                "PT1H",
                "--wait",
                "READY",
                "--wait-timeout",
                "PT2S",
                "-o",
                "json");

        assertEquals(ExitCodes.WAIT_TIMED_OUT, timedOut.exitCode(), timedOut.err());
        JsonNode kept = timedOut.json();
        String id = kept.path("reservation").path("id").asText();
        assertFalse(id.isEmpty(), timedOut.out());
        assertEquals("TIMED_OUT", kept.path("outcome").asText(), timedOut.out());
        assertFalse(
                kept.path("cluster").path("state").asText().isEmpty(), "the cluster as last seen: " + timedOut.out());
        assertTrue(kept.path("idempotencyKey").asText().startsWith("allot-cli-"), timedOut.out());
        assertTrue(
                timedOut.err().contains("not READY within PT2S")
                        && timedOut.err().contains("is still booked"),
                timedOut.err());
        CliRun status = allot("status", id, "-o", "json");
        assertEquals(
                "CONFIRMED", status.json().path("reservation").path("status").asText(), status.out());

        assertEquals(0, allot("cancel", id).exitCode());
        CliRun again = allot("cancel", id, "-o", "json");
        assertEquals(ExitCodes.OK, again.exitCode(), again.err());
        assertEquals("CANCELLED", again.json().path("status").asText(), again.out());
        assertTrue(again.err().contains("already CANCELLED"), again.err());
    }

    @Test
    @Order(5)
    void cancelOnFailureCancelsABookingWhoseWaitTimedOutAndSaysSo() throws Exception {
        CliRun timedOut = allot(
                "book",
                "--project",
                "training",
                "--pool",
                pool,
                "--gpus",
                "8",
                "--start",
                inDays(3),
                "--duration",
                "PT1H",
                "--wait",
                "READY",
                "--wait-timeout",
                "PT2S",
                "--cancel-on-failure",
                "-o",
                "json");

        assertEquals(ExitCodes.WAIT_TIMED_OUT, timedOut.exitCode(), timedOut.err());
        assertTrue(timedOut.json().path("cancelled").asBoolean(), timedOut.out());
        assertEquals(
                "CANCELLED", timedOut.json().path("reservation").path("status").asText(), timedOut.out());
        assertTrue(timedOut.err().contains("cancelled reservation"), timedOut.err());
        String id = timedOut.json().path("reservation").path("id").asText();
        assertEquals(
                "CANCELLED",
                allot("status", id, "-o", "json")
                        .json()
                        .path("reservation")
                        .path("status")
                        .asText());
    }

    @Test
    @Order(6)
    void aStepRunAgainWithTheSameKeyAndNoStartGetsTheSameBooking() throws Exception {
        // the small pool has one node: once booked, the earliest window moves, so only a kept window replays
        String key = "nightly-" + System.nanoTime();
        CliRun first = allot(
                "book",
                "--project",
                "training",
                "--pool",
                smallPool,
                "--gpus",
                "8",
                "--duration",
                "PT1H",
                "--idempotency-key",
                key,
                "-o",
                "json");
        assertEquals(ExitCodes.OK, first.exitCode(), first.err());
        CliRun again = allot(
                "book",
                "--project",
                "training",
                "--pool",
                smallPool,
                "--gpus",
                "8",
                "--duration",
                "PT1H",
                "--idempotency-key",
                key,
                "-o",
                "json");

        assertEquals(ExitCodes.OK, again.exitCode(), again.err());
        String id = first.json().path("reservation").path("id").asText();
        assertEquals(id, again.json().path("reservation").path("id").asText(), "the same booking, not a second one");
        assertEquals(key, again.json().path("idempotencyKey").asText());
        assertEquals(0, allot("cancel", id, "--wait", "DELETED").exitCode());
    }

    @Test
    @Order(7)
    void anInterruptedWaitStillPrintsTheBooking() throws Exception {
        int before = allot("list", "--status", "CONFIRMED", "-o", "json")
                .json()
                .path("items")
                .size();
        Path jar = Path.of(System.getProperty("allot.cli.jar", "target/allot-cli.jar"));
        ProcessBuilder builder = new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar",
                jar.toString(),
                "book",
                "--project",
                "training",
                "--pool",
                pool,
                "--gpus",
                "8",
                "--start",
                inDays(4),
                "--duration",
                "PT1H",
                "--wait",
                "READY",
                "--output",
                "json");
        builder.environment().put("ALLOT_CONFIG", config.toString());
        builder.redirectError(home.resolve("interrupted.err").toFile());
        // destroy() closes the process's pipes: its stdout goes to a file
        Path stdout = home.resolve("interrupted.json");
        builder.redirectOutput(stdout.toFile());
        Process process = builder.start();
        Instant deadline = Instant.now().plus(Duration.ofMinutes(1));
        while (allot("list", "--status", "CONFIRMED", "-o", "json")
                        .json()
                        .path("items")
                        .size()
                == before) {
            assertTrue(Instant.now().isBefore(deadline) && process.isAlive(), "the booking was not made");
            Thread.sleep(200);
        }
        Thread.sleep(1000);
        process.destroy();
        assertTrue(process.waitFor(30, TimeUnit.SECONDS));
        String out = Files.readString(stdout);

        JsonNode kept = JSON.readTree(out);
        assertEquals(
                "INTERRUPTED", kept.path("outcome").asText(), out + Files.readString(home.resolve("interrupted.err")));
        String id = kept.path("reservation").path("id").asText();
        assertEquals(
                "CONFIRMED",
                allot("status", id, "-o", "json")
                        .json()
                        .path("reservation")
                        .path("status")
                        .asText());
        assertEquals(0, allot("cancel", id).exitCode());
    }

    @Test
    @Order(8)
    void aDegradedClusterEndsAWaitForReadyAtOnceWithItsReason() throws Exception {
        CliRun book = allot(
                "book",
                "--project",
                "training",
                "--pool",
                smallPool,
                "--gpus",
                "8",
                "--duration",
                "PT1H",
                "--wait",
                "READY",
                "-o",
                "json");
        assertEquals(ExitCodes.OK, book.exitCode(), book.err());
        String id = book.json().path("reservation").path("id").asText();
        NodesApi nodes = new NodesApi(client(Tokens.fetch(allot.url, allot.adminClientId, allot.adminClientSecret)
                .value()));
        // the pool's only node fails: no node can take its place, so the cluster stays DEGRADED
        nodes.quarantineNode(smallPool + "-n0", new StateReason().reason("e2e: a failing node"));
        try {
            Instant deadline = Instant.now().plus(Duration.ofMinutes(2));
            String state = "";
            while (!"DEGRADED".equals(state) && Instant.now().isBefore(deadline)) {
                Thread.sleep(500);
                state = allot("status", id, "-o", "json")
                        .json()
                        .path("cluster")
                        .path("state")
                        .asText();
            }
            assertEquals("DEGRADED", state);

            long began = System.nanoTime();
            CliRun wait = allot("wait", id, "--for", "READY", "-o", "json");
            Duration took = Duration.ofNanos(System.nanoTime() - began);

            assertEquals(ExitCodes.WAIT_ENDED, wait.exitCode(), wait.err());
            assertTrue(took.compareTo(Duration.ofSeconds(10)) < 0, "no waiting (nor polling) on: " + took);
            assertEquals("ENDED", wait.json().path("outcome").asText(), wait.out());
            assertTrue(wait.err().contains("will not be READY: it is DEGRADED"), wait.err());
        } finally {
            nodes.releaseNode(smallPool + "-n0", new StateReason().reason("e2e: repaired"));
            allot("cancel", id);
        }
    }

    /** Runs the CLI in-process with the test's credentials file unless the arguments name another. */
    static CliRun allot(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        if (!all.contains("--config") && !all.contains("--help")) {
            all.add("--config");
            all.add(config.toString());
        }
        return CliRun.of(all);
    }

    static String inDays(int days) {
        return Instant.now()
                .plus(Duration.ofDays(days))
                .truncatedTo(ChronoUnit.HOURS)
                .toString();
    }

    static String tomorrow() {
        return Instant.now()
                .plus(Duration.ofDays(1))
                .truncatedTo(ChronoUnit.HOURS)
                .toString();
    }

    static ApiClient client(String token) {
        ApiClient api = new ApiClient();
        api.updateBaseUri(URI.create(allot.url).toString());
        api.setRequestInterceptor((request) -> request.header("Authorization", "Bearer " + token));
        return api;
    }

    static CreateNode node(String hostname, int block) {
        return new CreateNode()
                .hostname(hostname)
                .rack("rack-" + block)
                .ibBlock("ib-" + block)
                .cudaDrivers(List.of("550.54", "560.35"));
    }
}
