package dev.allot.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.kagkarlsson.scheduler.task.Task;
import com.github.kagkarlsson.scheduler.testhelper.ManualScheduler;
import com.github.kagkarlsson.scheduler.testhelper.SettableClock;
import com.github.kagkarlsson.scheduler.testhelper.TestHelper;
import dev.allot.shared.security.PlatformRole;
import dev.allot.support.Api;
import dev.allot.support.BrowserTest;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.support.ui.Select;
import org.springframework.beans.factory.annotation.Autowired;

/** The cluster section a reservation page includes, as a member sees it once the cluster is ready. */
class ClusterSectionBrowserTests extends BrowserTest {

    @Autowired
    DataSource dataSource;

    @Autowired
    List<Task<?>> tasks;

    @Test
    void aMemberSeesTheReadyClusterItsNodesAndTheTimeline() {
        Ready r = readyCluster();

        signIn(r.member());
        open("/tenants/" + r.tenant() + "/reservations/" + r.id() + "/cluster");

        // states in words, never the API's codes (READY, NOT_CHECKED, ...)
        assertThat(find("#cluster-state").getText()).isEqualTo("Ready");
        assertThat(find("#cluster-reservation-status").getText()).isEqualTo("Active");
        assertThat(find("#cluster-nodes tr[data-node='" + r.pool() + "-n0']").getText())
                .contains("Passed");
        assertThat(find("#cluster").getText())
                .doesNotContainPattern(
                        "\\b(READY|ACTIVE|PASSED|FAILED|PENDING|PROVISIONING|DEGRADED|NOT_CHECKED|SUCCEEDED|RUNNING|DONE)\\b");
        // each step of the lifecycle, and what the driver built (for the fake driver, one entry saying it built
        // nothing)
        assertThat(findAll("#cluster-timeline li")).hasSize(6);
        assertThat(find("#cluster-timeline").getText()).contains("fake driver: nothing is built");
        assertThat(find("#cluster-timeline li:last-child").getText()).contains("Provisioning done", "handed over");
        assertThat(find("#cluster-connect").getText()).contains("fake://allot-" + r.id(), "Grafana");
        screenshot("cluster-section-ready");

        String stranger = newUser();
        addMember(newTenant(), stranger, "MEMBER");
        signIn(stranger);
        open("/tenants/" + r.tenant() + "/reservations/" + r.id() + "/cluster");
        assertThat(exists("#cluster")).isFalse();
    }

    @Test
    void aMemberAndAPlatformAdminRunChecksFromTheReservationPageAndSeeTheResultPerNodeAViewerIsToldWhyNot() {
        Ready r = readyCluster();

        signIn(r.member());
        open("/tenants/" + r.tenant() + "/reservations/" + r.id());
        waitFor(driver -> exists("#run-check"));
        new Select(find("#health-check-kind")).selectByValue("NVIDIA_SMI");
        find("#run-check").click();
        waitFor(driver -> exists("#health-check-status")
                && find("#health-check-status").getText().contains("Queued"));
        assertThat(find("#health-check-status").getText())
                .contains("nvidia-smi", "Running on every node")
                .doesNotContain("NVIDIA_SMI");

        runQueuedChecks();

        waitFor(driver -> find("#health-check-status").getText().contains("Passed"));
        assertThat(find("#health-check-results tr[data-node='" + r.pool() + "-n0']")
                        .getText())
                .contains("Passed");
        checkAccessibility();
        screenshot("cluster-section-health-check");

        // a platform admin, in no tenant, on this tenant's reservation
        signIn(newUser(PlatformRole.PLATFORM_ADMIN));
        open("/tenants/" + r.tenant() + "/reservations/" + r.id());
        waitFor(driver -> exists("#run-check"));
        new Select(find("#health-check-kind")).selectByValue("GPU_BURN");
        find("#run-check").click();
        waitFor(driver -> exists("#health-check-status")
                && find("#health-check-status").getText().contains("gpu_burn"));
        runQueuedChecks();
        waitFor(driver -> find("#health-check-status").getText().contains("Passed"));

        String viewer = newUser();
        addMember(r.tenant(), viewer, "VIEWER");
        signIn(viewer);
        open("/tenants/" + r.tenant() + "/reservations/" + r.id());
        waitFor(driver -> exists("#run-check"));
        find("#run-check").click();
        waitFor(driver -> exists("#health-check-refusal"));
        assertThat(find("#health-check-refusal").getText()).startsWith("The check cannot run: ");
        System.out.println(
                "Refusal shown to a viewer: " + find("#health-check-refusal").getText());
        checkAccessibility();
    }

