package dev.allot.billing;

import static org.awaitility.Awaitility.await;

import dev.allot.billing.ledger.Ledger;
import dev.allot.billing.metering.Lifecycle;
import dev.allot.billing.metering.Metering;
import dev.allot.support.Api;
import dev.allot.support.FleetTest;
import dev.allot.support.MutableClock;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.context.bean.override.convention.TestBean;

/**
 * Billing tests run against a clock they move (in their own application context, a year and more ahead of the real
 * one, so the other contexts' metering never reaches their reservations). Each test starts in a month of its
 * own, on the 3rd at 00:00 UTC.
 */
// Metering is driven here without provisioning (whose tasks run on the real clock, a year behind this one), so
// billing does not wait for ClusterReady; LifecycleBillingTests covers that path.
@TestPropertySource(
        properties = {
            "allot.billing.await-cluster-ready=false",
            "allot.billing.webhook-backoff=PT1S",
            "db-scheduler.polling-interval=1s"
        })
abstract class BillingTest extends FleetTest {

    static final String SECRET_KEY = WEBHOOK_SECRET_KEY;

    /**
     * A year ahead, a month more each test: far from the real-clock contexts, and years before the lifecycle tests'
     * clock (seven years ahead), whose manual scheduler closes every month before its own.
     */
    static final MutableClock CLOCK =
            new MutableClock(Instant.now().plus(Duration.ofDays(366)).truncatedTo(ChronoUnit.DAYS));

    @TestBean(name = "clock", methodName = "testClock")
    Clock clock;

    static Clock testClock() {
        return CLOCK;
    }

    @Autowired
    Metering metering;

    @Autowired
    Ledger ledger;

    @Autowired
    Lifecycle lifecycle;

    record Setup(String tenant, String gpuType, String pool, String token, List<String> nodes) {}

    /** Moves the clock to the 3rd of the next month that no earlier test used; returns that instant. */
    static synchronized Instant newMonth() {
        YearMonth next =
                YearMonth.from(CLOCK.instant().atOffset(ZoneOffset.UTC)).plusMonths(1);
        Instant start = next.atDay(3).atStartOfDay().toInstant(ZoneOffset.UTC);
        CLOCK.set(start);
        return start;
    }

    /** A pool of 8-GPU nodes with the standard rate card, and a tenant with a project and a quota on it. */
    Setup setup(int nodes, int guaranteed, int max, boolean burst) {
        String type = newGpuType();
        setRateCard(type);
        String pool = newPool(type, 8);
        List<String> hostnames = addNodes(pool, nodes, 4);
        String tenant = newTenant();
        newProject(tenant, "training");
        setQuota(tenant, type, guaranteed, max, burst);
        return new Setup(tenant, type, pool, tenantToken(tenant, "TENANT_ADMIN"), hostnames);
    }

    Map<String, Object> body(Setup s, int gpus, Instant start, Instant end) {
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
                        "SLURM",
                        "cudaDriver",
                        "550.54",
                        "sharedMemoryGi",
                        64,
                        "volumes",
                        List.of(),
                        "sshPublicKeys",
                        List.of(SSH_KEY)));
        return body;
    }

    /** Books and waits until billing has learnt of the booking (events are delivered after commit). */
    Api.Response book(Setup s, int gpus, Instant start, Instant end) {
        Api.Response booked =
                api.post("/api/v1/tenants/" + s.tenant() + "/reservations", s.token(), body(s, gpus, start, end));
        if (booked.status() != 201) {
            throw new AssertionError("Not booked: " + booked);
        }
        UUID id = UUID.fromString(booked.json().get("id").asString());
        await().until(() -> billableCount(id) == 1);
        return booked;
    }

    long billableCount(UUID id) {
        return jdbc.sql("SELECT count(*) FROM billable_reservation WHERE reservation_id = ?")
                .param(id)
                .query(Long.class)
                .single();
    }

    /** What the tenant owes in total, read straight from its receivable account(s). */
    BigDecimal receivable(String tenant) {
        return jdbc.sql("""
				SELECT coalesce(sum(e.amount), 0) FROM ledger_entry e JOIN ledger_account a ON a.id = e.account_id
				JOIN tenant t ON t.id = a.tenant_id WHERE t.slug = ?""").param(tenant).query(BigDecimal.class).single();
    }

    /** GPU-seconds per line kind and rate class posted to the tenant for a reservation (net of reversals). */
    long gpuSeconds(UUID id, String line, String rateClass) {
        return jdbc.sql("""
				SELECT coalesce(sum(e.gpu_seconds), 0) FROM ledger_entry e JOIN ledger_account a ON a.id = e.account_id
				WHERE a.kind = 'RECEIVABLE' AND e.reservation_id = ? AND e.line = ? AND e.rate_class = ?""").params(id, line, rateClass).query(Long.class).single();
    }

    long transactionsOf(String tenant) {
        return jdbc.sql("""
				SELECT count(*) FROM ledger_transaction x JOIN tenant t ON t.id = x.tenant_id WHERE t.slug = ?""").param(tenant).query(Long.class).single();
    }

    /** Every ledger transaction of the whole database sums to zero per currency. */
    long unbalancedTransactions() {
        return jdbc.sql("""
				SELECT count(*) FROM (SELECT transaction_id FROM ledger_entry GROUP BY transaction_id, currency
				                      HAVING sum(amount) <> 0) x""").query(Long.class).single();
    }

    String path(Setup s, String rest) {
        return "/api/v1/tenants/" + s.tenant() + rest;
    }
}
