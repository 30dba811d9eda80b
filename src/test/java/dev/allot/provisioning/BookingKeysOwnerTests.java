package dev.allot.provisioning;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.provisioning.driver.ClusterBlueprint;
import dev.allot.provisioning.driver.fake.FakeDriver;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Whose login a booking's SSH keys open is booking's to say, from who booked (issue 28, finding 5): the user who
 * booked, or nobody when a service account booked. The driver gets it in the blueprint ({@code keysFor}); the Slurm
 * driver writes the keys to that login only ({@code SlurmLoginTests}).
 */
class BookingKeysOwnerTests extends LifecycleTest {

    @Autowired
    FakeDriver fake;

    @Test
    void aUsersBookingOpensThatUsersLoginAndAServiceAccountsBookingOpensNone() {
        Setup s = fleet(2);
        String user = newUser();
        addMember(s.tenant(), user, "MEMBER");
        Setup asUser = new Setup(s.tenant(), s.gpuType(), s.pool(), userToken(user), s.nodes());
        Instant start = now().truncatedTo(ChronoUnit.MINUTES).plus(Duration.ofMinutes(10));

        String byUser = bookAndAwaitSchedule(asUser, 8, start, start.plus(Duration.ofHours(1)), "SLURM");
        String byPipeline = bookAndAwaitSchedule(s, 8, start, start.plus(Duration.ofHours(1)), "SLURM");
        runDueAt(now());

        ClusterBlueprint userBuilt =
                fake.clusters().get(UUID.fromString(byUser)).spec();
        assertThat(userBuilt.keysFor()).isEqualTo(user);
        ClusterBlueprint pipelineBuilt =
                fake.clusters().get(UUID.fromString(byPipeline)).spec();
        assertThat(pipelineBuilt.keysFor()).isNull();
    }
}
