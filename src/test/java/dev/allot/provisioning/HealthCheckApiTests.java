package dev.allot.provisioning;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import dev.allot.provisioning.driver.fake.FakeDriver;
import dev.allot.support.Api;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;

/** On-demand health checks of a ready cluster's nodes, through the fake driver, which runs them. */
class HealthCheckApiTests extends LifecycleTest {

	@Autowired
	FakeDriver fake;

	@BeforeEach
	void resetTheFakeDriver() {
		fake.reset();
	}

	@Test
	void aMemberChecksTheNodesAndAFailingNodeDegradesTheClusterUntilACheckPasses() {
		Setup s = fleet(2);
		Instant start = hour(3);
		String id = bookAndAwaitSchedule(s, 16, start, hour(4), "KUBERNETES");
		Instant ready = start.minus(Duration.ofMinutes(15));
		runDueAt(ready);
		String bad = s.nodes().get(0);
		fake.failHealthChecksOn(bad);

		Api.Response asked = api.post(path(s, id) + "/health-checks", s.token(), Map.of("kind", "NVIDIA_SMI"),
				"Idempotency-Key", "check-1");
		assertThat(asked.status()).as(asked.body()).isEqualTo(202);
		assertThat(asked.json().get("status").asString()).isEqualTo("QUEUED");
		String location = asked.header("Location");
		Api.Response again = api.post(path(s, id) + "/health-checks", s.token(), Map.of("kind", "NVIDIA_SMI"),
				"Idempotency-Key", "check-1");
		assertThat(again.status()).isEqualTo(202);
		assertThat(again.header("Idempotent-Replayed")).isEqualTo("true");
		assertThat(again.header("Location")).isEqualTo(location);

		runDueAt(ready.plusSeconds(60));

		JsonNode check = api.get(location, s.token()).json();
		assertThat(check.get("status").asString()).isEqualTo("FAILED");
		assertThat(check.get("results").valueStream().filter(r -> !r.get("passed").asBoolean())
			.map(r -> r.get("node").asString())).containsExactly(bad);
		JsonNode degraded = cluster(s, id);
		assertThat(degraded.get("state").asString()).isEqualTo("DEGRADED");
		assertThat(degraded.get("stateReason").asString()).isEqualTo("A health check failed on " + bad);
		assertThat(degraded.get("reservationStatus").asString()).isEqualTo("ACTIVE");

		fake.reset(); // the node is healthy again
		Api.Response recheck = api.post(path(s, id) + "/health-checks", s.token(), Map.of());
		runDueAt(ready.plusSeconds(120));
		assertThat(api.get(recheck.header("Location"), s.token()).json().get("status").asString()).isEqualTo("PASSED");
		assertThat(cluster(s, id).get("state").asString()).isEqualTo("READY");
	}

	@Test
	void aClusterThatIsNotReadyCannotBeCheckedAndAnotherTenantsCheckIsNotFound() {
		Setup s = fleet(1);
		Instant start = hour(3);
		String id = bookAndAwaitSchedule(s, 8, start, hour(4), "SLURM");

		Api.Response early = api.post(path(s, id) + "/health-checks", s.token(), Map.of());
		assertThat(early.status()).isEqualTo(409);
		assertThat(early.json().get("type").asString()).isEqualTo("https://allot.dev/problems/cluster_not_ready");

		runDueAt(start.minus(Duration.ofMinutes(15)));
		Api.Response asked = api.post(path(s, id) + "/health-checks", s.token(), Map.of("kind", "DCGM_DIAG"));
		assertThat(asked.status()).isEqualTo(202);
		Setup stranger = fleet(1);
		assertThat(api.get(asked.header("Location"), stranger.token()).status()).isEqualTo(404);
		assertThat(api.post(path(s, id) + "/health-checks", stranger.token(), Map.of()).status()).isEqualTo(404);
		assertThat(api.post(path(s, id) + "/health-checks", tenantToken(s.tenant(), "VIEWER"), Map.of()).status())
			.isEqualTo(403);
	}

}
