package dev.allot.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.kagkarlsson.scheduler.task.Task;
import com.github.kagkarlsson.scheduler.testhelper.SettableClock;
import com.github.kagkarlsson.scheduler.testhelper.TestHelper;
import dev.allot.shared.security.PlatformRole;
import dev.allot.support.Api;
import dev.allot.support.Axe;
import dev.allot.support.IntegrationTest.OwnDatabase;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.Dimension;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The home page per role (issue 30): a team's reservations now and next with their warnings, quota, budget and
 * unread notices; the fleet's health, utilisation, reclaiming and what waits for an admin; the notification list; the
 * warning badge on a reservation. At 1280x900 and on a phone (390x844), axe-core finding nothing at all.
 */
// A database of its own: the fleet's home lists the 10 latest out-of-service nodes, and tests on a moved clock leave
// nodes quarantined years ahead in the shared one, which took every place once browser tests ran after the others.
@OwnDatabase("home")
class HomeBrowserTests extends ConsoleBrowserTest {

    private static final ZoneId INDIA = ZoneId.of("Asia/Kolkata");

    private static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm");

    @Autowired
    DataSource dataSource;

    @Autowired
    List<Task<?>> tasks;

    @Test
    void aMembersHomeShowsReservationsNowAndNextWithWarningsQuotaBudgetAndUnreadNoticesAndTheNoticeListMarksThemRead() {
        Team owner = team(1, 8, 8, false);
        Team rival = teamOn(owner.gpuType(), owner.pool(), 0, 8, false);
        String victim = preempted(owner, rival);
        String later = bookByApi(rival, 8, day(3), day(3).plus(Duration.ofHours(6)));
        Api.Response budget = api.put(
                "/api/v1/tenants/" + rival.tenant() + "/budget",
                adminToken(),
                Map.of("amount", 1000, "currency", "USD"));
        assertThat(budget.status()).as(budget.body()).isEqualTo(200);
        Instant heldUntil = Instant.parse(jdbc.sql("SELECT n.details ->> 'nodesHeldUntil' FROM notification n"
                        + " JOIN tenant t ON t.id = n.tenant_id WHERE t.slug = ?")
                .param(rival.tenant())
                .query(String.class)
                .single());
        String inIndia = LOCAL.format(heldUntil.atZone(INDIA)) + " GMT+5:30";

        browser.executeCdpCommand("Emulation.setTimezoneOverride", Map.of("timezoneId", INDIA.getId()));
        sized(1440);
        signIn(rival.member());
        open("/");
        Runnable home = () -> {
            assertThat(h1()).contains("Home").contains("of ");
            // nothing runs yet; the preempted one comes first (the soonest start), then the later one
            assertThat(find("#no-running").getText()).isEqualTo("Nothing of your team runs now.");
            assertThat(findAll("#home-next > li").stream()
                            .map(li -> li.getAttribute("data-id"))
                            .toList())
                    .containsExactly(victim, later);
            String warned = find("#home-next li[data-id='" + victim + "']").getText();
            assertThat(warned)
                    .contains("⚠ Needs attention", "Preempted", "Its nodes stay yours until " + inIndia)
                    .doesNotContainPattern("\\d{4}-\\d{2}-\\d{2}T\\d{2}:");
            assertThat(find("#home-next li[data-id='" + later + "']").getText()).doesNotContain("⚠");
            assertThat(find("#home-next li[data-id='" + victim + "'] a").getAttribute("href"))
                    .endsWith("/tenants/" + rival.tenant() + "/reservations/" + victim);
            // the quota standing now: none guaranteed, up to 8, none held now, a booking now borrows
            assertThat(find("#home-quota-table tr[data-gpu-type='" + rival.gpuType() + "']")
                            .getText())
                    .isEqualTo(rival.gpuType() + " 0 8 0 Borrowed GPUs");
            assertThat(find("#budget-left").getText()).isEqualTo("1,000.00 USD left");
            assertThat(find("#unread-count").getText()).isEqualTo("1");
            assertThat(find("#home-notice-list").getText()).contains("Preempted", inIndia);
            assertThat(find("#home-notices-link").getAttribute("href"))
                    .endsWith("/tenants/" + rival.tenant() + "/notices");
        };
        home.run();
        noViolations();
        fullScreenshot("home-team");

        // the same content on a phone
        onAPhone();
        home.run();
        noViolations();
        fullScreenshot("phone-home-team");
        sized(1440);

        // the notification list: the notice new, its times in the browser's zone; once read, the home has none unread
        find("#home-notices-link").click();
        waitFor(driver -> exists("#notice-list"));
        assertThat(find("#notice-list li.unread").getText())
                .contains("Preempted", "New", inIndia)
                .doesNotContainPattern("\\d{4}-\\d{2}-\\d{2}T\\d{2}:");
        assertThat(find("#notice-list li.unread a").getAttribute("href")).endsWith("/reservations/" + victim);
        noViolations();
        onAPhone();
        // shown once already, the notice is no longer new, but its times are still the browser's
        assertThat(find("#notice-list li").getText())
                .contains("Preempted", inIndia)
                .doesNotContainPattern("\\d{4}-\\d{2}-\\d{2}T\\d{2}:");
        assertThat(find("#notice-list li a").getAttribute("href")).endsWith("/reservations/" + victim);
        noViolations();
        fullScreenshot("phone-notices");
        sized(1440);
        open("/tenants/" + rival.tenant() + "/notices");
        assertThat(exists("#notice-list li.unread"))
                .as("seen once: no longer new")
                .isFalse();
        open("/");
        assertThat(find("#unread-count").getText()).isEqualTo("0");
        assertThat(find("#no-unread").getText()).isEqualTo("Nothing new since you last read your notices.");

        // the warning badge on the reservation in the list and on its page
        open("/tenants/" + rival.tenant() + "/reservations");
        assertThat(find("tr[data-id='" + victim + "'] .badge.attention").getText())
                .isEqualTo("⚠ Needs attention");
        assertThat(exists("tr[data-id='" + later + "'] .badge.attention")).isFalse();
        noViolations();
        onAPhone();
        assertThat(find("tr[data-id='" + victim + "'] .badge.attention").getText())
                .isEqualTo("⚠ Needs attention");
        assertThat(exists("tr[data-id='" + later + "'] .badge.attention")).isFalse();
        noViolations();
        sized(1440);
        open("/tenants/" + rival.tenant() + "/reservations/" + victim);
        assertThat(find("#warning").getText()).isEqualTo("⚠ Needs attention");
        assertThat(find("#warning").getAttribute("data-warning")).isEqualTo("PREEMPTED");
        onAPhone();
        assertThat(find("#warning").getText()).isEqualTo("⚠ Needs attention");
        noViolations();
        sized(1440);
        open("/tenants/" + rival.tenant() + "/reservations/" + later);
        assertThat(exists("#warning")).isFalse();
    }

