package dev.allot.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.kagkarlsson.scheduler.Scheduler;
import dev.allot.support.BrowserTest;
import dev.allot.support.IntegrationTest;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import tools.jackson.databind.JsonNode;

/**
 * The demo as the quick start seeds it: the application itself seeds it as it starts, in a database of its own
 * (the replay drives the scheduled tasks of its past, which no other test context may pick up), on the
 * {@link DemoClock} the quick start installs as the application's clock.
 */
@IntegrationTest.OwnDatabase(
        value = "demo",
        properties = {"allot.demo.enabled=true", "allot.demo.password=" + DemoDataTests.PASSWORD})
@ExtendWith(OutputCaptureExtension.class)
class DemoDataTests extends BrowserTest {

    static final String PASSWORD = "demo-password-0123";

    /** What the application was like when its web server started taking requests. */
    record AtTheWebServersStart(boolean seeded, boolean clockRewound, boolean pollerStarted) {}

    static volatile @Nullable AtTheWebServersStart webServerStart;

    @TestConfiguration(proxyBeanMethods = false)
    static class WatchTheWebServerStart {

        @Bean
        ApplicationListener<WebServerInitializedEvent> watchTheWebServerStart(
                DemoData demo, Clock clock, Scheduler poller) {
            return event -> webServerStart = new AtTheWebServersStart(
                    demo.seeding().isPresent(),
                    clock instanceof DemoClock demoClock && demoClock.replaying(),
                    poller.getSchedulerState().isStarted());
        }
    }

    @Autowired
    DemoData demo;

    @Test
    void theDemoLivesThroughAMonthOfHistoryMadeByTheApplicationsOwnServices() {
        System.out.printf(
                "Demo seeding (a fleet, %d days of history, today's bookings) took %.2f s%n",
                DemoHistory.SPAN.toDays(), demo.seeding().orElseThrow().toMillis() / 1000.0);
        assertThat(jdbc.sql("SELECT count(*) FROM node n JOIN pool p ON p.id = n.pool_id "
                                + "WHERE p.name IN ('h100-eu', 'h200-eu', 'a100-us') AND p.gpus_per_node = 8")
                        .query(Integer.class)
                        .single())
                .isEqualTo(32);
        assertThat(api.get("/api/v1/tenants/acme-ml/quota", adminToken())
                        .json()
                        .get("policies")
                        .size())
                .isEqualTo(3);
        assertThat(api.get("/api/v1/tenants/globex-ai/quota", adminToken())
                        .json()
                        .get("policies")
                        .size())
                .isEqualTo(2);

        // past, running and future reservations of both teams
        Timestamp now = Timestamp.from(Instant.now());
        for (String tenant : List.of("acme-ml", "globex-ai")) {
            assertThat(count("SELECT count(*) FROM reservation WHERE tenant_slug = ? AND ends_at < ?", tenant, now))
                    .as("past reservations of " + tenant)
                    .isGreaterThanOrEqualTo(5);
            assertThat(count(
                            "SELECT count(*) FROM reservation WHERE tenant_slug = ? AND starts_at < ? AND ends_at > ? "
                                    + "AND lifecycle_status IS NULL",
                            tenant,
                            plus(now, Duration.ofMinutes(5)),
                            now))
                    .as("running reservations of " + tenant)
                    .isGreaterThanOrEqualTo(1);
            assertThat(count(
                            "SELECT count(*) FROM reservation WHERE tenant_slug = ? AND starts_at > ?",
                            tenant,
                            plus(now, Duration.ofHours(1))))
                    .as("future reservations of " + tenant)
                    .isGreaterThanOrEqualTo(1);
        }
        assertThat(count("SELECT count(*) FROM reservation WHERE tenant_slug = 'acme-ml' "
                        + "AND lifecycle_status = 'PENDING_APPROVAL' AND requested_by = 'alice'"))
                .isEqualTo(1);
        // guaranteed, borrowed and on-demand parts, each metered in the past
        for (String rateClass : List.of("RESERVED", "BORROWED", "ON_DEMAND")) {
            assertThat(count(
                            "SELECT count(DISTINCT e.reservation_id) FROM ledger_entry e JOIN ledger_account a "
                                    + "ON a.id = e.account_id WHERE a.kind = 'RECEIVABLE' AND e.rate_class = ?",
                            rateClass))
                    .as(rateClass + " usage")
                    .isGreaterThanOrEqualTo(1);
        }
        // usage on most past days, metered hour by hour after each hour ended
        assertThat(count(
                        "SELECT count(DISTINCT date_trunc('day', hour)) FROM metered_period WHERE hour < ?",
                        Timestamp.from(Instant.now().truncatedTo(ChronoUnit.DAYS))))
                .isGreaterThanOrEqualTo(25);

        // last month's statement is closed, with lines; this month's is open
        DemoStatements.lastMonthClosedAndThisOneOpen(api, adminToken(), YearMonth.now(ZoneOffset.UTC));

        // a budget alert, and the preemption notice
        JsonNode acmeNotices = api.get("/api/v1/tenants/acme-ml/notifications", adminToken())
                .json()
                .get("items");
        assertThat(acmeNotices.valueStream().map(n -> n.get("kind").asString())).contains("BUDGET_THRESHOLD");
        String preempted = jdbc.sql("SELECT id::text FROM reservation WHERE tenant_slug = 'globex-ai' "
                        + "AND lifecycle_status = 'PREEMPTED'")
                .query(String.class)
                .single();
        JsonNode victim = api.get("/api/v1/tenants/globex-ai/reservations/" + preempted, adminToken())
                .json();
        assertThat(victim.get("status").asString()).isEqualTo("PREEMPTED");
        assertThat(victim.get("preemption").get("reason").asString()).isNotBlank();
        JsonNode globexNotices = api.get("/api/v1/tenants/globex-ai/notifications", adminToken())
                .json()
                .get("items");
        assertThat(globexNotices
                        .valueStream()
                        .filter(n -> n.get("kind").asString().equals("RESERVATION_PREEMPTED"))
                        .map(n -> n.get("message").asString()))
                .singleElement()
                .asString()
                .contains(preempted);
        // the reclaimed nodes ran acme-ml's guaranteed booking after the notice: built, metered for its 24 hours
        assertThat(
                        count(
                                "SELECT count(*) FROM metered_period m JOIN reservation r ON r.id = m.reservation_id "
                                        + "WHERE r.tenant_slug = 'acme-ml' AND r.pool_name = 'a100-us' AND m.transaction_id IS NOT NULL"))
                .isGreaterThanOrEqualTo(24);

        // the node incident: quarantined and replaced in the running cluster, then back in service after repair
        Map<String, Object> incident = jdbc.sql("SELECT hostname, reservation_id::text AS reservation FROM "
                        + "node_remediation WHERE action = 'QUARANTINE'")
                .query()
                .singleRow();
        String node = (String) incident.get("hostname");
        assertThat(jdbc.sql("SELECT state FROM node WHERE hostname = ?")
                        .param(node)
                        .query(String.class)
                        .single())
                .isEqualTo("AVAILABLE");
        assertThat(count(
                        "SELECT count(*) FROM cluster_event WHERE reservation_id = ?::uuid AND detail LIKE ?",
                        incident.get("reservation"),
                        "%" + node + " was taken out of service%replaced by%"))
                .isEqualTo(1);
    }

