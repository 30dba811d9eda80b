package dev.allot.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.kagkarlsson.scheduler.task.Task;
import com.github.kagkarlsson.scheduler.testhelper.SettableClock;
import com.github.kagkarlsson.scheduler.testhelper.TestHelper;
import dev.allot.provisioning.driver.fake.FakeDriver;
import dev.allot.shared.security.PlatformRole;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The admin console at fleet scale: 300 nodes in 12 pools and 60 tenants (beside whatever other tests made), each
 * list searched, sorted and paged on the server with its state in the URL, at desktop and phone sizes; and a node's
 * history of checks, events, remediations and changes.
 */
class AdminConsoleBrowserTests extends ConsoleBrowserTest {

    private static final List<Dimension> SIZES = List.of(new Dimension(1440, 900), new Dimension(390, 844));

    @Autowired
    DataSource dataSource;

    @Autowired
    List<Task<?>> tasks;

    @Autowired
    FakeDriver fake;

    @Test
    void eachListIsSearchedSortedAndPagedOnTheServerAtDesktopAndPhoneSizes() {
        String prefix = unique("fl");
        String gpuType = newGpuType();
        List<String> pools = new ArrayList<>();
        for (int p = 0; p < 12; p++) {
            String pool = prefix + "-pool-" + (char) ('a' + p);
            api.post(
                    "/api/v1/pools",
                    adminToken(),
                    Map.of("name", pool, "gpuType", gpuType, "gpusPerNode", 8, "region", "eu-test-1"));
            pools.add(pool);
        }
        // 300 nodes: 25 per pool, pool "a" has them all but every tenth node quarantined
        for (int i = 1; i <= 300; i++) {
            jdbc.sql("""
					INSERT INTO node (hostname, pool_id, rack, ib_block, cuda_drivers, state, state_reason, state_changed_at, created_at)
					SELECT ?, id, ?, 'ib-0', '{550.54}', ?, ?, now() - make_interval(mins => ?), now() FROM pool WHERE name = ?""")
                    .params(
                            String.format("%s-n%03d", prefix, i),
                            "rack-" + (i % 7),
                            i % 10 == 0 ? "QUARANTINED" : "AVAILABLE",
                            i % 10 == 0 ? "ECC errors" : null,
                            i,
                            pools.get((i - 1) / 25))
                    .update();
        }
        for (int t = 1; t <= 60; t++) {
            String slug = String.format("%s-t%02d", prefix, t);
            api.post(
                    "/api/v1/tenants",
                    adminToken(),
                    Map.of("slug", slug, "displayName", "Team " + (char) ('Z' - t % 26) + " " + t));
            if (t <= 30) {
                setQuota(slug, policy(gpuType, 0, t, t % 2 == 0));
            }
        }
        signIn(newUser(PlatformRole.PLATFORM_ADMIN));

        for (Dimension size : SIZES) {
            browser.manage().window().setSize(size);

            // the fleet's nodes: 300 of this test, six pages of 50, sorted by any column, filtered by state
            open("/admin/nodes?q=" + prefix);
            assertThat(find("#fleet-nodes-list .shown").getText()).isEqualTo("Showing 1–50 of 300");
            assertThat(hostnames("#fleet-nodes")).first().isEqualTo(prefix + "-n001");
            click("#fleet-nodes-list", "#fleet-nodes-list .next-page");
            assertThat(browser.getCurrentUrl()).contains("page=1");
            assertThat(find("#fleet-nodes-list .shown").getText()).isEqualTo("Showing 51–100 of 300");
            assertThat(hostnames("#fleet-nodes")).first().isEqualTo(prefix + "-n051");
            click("#fleet-nodes-list", "#fleet-nodes th a[data-sort=hostname]");
            assertThat(browser.getCurrentUrl()).contains("sort=hostname,desc").doesNotContain("page=");
            assertThat(find("#fleet-nodes th:first-child").getAttribute("aria-sort"))
                    .isEqualTo("descending");
            assertThat(hostnames("#fleet-nodes")).first().isEqualTo(prefix + "-n300");
            click("#fleet-nodes-list", "#fleet-nodes th a[data-sort=since]");
            // the newest state change is node 1's (1 minute ago)
            assertThat(hostnames("#fleet-nodes").subList(0, 2)).containsExactly(prefix + "-n300", prefix + "-n299");
            new Select(find("#fleet-state")).selectByValue("QUARANTINED");
            click("#fleet-nodes-list", "#fleet-search");
            assertThat(find("#fleet-nodes-list .shown").getText()).isEqualTo("Showing 1–30 of 30");
            assertThat(browser.getCurrentUrl()).contains("state=QUARANTINED").containsPattern("sort=since(,|%2C)asc");
            // without JavaScript the same URL gives the same list: it is the state
            browser.navigate().refresh();
            assertThat(find("#fleet-nodes-list .shown").getText()).isEqualTo("Showing 1–30 of 30");
            assertThat(find("tr[data-hostname='" + prefix + "-n010'] .state").getText())
                    .isEqualTo("Quarantined");
            assertThat(find("tr[data-hostname='" + prefix + "-n010'] .gpu-type").getText())
                    .isEqualTo(gpuType);

            // a pool's nodes, searched by hostname
            open("/admin/pools/" + pools.getFirst() + "?q=n01&sort=hostname,desc");
            assertThat(hostnames("#nodes"))
                    .containsExactly(
                            prefix + "-n019",
                            prefix + "-n018",
                            prefix + "-n017",
                            prefix + "-n016",
                            prefix + "-n015",
                            prefix + "-n014",
                            prefix + "-n013",
                            prefix + "-n012",
                            prefix + "-n011",
                            prefix + "-n010");

            // pools, 12 of this test, sorted by their unhealthy nodes
            open("/admin/pools?q=" + prefix + "&size=5");
            assertThat(find("#pools-list .shown").getText()).isEqualTo("Showing 1–5 of 12");
            click("#pools-list", "#pools th a[data-sort=unhealthy]");
            click("#pools-list", "#pools th a[data-sort=unhealthy]");
            assertThat(browser.getCurrentUrl()).contains("sort=unhealthy,desc").contains("size=5");
            assertThat(find("#pools tbody tr:first-child td:nth-child(7)").getText())
                    .isEqualTo("3");
            click("#pools-list", "#pools-list .next-page");
            click("#pools-list", "#pools-list .next-page");
            assertThat(find("#pools-list .shown").getText()).isEqualTo("Showing 11–12 of 12");

            // tenants: 60 of this test, by name backwards
            open("/admin/tenants?q=" + prefix + "-t");
            assertThat(find("#tenants-list .shown").getText()).isEqualTo("Showing 1–50 of 60");
            click("#tenants-list", "#tenants th a[data-sort=name]");
            click("#tenants-list", "#tenants th a[data-sort=name]");
            List<String> names = findAll("#tenants tbody tr td:first-child").stream()
                    .map(WebElement::getText)
                    .toList();
            assertThat(names).isSortedAccordingTo(String.CASE_INSENSITIVE_ORDER.reversed());
            click("#tenants-list", "#tenants-list .next-page");
            assertThat(findAll("#tenants tbody tr")).hasSize(10);

            // quotas: a row per tenant and GPU type, the largest maximum first; a search by slug
            open("/admin/quotas?q=" + prefix + "&sort=maximum,desc");
            assertThat(find("#quotas tbody tr:first-child").getAttribute("data-tenant"))
                    .isEqualTo(prefix + "-t30");
            find("#quotas-q").clear();
            find("#quotas-q").sendKeys(prefix + "-t07");
            click("#quotas-list", "#quotas-search");
            assertThat(findAll("#quotas tbody tr")).hasSize(1);
            assertThat(find("#quotas tbody tr").getText())
                    .contains(gpuType, "0 of 7")
                    .doesNotContain("No quota");
            assertThat(browser.getCurrentUrl()).contains("q=" + prefix + "-t07");
            fullScreenshot("admin-console-quotas-" + size.getWidth());

            long width = (Long) browser.executeScript("return document.documentElement.scrollWidth");
            assertThat(width).as("no page wider than the screen").isLessThanOrEqualTo(size.getWidth());
        }
    }

