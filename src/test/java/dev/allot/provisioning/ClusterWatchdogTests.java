package dev.allot.provisioning;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.provisioning.lifecycle.Watchdog;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/** The watchdog moves clusters the lifecycle left behind, and says why in their timelines. */
class ClusterWatchdogTests extends LifecycleTest {

    @Autowired
    Watchdog watchdog;

    @Test
    void theWatchdogGivesUpOnABuildThatIsStuckAndSaysWhy() {
        Setup s = fleet(1);
        Instant start = hour(3);
        String id = bookAndAwaitSchedule(s, 8, start, hour(4), "SLURM");
        // Building began two hours ago and is still not done (its step keeps coming back for another attempt).
        Instant longAgo = now().minus(Duration.ofHours(2));
        jdbc.sql("UPDATE cluster SET state = 'CREATING', provisioning_started_at = ?, state_changed_at = ? "
                        + "WHERE reservation_id = ?::uuid")
                .params(Timestamp.from(longAgo), Timestamp.from(longAgo), id)
                .update();

        assertThat(watchdog.run()).isGreaterThanOrEqualTo(1);

        JsonNode failed = cluster(s, id);
        assertThat(failed.get("state").asString()).isEqualTo("FAILED");
        assertThat(failed.get("failureReason").asString())
                .startsWith("Provisioning did not finish within PT45M (in CREATING since");
        assertThat(timeline(failed)).last().isEqualTo("watchdog GAVE_UP FAILED");
        assertThat(reservationStatus(s, id)).isEqualTo("FAILED");
        assertThat(activeAllocations(id)).isZero();
        assertThat(scheduled("cluster-teardown", id)).isBeforeOrEqualTo(now());
        assertThat(scheduled("cluster-provision", id)).isNull();
    }

    @Test
    void theWatchdogSchedulesAStepThatWentMissingAndTheClusterMovesOn() {
        Setup s = fleet(1);
        Instant start = hour(3);
        String id = bookAndAwaitSchedule(s, 8, start, hour(4), "SLURM");
        // Provisioning is due, but its step is gone (deleted by hand, or never written).
        Instant due = now().minusSeconds(60);
        jdbc.sql("UPDATE cluster SET provision_at = ? WHERE reservation_id = ?::uuid")
                .params(Timestamp.from(due), id)
                .update();
        jdbc.sql("DELETE FROM scheduled_tasks WHERE task_instance = ?")
                .param(id)
                .update();

        assertThat(watchdog.run()).isEqualTo(1);

        JsonNode pending = cluster(s, id);
        assertThat(pending.get("timeline")
                        .valueStream()
                        .filter(e -> e.get("step").asString().equals("watchdog"))
                        .map(e -> e.get("detail").asString()))
                .anyMatch(d -> d.startsWith("Provisioning was not scheduled"))
                .anyMatch(d -> d.startsWith("No teardown was scheduled"));
        assertThat(scheduled("cluster-teardown", id)).isEqualTo(hour(4));

        runDueAt(now().plusSeconds(5));
        assertThat(cluster(s, id).get("state").asString()).isEqualTo("READY");
        assertThat(watchdog.run()).isZero();
    }
}
