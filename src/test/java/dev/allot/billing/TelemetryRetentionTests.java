package dev.allot.billing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.billing.metering.Telemetry;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** GPU-utilisation samples are kept for the configured retention (90 days by default), then purged daily. */
class TelemetryRetentionTests extends BillingTest {

    @Autowired
    Telemetry telemetry;

    @Test
    void samplesOlderThanTheRetentionArePurgedAndNewerOnesKept() {
        Instant t0 = newMonth();
        Setup s = setup(1, 8, 8, false);
        // samples are only taken while a reservation holds the node: one around both samples, 2 days apart
        Instant old = t0.plus(Duration.ofHours(2));
        Instant recent = old.plus(Duration.ofDays(2));
        String node = book(s, 8, old.minus(Duration.ofHours(1)), recent.plus(Duration.ofHours(1)))
                .json()
                .get("nodes")
                .get(0)
                .asString();
        CLOCK.set(recent);
        assertThat(api.post(
                                "/api/v1/telemetry/gpu-utilisation",
                                adminToken(),
                                Map.of(
                                        "samples",
                                        List.of(
                                                Map.of(
                                                        "node",
                                                        node,
                                                        "gpu",
                                                        0,
                                                        "utilisation",
                                                        40,
                                                        "time",
                                                        old.toString()),
                                                Map.of(
                                                        "node",
                                                        node,
                                                        "gpu",
                                                        1,
                                                        "utilisation",
                                                        40,
                                                        "time",
                                                        old.toString()),
                                                Map.of(
                                                        "node",
                                                        node,
                                                        "gpu",
                                                        0,
                                                        "utilisation",
                                                        60,
                                                        "time",
                                                        recent.toString()))))
                        .status())
                .isEqualTo(202);

        telemetry.purge(old.plus(Duration.ofDays(91)));

        assertThat(jdbc.sql("SELECT at FROM gpu_utilisation_sample WHERE hostname = ?")
                        .param(node)
                        .query(Timestamp.class)
                        .list())
                .extracting(Timestamp::toInstant)
                .containsExactly(recent);
        assertThat(jdbc.sql("SELECT count(*) FROM scheduled_tasks WHERE task_name = 'billing-purge-telemetry'")
                        .query(Long.class)
                        .single())
                .isEqualTo(1);
    }
}