    @Test
    void aDegradedClusterSaysWhichNodeAndWhatIsDoneAndThePlatformAdminsHomeShowsTheNodeOutOfServiceWithWhy() {
        Ready r = readyCluster();
        String node = r.pool() + "-n0";
        Api.Response quarantined = api.post(
                "/api/v1/nodes/" + node + "/quarantine", adminToken(), Map.of("reason", "ECC errors on GPU 3"));
        assertThat(quarantined.status()).as(quarantined.body()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> count(
                                "SELECT count(*) FROM cluster WHERE reservation_id = ?::uuid AND state = 'DEGRADED'",
                                r.id())
                        == 1);

        sized(1440);
        signIn(r.member());
        open("/");
        Runnable degraded = () -> {
            String item = find("#home-next li[data-id='" + r.id() + "']").getText();
            assertThat(item).contains("⚠ Degraded", node, "out of service", "ECC errors on GPU 3");
            assertThat(find("#home-next li[data-id='" + r.id() + "'] li[data-node='" + node + "']")
                            .getText())
                    .startsWith(node + ": out of service");
        };
        degraded.run();
        noViolations();
        onAPhone();
        degraded.run();
        noViolations();
        sized(1440);
        open("/tenants/" + r.tenant() + "/reservations");
        assertThat(find("tr[data-id='" + r.id() + "'] .badge.attention").getText())
                .isEqualTo("⚠ Degraded");
        open("/tenants/" + r.tenant() + "/reservations/" + r.id());
        assertThat(find("#warning").getText()).isEqualTo("⚠ Degraded");
        noViolations();

        signIn(newUser(PlatformRole.PLATFORM_ADMIN));
        open("/");
        Runnable fleet = () -> {
            assertThat(h1()).isEqualTo("Home of the fleet");
            assertThat(Integer.parseInt(find("#nodes-by-state [data-state='QUARANTINED'] dd")
                            .getText()))
                    .isPositive();
            String out = find("#out-of-service li[data-node='" + node + "']").getText();
            assertThat(out).contains(r.pool(), "Quarantined", "ECC errors on GPU 3");
            assertThat(find("#out-of-service li[data-node='" + node + "'] a").getAttribute("href"))
                    .endsWith("/admin/pools/" + r.pool());
            assertThat(find("#utilisation-now").getText()).matches("\\d+ %");
            assertThat(find("#utilisation-ahead").getText()).matches("\\d+ %");
        };
        fleet.run();
        noViolations();
        fullScreenshot("home-fleet");
        onAPhone();
        fleet.run();
        noViolations();
        fullScreenshot("phone-home-fleet");
    }