    @Test
    void badParametersAreSaidInWordsOnTheListNotAsAnErrorPage() {
        signIn(newUser(PlatformRole.AUDITOR));
        open("/admin/nodes?sort=password,desc");
        assertThat(find(".list-error").getText())
                .startsWith("Sort by one of hostname, pool, gpuType, state, since, rack");
        assertThat(h1()).isEqualTo("Nodes");
        open("/admin/nodes?state=BROKEN");
        assertThat(find(".list-error").getText()).startsWith("Choose a state among Available, Quarantined");
        open("/admin/pools?page=-2");
        assertThat(find(".list-error").getText()).isEqualTo("Page must be a whole number, 0 for the first page");
        open("/admin/tenants?size=5000");
        assertThat(find(".list-error").getText()).isEqualTo("Size must be a whole number from 1 to 200");
        open("/admin/quotas?sort=heldNow");
        assertThat(find(".list-error").getText()).contains("\"heldNow\" is not one");
        open("/admin/tenants?q=" + "x".repeat(101));
        assertThat(find(".list-error").getText()).isEqualTo("Search for at most 100 characters");
    }

    @Test
    void aNodesHistoryShowsItsChecksEventsRemediationsAndChangesNewestFirstToTheSecond() {
        Team team = team(2, 16, 16, false);
        String node = team.pool() + "-n1";
        String id = bookByApi(team, 8, day(3), day(3).plus(Duration.ofHours(2)));
        await().atMost(Duration.ofSeconds(20))
                .until(() -> count("SELECT count(*) FROM cluster WHERE reservation_id = ?::uuid", id) == 1);
        // an on-demand check's result on this node, as the check store keeps it
        jdbc.sql("""
				INSERT INTO cluster_health_check (id, reservation_id, kind, status, requested_by, requested_at, finished_at,
				    detail, results)
				VALUES (?, ?::uuid, 'GPU_BURN', 'FAILED', 'alice', now() - interval '3 hours', now() - interval '3 hours' + interval '61 seconds',
				    'gpu_burn failed', CAST(? AS jsonb))""")
                .params(
                        UUID.randomUUID(),
                        id,
                        "[{\"node\": \"" + node + "\", \"passed\": false, \"summary\": \"GPU 3: FAULTY\", "
                                + "\"fault\": \"HARDWARE\", \"output\": \"GPU 0: OK\\nGPU 3: FAULTY\", \"took\": 61.0}, {\"node\": \""
                                + team.pool()
                                + "-n0\", \"passed\": true, \"summary\": \"all OK\", \"fault\": \"NONE\", \"output\": \"\", \"took\": 60.0}]")
                .update();
        // an exporter's events: corrected ECC errors alone ask for nothing; Xid 79 (fell off the bus) quarantines it
        assertThat(api.post(
                                "/api/v1/nodes/" + node + "/events",
                                adminToken(),
                                Map.of("type", "ECC", "uncorrectedErrors", 0))
                        .status())
                .isEqualTo(202);
        assertThat(api.post("/api/v1/nodes/" + node + "/events", adminToken(), Map.of("type", "XID", "xid", 79))
                        .status())
                .isEqualTo(202);
        signIn(newUser(PlatformRole.PLATFORM_ADMIN));

        for (Dimension size : SIZES) {
            browser.manage().window().setSize(size);
            open("/admin/nodes?q=" + node);
            find("tr[data-hostname='" + node + "'] a.node-history").click();
            waitFor(ExpectedConditions.presenceOfElementLocated(By.id("node-history")));
            accessible();
            assertThat(h1()).isEqualTo("Node " + node);
            assertThat(find("#node-now .state").getText()).isEqualTo("Quarantined");
            List<String> kinds = findAll("#node-history tbody tr").stream()
                    .map(row -> row.getAttribute("data-kind"))
                    .toList();
            // newest first: the quarantine (remediation, state change), the two events (when reported), the node's
            // creation, the check of three hours ago
            assertThat(kinds).containsExactly("remediation", "change", "event", "event", "change", "check");
            List<WebElement> rows = findAll("#node-history tbody tr");
            assertThat(rows.get(0).getText()).contains("Remediation: Quarantine", "Hardware fault", "Xid 79");
            assertThat(rows.get(1).getText()).contains("State: Available to Quarantined", "Quarantined");
            assertThat(rows.get(2).getText())
                    .contains("Exporter event: XID", "Hardware fault", "Xid 79", "remediation: Quarantine");
            assertThat(rows.get(3).getText()).contains("Exporter event: ECC", "No fault");
            assertThat(rows.get(4).getText()).contains("Added to the fleet");
            assertThat(rows.get(5).getText()).contains("gpu_burn check", "Hardware fault", "GPU 3: FAULTY", "alice");
            // each time to the second, in the browser's zone (UTC here), with UTC on hover
            for (WebElement time : findAll("#node-history td:first-child time")) {
                assertThat(time.getText()).matches("\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2} UTC");
                assertThat(time.getAttribute("title")).endsWith(" UTC");
            }
            rows.get(5).findElement(By.cssSelector("summary")).click();
            assertThat(rows.get(5).findElement(By.cssSelector("pre")).getText()).contains("GPU 3: FAULTY");
            checkAccessibility();
            fullScreenshot("admin-node-history-" + size.getWidth());
            long width = (Long) browser.executeScript("return document.documentElement.scrollWidth");
            assertThat(width).isLessThanOrEqualTo(size.getWidth());
        }
        open("/admin/nodes/" + node + "?page=x");
        assertThat(find(".list-error").getText()).startsWith("Page must be a whole number");
    }