    /** A member's fake-driver cluster, READY, on the one node {@code <pool>-n0} of a new pool. */
    private record Ready(String tenant, String member, String pool, String id) {}

    private Ready readyCluster() {
        String tenant = newTenant();
        String member = newUser();
        addMember(tenant, member, "MEMBER");
        String pool = unique("p");
        newProject(tenant, "training");
        String type = "T" + Long.toString(System.nanoTime(), 36).toUpperCase();
        admin("/api/v1/gpu-types", Map.of("code", type, "memoryGb", 80), 201);
        api.put(
                "/api/v1/rate-cards/" + type,
                adminToken(),
                Map.of(
                        "effectiveFrom",
                        "2020-01-01",
                        "currency",
                        "USD",
                        "prices",
                        Map.of("RESERVED", 2.00, "BORROWED", 1.50, "ON_DEMAND", 4.00)));
        admin("/api/v1/pools", Map.of("name", pool, "gpuType", type, "gpusPerNode", 8, "region", "eu-test-1"), 201);
        admin(
                "/api/v1/pools/" + pool + "/nodes",
                Map.of("hostname", pool + "-n0", "rack", "r0", "ibBlock", "ib0", "cudaDrivers", List.of("550.54")),
                201);
        api.put(
                "/api/v1/tenants/" + tenant + "/quota",
                adminToken(),
                Map.of(
                        "policies",
                        List.of(Map.of(
                                "gpuType",
                                type,
                                "guaranteedGpus",
                                8,
                                "maxGpus",
                                8,
                                "burst",
                                false,
                                "maxWindow",
                                "P30D",
                                "maxAdvance",
                                "P60D",
                                "priority",
                                "TRAINING"))));
        Instant start = Instant.now().truncatedTo(ChronoUnit.HOURS).plus(Duration.ofHours(3));
        // Only this test's steps are to run (see LifecycleTest): retire other tests' clusters first.
        jdbc.sql("DELETE FROM scheduled_tasks WHERE task_name LIKE 'cluster-%'").update();
        jdbc.sql("UPDATE cluster SET open = false, state = 'DELETED' WHERE open")
                .update();
        Api.Response booked = api.post(
                "/api/v1/tenants/" + tenant + "/reservations",
                tenantToken(tenant, "MEMBER"),
                Map.of(
                        "project",
                        "training",
                        "pool",
                        pool,
                        "gpus",
                        8,
                        "startsAt",
                        start.toString(),
                        "endsAt",
                        start.plus(Duration.ofHours(2)).toString(),
                        "cluster",
                        Map.of("orchestrator", "SLURM")));
        assertThat(booked.status()).as(booked.body()).isEqualTo(201);
        String id = booked.json().get("id").asString();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> jdbc.sql("SELECT count(*) FROM scheduled_tasks WHERE task_instance = ?")
                                .param(id)
                                .query(Long.class)
                                .single()
                        == 2);
        SettableClock clock = new SettableClock();
        ManualScheduler scheduler = TestHelper.createManualScheduler(
                        dataSource,
                        tasks.stream()
                                .filter(t -> t.getName().equals("cluster-provision"))
                                .toList())
                .clock(clock)
                .build();
        clock.set(start.minus(Duration.ofMinutes(15)));
        scheduler.runAnyDueExecutions();
        return new Ready(tenant, member, pool, id);
    }

    /** Runs the checks asked for so far, as the application's scheduler would. */
    private void runQueuedChecks() {
        SettableClock clock = new SettableClock();
        clock.set(Instant.now().plus(Duration.ofMinutes(1)));
        TestHelper.createManualScheduler(
                        dataSource,
                        tasks.stream()
                                .filter(t -> t.getName().equals("cluster-health-check"))
                                .toList())
                .clock(clock)
                .build()
                .runAnyDueExecutions();
    }

    private void admin(String path, Object body, int expected) {
        Api.Response response = api.post(path, adminToken(), body);
        assertThat(response.status()).as(response.body()).isEqualTo(expected);
    }
}