    @Test
    void thePlatformAdminsHomeCountsReclaimingAndListsWhatWaitsForAnAdminEachLinkingToItsPage() {
        Team owner = team(1, 8, 8, false);
        Team rival = teamOn(owner.gpuType(), owner.pool(), 0, 8, false);
        preempted(owner, rival);
        Team waiting = team(2, 16, 16, false);
        requireApproval(waiting, 16, 16);
        bookByApi(waiting, 8, day(2), day(2).plus(Duration.ofHours(4)));
        Api.Response asked = api.post(
                "/api/v1/tenants/" + waiting.tenant() + "/quota-requests",
                tenantToken(waiting.tenant(), "TENANT_ADMIN"),
                Map.of(
                        "policies",
                        List.of(policy(waiting.gpuType(), 16, 24, false)),
                        "reason",
                        "The spring training runs"));
        assertThat(asked.status()).as(asked.body()).isEqualTo(201);
        String request = asked.json().get("id").asString();

        signIn(newUser(PlatformRole.PLATFORM_ADMIN));
        open("/");
        assertThat(Integer.parseInt(find("#preemptions .big-number").getText())).isPositive();
        assertThat(find("#home-approvals li[data-tenant='" + waiting.tenant() + "']")
                        .getText())
                .isEqualTo(waiting.tenant() + ": 1 booking");
        assertThat(find("#home-approvals li[data-tenant='" + waiting.tenant() + "'] a")
                        .getAttribute("href"))
                .endsWith("/tenants/" + waiting.tenant() + "/approvals");
        assertThat(find("#home-quota-requests li[data-id='" + request + "']").getText())
                .contains(waiting.tenant(), "The spring training runs");
        assertThat(find("#home-quota-requests-link").getAttribute("href")).endsWith("/admin/quotas");
        noViolations();
        find("#home-approvals li[data-tenant='" + waiting.tenant() + "'] a").click();
        waitFor(driver -> exists("#approvals"));
        assertThat(findAll("#approvals tbody tr")).hasSize(1);
    }

    /** axe-core finds nothing on the page as shown: no violation of any impact, best practices included. */
    private void noViolations() {
        assertThat(Axe.allViolations(browser)).as(browser.getCurrentUrl()).isEmpty();
    }

    /** The page again on a phone: no wider than its screen. */
    private void onAPhone() {
        browser.manage().window().setSize(new Dimension(390, 844));
        browser.navigate().refresh();
        waitFor(driver -> exists("h1"));
        Number width = (Number) browser.executeScript("return document.documentElement.scrollWidth");
        assertThat(width.intValue()).as(browser.getCurrentUrl()).isLessThanOrEqualTo(390);
    }

    private record Ready(String tenant, String member, String pool, String id) {}

    /** A member's Slurm cluster (fake driver) READY on the one node of a new pool, its window starting in 3 hours. */
    private Ready readyCluster() {
        Team team = team(1, 8, 8, false);
        Instant start = Instant.now().truncatedTo(ChronoUnit.HOURS).plus(Duration.ofHours(3));
        // Only this test's steps are to run: retire other tests' clusters first (as ClusterSectionBrowserTests does).
        jdbc.sql("DELETE FROM scheduled_tasks WHERE task_name LIKE 'cluster-%'").update();
        jdbc.sql("UPDATE cluster SET open = false, state = 'DELETED' WHERE open")
                .update();
        Api.Response booked = api.post(
                "/api/v1/tenants/" + team.tenant() + "/reservations",
                team.token(),
                Map.of(
                        "project",
                        "training",
                        "pool",
                        team.pool(),
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
                .until(() -> count("SELECT count(*) FROM scheduled_tasks WHERE task_instance = ?", id) == 2);
        SettableClock clock = new SettableClock();
        clock.set(start.minus(Duration.ofMinutes(15)));
        TestHelper.createManualScheduler(
                        dataSource,
                        tasks.stream()
                                .filter(t -> t.getName().equals("cluster-provision"))
                                .toList())
                .clock(clock)
                .build()
                .runAnyDueExecutions();
        await().atMost(Duration.ofSeconds(30))
                .until(() ->
                        count("SELECT count(*) FROM cluster WHERE reservation_id = ?::uuid AND state = 'READY'", id)
                                == 1);
        return new Ready(team.tenant(), team.member(), team.pool(), id);
    }
}
