package dev.allot.provisioning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.allot.provisioning.driver.DriverFailedException;
import dev.allot.provisioning.driver.fake.FakeDriver;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** What billing hears from the lifecycle: when a cluster became ready, and that a provisioning failed. */
class LifecycleBillingTests extends LifecycleTest {

    @Autowired
    FakeDriver fake;

    @BeforeEach
    void resetTheFakeDriver() {
        fake.reset();
    }

    @Test
    void billingLearnsWhenTheClusterBecameReady() {
        Setup s = fleet(1);
        Instant start = hour(3);
        String id = bookAndAwaitSchedule(s, 8, start, hour(5), "SLURM");

        runDueAt(start.minus(Duration.ofMinutes(15)));

        assertThat(cluster(s, id).get("state").asString()).isEqualTo("READY");
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(billable(id, "ready_at")).isNotNull());
        assertThat(billable(id, "failed_at")).isNull();
    }

    @Test
    void aFailedProvisioningIsNeverBilled() {
        Setup s = fleet(1);
        Instant start = hour(3);
        String id = bookAndAwaitSchedule(s, 8, start, hour(5), "KUBERNETES");
        fake.failNext(1, () -> new DriverFailedException("no quota for the namespace", false));

        runDueAt(start.minus(Duration.ofMinutes(15)));

        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(billable(id, "failed_at")).isNotNull());
        assertThat(jdbc.sql("SELECT count(*) FROM metered_period WHERE reservation_id = ?")
                        .param(UUID.fromString(id))
                        .query(Long.class)
                        .single())
                .isZero();
    }

    private Instant billable(String id, String column) {
        var values = jdbc.sql("SELECT " + column + " FROM billable_reservation WHERE reservation_id = ?")
                .param(UUID.fromString(id))
                .query((rs, n) -> {
                    Timestamp at = rs.getTimestamp(1);
                    return at == null ? null : at.toInstant();
                })
                .list();
        return values.isEmpty() ? null : values.getFirst();
    }
}