    @Test
    void aNodesHistoryShowsItsAcceptanceChecksTheFinishedAndTheOneStillRunningInTheBrowsersZone() throws Exception {
        Team team = team(1, 8, 8, false);
        String node = team.pool() + "-n0";
        Instant start = Instant.now().truncatedTo(ChronoUnit.HOURS).plus(Duration.ofHours(3));
        // only this test's lifecycle steps run here (as HomeBrowserTests' ready cluster does)
        jdbc.sql("DELETE FROM scheduled_tasks WHERE task_name LIKE 'cluster-%'").update();
        String id = bookByApi(team, 8, start, start.plus(Duration.ofHours(2)));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> count("SELECT count(*) FROM scheduled_tasks WHERE task_instance = ?", id) == 2);
        // acceptance on the node: nvidia-smi finds a fault the first time, and runs again, held by the fake driver
        signIn(newUser(PlatformRole.AUDITOR));
        fake.failNextHealthCheckOn(node);
        Runnable release = fake.holdHealthChecksOn(node);
        SettableClock clock = new SettableClock();
        clock.set(start.minus(Duration.ofMinutes(15)));
        // on a thread of its own: the common pool (one thread on two cores) stays free for the browser's client
        ExecutorService provisioner = Executors.newSingleThreadExecutor();
        CompletableFuture<Void> provisioning = CompletableFuture.runAsync(
                () -> TestHelper.createManualScheduler(
                                dataSource,
                                tasks.stream()
                                        .filter(t -> t.getName().equals("cluster-provision"))
                                        .toList())
                        .clock(clock)
                        .build()
                        .runAnyDueExecutions(),
                provisioner);
        try {
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> count(
                                    "SELECT count(*) FROM node_check_run "
                                            + "WHERE hostname = ? AND finished_at IS NULL",
                                    node)
                            == 1);
            for (Dimension size : SIZES) {
                browser.manage().window().setSize(size);
                ZoneId zone = ZoneId.of(size.getWidth() < 500 ? "Asia/Kolkata" : "America/New_York");
                // the browser's zone reaches the server with the page it loads first (India: a half-hour zone)
                browser.executeCdpCommand("Emulation.setTimezoneOverride", Map.of("timezoneId", zone.getId()));
                open("/admin/nodes/" + node);
                open("/admin/nodes/" + node);
                waitFor(ExpectedConditions.presenceOfElementLocated(By.id("node-history")));
                List<WebElement> runs = findAll("#node-history tbody tr[data-kind=acceptance]");
                assertThat(runs).hasSize(2);
                // newest first: the run still going, then the one that found the fault
                assertThat(runs.get(0).getText()).contains("Acceptance", "Running", "still running");
                assertThat(runs.get(0).findElement(By.cssSelector(".verdict")).getAttribute("class"))
                        .contains("running");
                assertThat(runs.get(0).getText()).doesNotContain("Finished");
                assertThat(runs.get(1).getText()).contains("Acceptance", "Hardware fault", "Finished");
                Instant started = jdbc.sql(
                                "SELECT started_at FROM node_check_run WHERE hostname = ? AND finished_at IS NULL")
                        .param(node)
                        .query(Timestamp.class)
                        .single()
                        .toInstant();
                String local = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
                        .withZone(zone)
                        .format(started);
                assertThat(runs.get(0)
                                .findElement(By.cssSelector("td:first-child time"))
                                .getText())
                        .startsWith(local);
                checkAccessibility();
                long width = (Long) browser.executeScript("return document.documentElement.scrollWidth");
                assertThat(width).isLessThanOrEqualTo(size.getWidth());
            }
        } finally {
            release.run();
        }
        provisioning.get(60, TimeUnit.SECONDS);
        provisioner.shutdown();
        await().atMost(Duration.ofSeconds(30))
                .until(() ->
                        count("SELECT count(*) FROM node_check_run WHERE hostname = ? AND finished_at IS NULL", node)
                                == 0);
        browser.navigate().refresh();
        List<WebElement> runs = findAll("#node-history tbody tr[data-kind=acceptance]");
        assertThat(runs).hasSize(2);
        assertThat(runs.get(0).getText()).contains("Passed", "Finished").doesNotContain("still running");
    }

    /** Clicks, and waits for htmx to swap the list in place. */
    private void click(String list, String css) {
        WebElement before = find(list);
        find(css).click();
        waitFor(driver -> isGone(before));
        waitFor(ExpectedConditions.presenceOfElementLocated(By.cssSelector(list)));
    }

    private List<String> hostnames(String table) {
        return findAll(table + " tbody tr").stream()
                .map(row -> row.getAttribute("data-hostname"))
                .toList();
    }
}
