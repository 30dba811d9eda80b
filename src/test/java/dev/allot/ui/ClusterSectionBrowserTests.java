package dev.allot.ui;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import com.github.kagkarlsson.scheduler.task.Task;
import com.github.kagkarlsson.scheduler.testhelper.ManualScheduler;
import com.github.kagkarlsson.scheduler.testhelper.SettableClock;
import com.github.kagkarlsson.scheduler.testhelper.TestHelper;
import dev.allot.support.Api;
import dev.allot.support.BrowserTest;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The cluster section a reservation page includes, as a member sees it once the cluster is ready. */
class ClusterSectionBrowserTests extends BrowserTest {

	@Autowired
	DataSource dataSource;

	@Autowired
	List<Task<?>> tasks;

	@Test
	void aMemberSeesTheReadyClusterItsNodesAndTheTimeline() {
		String tenant = newTenant();
		newProject(tenant, "training");
		String member = newUser();
		addMember(tenant, member, "MEMBER");
		String pool = unique("p");
		String type = "T" + Long.toString(System.nanoTime(), 36).toUpperCase();
		admin("/api/v1/gpu-types", Map.of("code", type, "memoryGb", 80), 201);
		api.put("/api/v1/rate-cards/" + type, adminToken(), Map.of("effectiveFrom", "2020-01-01", "currency", "USD",
				"prices", Map.of("RESERVED", 2.00, "BORROWED", 1.50, "ON_DEMAND", 4.00)));
		admin("/api/v1/pools", Map.of("name", pool, "gpuType", type, "gpusPerNode", 8, "region", "eu-test-1"), 201);
		admin("/api/v1/pools/" + pool + "/nodes", Map.of("hostname", pool + "-n0", "rack", "r0", "ibBlock", "ib0",
				"cudaDrivers", List.of("550.54")), 201);
		api.put("/api/v1/tenants/" + tenant + "/quota", adminToken(), Map.of("policies", List.of(Map.of("gpuType", type,
				"guaranteedGpus", 8, "maxGpus", 8, "burst", false, "maxWindow", "P30D", "maxAdvance", "P60D", "priority",
				"TRAINING"))));
		Instant start = Instant.now().truncatedTo(ChronoUnit.HOURS).plus(Duration.ofHours(3));
		// Only this test's steps are to run (see LifecycleTest): retire other tests' clusters first.
		jdbc.sql("DELETE FROM scheduled_tasks WHERE task_name LIKE 'cluster-%'").update();
		jdbc.sql("UPDATE cluster SET open = false, state = 'DELETED' WHERE open").update();
		Api.Response booked = api.post("/api/v1/tenants/" + tenant + "/reservations", tenantToken(tenant, "MEMBER"),
				Map.of("project", "training", "pool", pool, "gpus", 8, "startsAt", start.toString(), "endsAt",
						start.plus(Duration.ofHours(2)).toString(), "cluster", Map.of("orchestrator", "SLURM")));
		assertThat(booked.status()).as(booked.body()).isEqualTo(201);
		String id = booked.json().get("id").asString();
		await().atMost(Duration.ofSeconds(30))
			.until(() -> jdbc.sql("SELECT count(*) FROM scheduled_tasks WHERE task_instance = ?").param(id)
				.query(Long.class).single() == 2);
		SettableClock clock = new SettableClock();
		ManualScheduler scheduler = TestHelper.createManualScheduler(dataSource,
				tasks.stream().filter(t -> t.getName().equals("cluster-provision")).toList()).clock(clock).build();
		clock.set(start.minus(Duration.ofMinutes(15)));
		scheduler.runAnyDueExecutions();

		signIn(member);
		open("/tenants/" + tenant + "/reservations/" + id + "/cluster");

		assertThat(find("#cluster-state").getText()).isEqualTo("READY");
		assertThat(find("#cluster-reservation-status").getText()).isEqualTo("ACTIVE");
		assertThat(find("#cluster-nodes tr[data-node='" + pool + "-n0']").getText()).contains("PASSED");
		assertThat(findAll("#cluster-timeline li")).hasSize(5);
		assertThat(find("#cluster-timeline li:last-child").getText()).contains("Provisioning done", "handed over");
		assertThat(find("#cluster-connect").getText()).contains("fake://allot-" + id, "Grafana");
		screenshot("cluster-section-ready");

		String stranger = newUser();
		addMember(newTenant(), stranger, "MEMBER");
		signIn(stranger);
		open("/tenants/" + tenant + "/reservations/" + id + "/cluster");
		assertThat(exists("#cluster")).isFalse();
	}

	private void admin(String path, Object body, int expected) {
		Api.Response response = api.post(path, adminToken(), body);
		assertThat(response.status()).as(response.body()).isEqualTo(expected);
	}

}
