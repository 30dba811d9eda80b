package dev.allot.provisioning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.allot.provisioning.driver.fake.FakeDriver;
import dev.allot.support.Api;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Lifecycle tests of reclaiming on the fake driver: a borrower's READY cluster on a whole pool, and a guaranteed
 * booking that preempts it.
 */
abstract class ReclaimingLifecycleTest extends LifecycleTest {

    @Autowired
    FakeDriver fake;

    @BeforeEach
    void resetTheFakeDriver() {
        fake.reset();
    }

    /** A 2-node pool filled by a borrower, whose cluster is READY, and a tenant guaranteed the whole pool. */
    record Reclaim(Setup borrower, Setup guaranteed, String victim) {}

    Reclaim borrowerRunningOnTheWholePool() {
        return borrowerRunning(16);
    }

    /** The same 2-node pool, the borrower's READY cluster on {@code gpus} of its 16 GPUs. */
    Reclaim borrowerRunning(int gpus) {
        String type = newGpuType();
        setRateCard(type);
        String pool = newPool(type, 8);
        List<String> nodes = addNodes(pool, 2, 4);
        Setup borrower = setup(2, nodes, pool, type);
        Map<String, Object> borrowing = policy(type, 0, 16, false);
        borrowing.put("priority", "EXPERIMENT");
        setQuota(borrower.tenant(), borrowing);
        Setup guaranteed = setup(2, nodes, pool, type);

        Instant start = now().truncatedTo(ChronoUnit.MINUTES).plus(Duration.ofMinutes(2));
        String victim = bookAndAwaitSchedule(borrower, gpus, start, hour(8), "SLURM");
        runDueAt(start);
        assertThat(cluster(borrower, victim).get("state").asString()).isEqualTo("READY");
        return new Reclaim(borrower, guaranteed, victim);
    }

    /** The guaranteed tenant books at the start its 409 names: the end of the borrower's notice. */
    String reclaimAtTheNoticesEnd(Reclaim r) {
        Instant soon = now().truncatedTo(ChronoUnit.MINUTES).plus(Duration.ofMinutes(10));
        Api.Response refused = book(r.guaranteed(), 16, soon, soon.plus(Duration.ofHours(1)), "SLURM");
        assertThat(refused.status()).as(refused.toString()).isEqualTo(409);
        Instant earliest = Instant.parse(refused.json().get("earliestStart").asString());
        String id = bookAndAwaitSchedule(r.guaranteed(), 16, earliest, earliest.plus(Duration.ofHours(1)), "SLURM");
        assertThat(reservationStatus(r.borrower(), r.victim())).isEqualTo("PREEMPTED");
        await().atMost(Duration.ofSeconds(30))
                .until(() -> cluster(r.borrower(), r.victim())
                        .get("timeline")
                        .valueStream()
                        .anyMatch(e -> e.get("detail").asString().startsWith("Preempted: teardown brought forward")));
        return id;
    }

    Instant noticeEnd(String victim) {
        return jdbc.sql("SELECT max(upper(during)) FROM allocation WHERE reservation_id = ?::uuid AND active")
                .param(victim)
                .query(Timestamp.class)
                .single()
                .toInstant();
    }

    Instant startOf(Setup s, String id) {
        return Instant.parse(
                api.get(path(s, id), s.token()).json().get("startsAt").asString());
    }
}
