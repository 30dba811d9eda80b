package dev.allot.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The CLI against the packaged application: a platform admin builds a fleet and a tenant through the generated
 * client, then a pipeline (the tenant's service account) drives {@code allot} from nothing to a READY cluster and
 * back, and every exit code a pipeline branches on is provoked once.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CliEndToEndTests {

	static final String SSH_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHb3e0kH0Jx2y5Q0m7p9a1c2d3e4f5g6h7i8j9k0l1m2 ci@example";

	static final ObjectMapper JSON = new ObjectMapper();

	static RunningAllot allot;

	static String tenant;

	static String pool;

	static String smallPool;

	static CreatedBody serviceAccount;

	@TempDir
	static Path home;

	static Path config;

	record Run(int exitCode, String out, String err) {

		JsonNode json() throws Exception {
			return JSON.readTree(this.out);
		}

	}

	@BeforeAll
	static void startAllotAndBuildAFleet() throws Exception {
		allot = RunningAllot.start();
		ApiClient admin = client(Tokens.fetch(allot.url, allot.adminClientId, allot.adminClientSecret).value());
		String suffix = Long.toString(ThreadLocalRandom.current().nextLong(1L << 30, 1L << 35), 36);
		String type = "E2E" + suffix.toUpperCase();
		new GpuTypesApi(admin).createGpuType(new CreateGpuType().code(type).memoryGb(80).interconnect("NVLINK"), null);
		new RateCardsApi(admin).replaceRateCard(type, new PutCard().effectiveFrom(LocalDate.parse("2020-01-01"))
			.currency("USD")
			.prices(Map.of("RESERVED", new BigDecimal("2.00"), "BORROWED", new BigDecimal("1.50"), "ON_DEMAND",
					new BigDecimal("4.00"))));
		pool = "ci-" + suffix;
		smallPool = "ci-small-" + suffix;
		PoolsApi pools = new PoolsApi(admin);
		pools.createPool(new CreatePool().name(pool).gpuType(type).gpusPerNode(8).region("eu-test-1"), null);
		pools.createPool(new CreatePool().name(smallPool).gpuType(type).gpusPerNode(8).region("eu-test-1"), null);
		NodesApi nodes = new NodesApi(admin);
		for (int i = 0; i < 4; i++) {
			nodes.addNode(pool, node(pool + "-n" + i, i / 2), null);
		}
		nodes.addNode(smallPool, node(smallPool + "-n0", 0), null);
		tenant = "t-" + suffix;
		new TenantsApi(admin).createTenant(new CreateTenant().slug(tenant).displayName("CI " + suffix), null);
		new ProjectsApi(admin).createProject(tenant, new CreateProject().slug("training").displayName("Training"), null);
		// 16 GPUs at most: 24 GPUs in the 32-GPU pool is a quota refusal, 16 in the 8-GPU pool a capacity one
		new QuotaApi(admin).replaceQuota(tenant, new QuotaBody().policies(List.of(new PolicyBody().gpuType(type)
			.guaranteedGpus(16)
			.maxGpus(16)
			.burst(false)
			.maxWindow("P30D")
			.maxAdvance("P60D")
			.priority(PolicyBody.PriorityEnum.TRAINING))), null);
		serviceAccount = new ServiceAccountsApi(admin).createServiceAccount(tenant,
				new CreateServiceAccount().name("ci").role(CreateServiceAccount.RoleEnum.MEMBER), null);
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
		Run login = allot("login", "--url", allot.url, "--client-id", serviceAccount.getClientId(), "--client-secret",
				serviceAccount.getClientSecret());
		assertEquals(0, login.exitCode(), login.err());
		assertTrue(login.out().contains("tenant " + tenant), login.out());
		assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(config)));
		String stored = Files.readString(config);
		assertTrue(stored.contains("accessTokenExpiresAt="), "the token is cached with its expiry");

		Run pools = allot("pools");
		assertEquals(0, pools.exitCode(), pools.err());
		assertTrue(pools.out().contains(pool), pools.out());

		Run earliest = allot("earliest", "--pool", pool, "--gpus", "8", "--duration", "PT1H", "--output", "json");
		assertEquals(0, earliest.exitCode(), earliest.err());
		assertFalse(earliest.json().path("windows").isEmpty(), earliest.out());

		Run quote = allot("quote", "--project", "training", "--pool", pool, "--gpus", "8", "--duration", "PT1H");
		assertEquals(0, quote.exitCode(), quote.err());
		assertTrue(quote.out().contains("fits") && quote.out().contains("USD"), quote.out());

		// no --start: the earliest window, which begins within the provisioning lead time
		Run book = allot("book", "--project", "training", "--pool", pool, "--gpus", "8", "--duration", "PT1H",
				"--orchestrator", "SLURM", "--ssh-key", SSH_KEY, "--idempotency-key", "ci-run-1", "--wait", "READY",
				"--output", "json");
		assertEquals(0, book.exitCode(), book.err());
		JsonNode booked = book.json();
		assertEquals("READY", booked.path("cluster").path("state").asText(), book.out());
		String id = booked.path("reservation").path("id").asText();
		System.out.printf("allot CLI: from nothing (login) to a READY cluster in %.1f s%n",
				(System.nanoTime() - began) / 1e9);

		// a retried step sends the same request (the window the first attempt got) with the same key
		String start = OffsetDateTime.parse(booked.path("reservation").path("startsAt").asText()).toInstant().toString();
		String end = OffsetDateTime.parse(booked.path("reservation").path("endsAt").asText()).toInstant().toString();
		Run again = allot("book", "--project", "training", "--pool", pool, "--gpus", "8", "--start", start, "--end",
				end, "--orchestrator", "SLURM", "--ssh-key", SSH_KEY, "--idempotency-key", "ci-run-1", "--output",
				"json");
		assertEquals(0, again.exitCode(), again.err());
		assertEquals(id, again.json().path("reservation").path("id").asText(), "a retried step gets the same booking");

		Run status = allot("status", id);
		assertEquals(0, status.exitCode(), status.err());
		assertTrue(status.out().contains("SLURM READY"), status.out());

		// the app's default driver (fake) builds stand-in clusters: no login host, no Kubernetes API
		Run ssh = allot("ssh-config", id);
		assertEquals(ExitCodes.BAD_INPUT, ssh.exitCode(), ssh.out());
		assertTrue(ssh.err().contains("has no SSH endpoint (cluster SLURM READY)"), ssh.err());

		Run extend = allot("extend", id, "--by", "PT30M", "--output", "json");
		assertEquals(0, extend.exitCode(), extend.err());
		assertEquals(Duration.ofMinutes(90),
				Duration.between(OffsetDateTime.parse(booked.path("reservation").path("startsAt").asText()),
						OffsetDateTime.parse(extend.json().path("endsAt").asText())));

		// waiting for the teardown frees the node for the next test's booking (the fake driver holds it till then)
		Run cancel = allot("cancel", id, "--wait", "DELETED");
		assertEquals(0, cancel.exitCode(), cancel.err());
		assertTrue(cancel.out().contains("CANCELLED") || cancel.out().contains("ENDING")
				|| cancel.out().contains("COMPLETED"), cancel.out());

		Run usage = allot("usage", "--group-by", "project");
		assertEquals(0, usage.exitCode(), usage.err());
		assertTrue(usage.out().startsWith("{"), usage.out());
	}

	@Test
	@Order(2)
	void theShadedJarBooksAKubernetesClusterAsAProcess() throws Exception {
		Path jar = Path.of(System.getProperty("allot.cli.jar", "target/allot-cli.jar"));
		assertTrue(Files.isRegularFile(jar), "the shaded jar is built before the tests run: " + jar);
		ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-jar", jar.toString(), "book", "--project", "training", "--pool", pool, "--gpus", "8", "--duration",
				"PT1H", "--wait", "READY", "--output", "json");
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
		Run kubeconfig = allot("kubeconfig", id);
		assertEquals(ExitCodes.BAD_INPUT, kubeconfig.exitCode(), kubeconfig.out());
		assertTrue(kubeconfig.err().startsWith("allot: 404 no_kubeconfig: "), kubeconfig.err());
		assertEquals(0, allot("cancel", id).exitCode());
	}

	@Test
	@Order(3)
	void everyRefusalEndsWithTheExitCodeAPipelineBranchesOn() throws Exception {
		Run unparsable = allot("book", "--project", "training", "--pool", pool, "--gpus", "eight", "--duration", "PT1H");
		assertEquals(ExitCodes.BAD_INPUT, unparsable.exitCode(), unparsable.err());

		Run unknownPool = allot("earliest", "--pool", "no-such-pool", "--gpus", "8", "--duration", "PT1H");
		assertEquals(ExitCodes.BAD_INPUT, unknownPool.exitCode(), unknownPool.err());
		assertTrue(unknownPool.err().startsWith("allot: 4"), unknownPool.err());

		Run morethanThePool = allot("book", "--project", "training", "--pool", smallPool, "--gpus", "16", "--start",
				tomorrow(), "--duration", "PT1H");
		assertEquals(ExitCodes.BAD_INPUT, morethanThePool.exitCode(), morethanThePool.err());
		assertTrue(morethanThePool.err().startsWith("allot: 400 "), morethanThePool.err());

		// the small pool's one node taken for the window, a second booking of it finds no room
		Run first = allot("book", "--project", "training", "--pool", smallPool, "--gpus", "8", "--start", tomorrow(),
				"--duration", "PT1H", "--output", "json");
		assertEquals(0, first.exitCode(), first.err());
		Run noRoom = allot("book", "--project", "training", "--pool", smallPool, "--gpus", "8", "--start", tomorrow(),
				"--duration", "PT1H");
		assertEquals(ExitCodes.NO_CAPACITY, noRoom.exitCode(), noRoom.err());
		assertTrue(noRoom.err().startsWith("allot: 409 capacity_not_available: "), noRoom.err());
		Run quoteNoRoom = allot("quote", "--project", "training", "--pool", smallPool, "--gpus", "8", "--start",
				tomorrow(), "--duration", "PT1H");
		assertEquals(ExitCodes.NO_CAPACITY, quoteNoRoom.exitCode(), quoteNoRoom.err());
		assertEquals(0, allot("cancel", first.json().path("reservation").path("id").asText()).exitCode());

		Run overQuota = allot("book", "--project", "training", "--pool", pool, "--gpus", "24", "--start",
				tomorrow(),
				"--duration", "PT1H");
		assertEquals(ExitCodes.QUOTA, overQuota.exitCode(), overQuota.err());
		assertTrue(overQuota.err().startsWith("allot: 422 "), overQuota.err());
		Run quoteOverQuota = allot("quote", "--project", "training", "--pool", pool, "--gpus", "24", "--start",
				tomorrow(), "--duration", "PT1H");
		assertEquals(ExitCodes.QUOTA, quoteOverQuota.exitCode(), quoteOverQuota.err());

		Run badSecret = allot("login", "--url", allot.url, "--client-id", serviceAccount.getClientId(),
				"--client-secret", "not-the-secret", "--config", home.resolve("other").toString());
		assertEquals(ExitCodes.AUTH, badSecret.exitCode(), badSecret.err());
		assertTrue(badSecret.err().contains("invalid_client"), badSecret.err());

		Run notSignedIn = allot("pools", "--config", home.resolve("nowhere").toString());
		assertEquals(ExitCodes.AUTH, notSignedIn.exitCode(), notSignedIn.err());
	}

	/** Runs the CLI in-process with the test's credentials file unless the arguments name another. */
	static Run allot(String... args) {
		List<String> all = new ArrayList<>(List.of(args));
		if (!all.contains("--config") && !all.contains("--help")) {
			all.add("--config");
			all.add(config.toString());
		}
		StringWriter out = new StringWriter();
		StringWriter err = new StringWriter();
		int exit = Allot.commandLine()
			.setOut(new PrintWriter(out, true))
			.setErr(new PrintWriter(err, true))
			.execute(all.toArray(String[]::new));
		return new Run(exit, out.toString(), err.toString());
	}

	static String tomorrow() {
		return Instant.now().plus(Duration.ofDays(1)).truncatedTo(ChronoUnit.HOURS).toString();
	}

	static ApiClient client(String token) {
		ApiClient api = new ApiClient();
		api.updateBaseUri(URI.create(allot.url).toString());
		api.setRequestInterceptor((request) -> request.header("Authorization", "Bearer " + token));
		return api;
	}

	static CreateNode node(String hostname, int block) {
		return new CreateNode().hostname(hostname)
			.rack("rack-" + block)
			.ibBlock("ib-" + block)
			.cudaDrivers(List.of("550.54", "560.35"));
	}

}