    @Test
    void theDemoIsSeededBeforeTheWebServerTakesRequestsAndTheSchedulersPollerStartsAfter() {
        assertThat(webServerStart).isEqualTo(new AtTheWebServersStart(true, false, false));
        assertThat(jdbc.sql("SELECT action FROM audit_event WHERE object_type = 'demo' ORDER BY id LIMIT 2")
                        .query(String.class)
                        .list())
                .containsExactly(DemoData.STARTED, DemoData.FINISHED);
    }

    @Test
    void aFirstStartStoppedHalfWayIsReportedAtTheNextAndNotReplayedOver(CapturedOutput output) {
        List<String> tables =
                List.of("reservation", "ledger_transaction", "notification", "node_remediation", "app_user");
        Map<String, Long> before = counts(tables);
        // what a first start killed during its replay leaves: the demo users made, the seeding's start marked, not its
        // end
        mark(DemoData.STARTED);
        try {
            assertThat(demo.seed()).isEqualTo(DemoData.Previous.HALF_DONE);
            assertThat(counts(tables)).isEqualTo(before);
            assertThat(output.getOut())
                    .contains("the first start of this database stopped before the demo was whole")
                    .contains("delete the embedded database's folder (.allot/pgdata)");
        } finally {
            mark(DemoData.FINISHED);
        }
        assertThat(demo.seed()).isEqualTo(DemoData.Previous.FINISHED);
    }

    private void mark(String action) {
        jdbc.sql("INSERT INTO audit_event (actor, action, object_type, object_id) VALUES ('demo-seed', ?, 'demo', "
                        + "'quick-start')")
                .param(action)
                .update();
    }

    @Test
    void aSecondStartAddsNothing() {
        List<String> tables = List.of(
                "reservation", "ledger_transaction", "notification", "node_remediation", "audit_event", "app_user");
        Map<String, Long> before = counts(tables);

        assertThat(demo.seed()).isEqualTo(DemoData.Previous.FINISHED);

        assertThat(counts(tables)).isEqualTo(before);
    }

    @Test
    void aliceSeesHerTeamsUsageChartedAndLastMonthsStatement() {
        signIn("alice", PASSWORD);
        open("/usage");
        waitFor(ExpectedConditions.presenceOfElementLocated(By.id("charts")));
        Instant monthStart =
                YearMonth.now(ZoneOffset.UTC).atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC);
        if (Duration.between(monthStart, Instant.now()).toHours() >= 2) {
            // nothing can have been metered in a month's first hour
            assertThat(findAll("#gpu-hours-chart svg rect")).isNotEmpty();
        }

        find("#previous-month").click();
        YearMonth last = YearMonth.now(ZoneOffset.UTC).minusMonths(1);
        waitFor(ExpectedConditions.textToBe(By.id("month"), last.toString()));
        accessible();
        assertThat(findAll("#usage tbody tr")).hasSizeGreaterThanOrEqualTo(3);
        assertThat(find("#usage tfoot").getText()).contains("USD");
        assertThat(findAll("#gpu-hours-chart svg rect")).isNotEmpty();
        assertThat(find("#statement-csv").getAttribute("href")).endsWith("/statements/" + last + "?format=csv");
        screenshot("demo-usage-last-month");
    }

    private static Timestamp plus(Timestamp at, Duration by) {
        return Timestamp.from(at.toInstant().plus(by));
    }

    private Map<String, Long> counts(List<String> tables) {
        Map<String, Long> counts = new TreeMap<>();
        tables.forEach(table -> counts.put(table, count("SELECT count(*) FROM " + table)));
        return counts;
    }

    private long count(String sql, Object... params) {
        return jdbc.sql(sql).params(params).query(Long.class).single();
    }
}
