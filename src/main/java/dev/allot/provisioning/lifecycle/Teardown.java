package dev.allot.provisioning.lifecycle;

import dev.allot.provisioning.driver.ClusterDriver;
import dev.allot.provisioning.driver.ClusterDriverException;
import dev.allot.provisioning.driver.ClusterDrivers;
import dev.allot.provisioning.driver.ClusterStatus;
import dev.allot.provisioning.driver.DriverFailedException;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The teardown step, at the end of the window, after a cancellation, or to clean up after a failure: the cluster
 * goes {@code DELETING} → {@code DELETED} (a failed one stays {@code FAILED}), the reservation {@code ACTIVE} →
 * {@code ENDING} → {@code COMPLETED}. It is done only when the driver finds nothing left. A teardown that comes
 * before the reservation's allocations end (its window was extended after the step was scheduled, or a preempted
 * reservation's notice has not run out) waits for that end, read from the allocations, never from a copy.
 */
@Component
public class Teardown {

    private final TeardownDecision decision;

    private final TeardownCompletion completion;

    private final ClusterDrivers drivers;

    private final ClusterVolumes volumes;

    private final Failures failures;

    private final TransactionTemplate transactions;

    Teardown(
            TeardownDecision decision,
            TeardownCompletion completion,
            ClusterDrivers drivers,
            ClusterVolumes volumes,
            Failures failures,
            TransactionTemplate transactions) {
        this.decision = decision;
        this.completion = completion;
        this.drivers = drivers;
        this.volumes = volumes;
        this.failures = failures;
        this.transactions = transactions;
    }

    /** Runs the step; answers when to run it again if it came before the end of the window, else {@code null}. */
    public @Nullable Instant run(ClusterStep step, int attempt, Instant scheduledFor) {
        TeardownDecision.Plan plan = transactions.execute(status -> decision.plan(step, attempt, scheduledFor));
        String volumesDone = "";
        switch (plan.kind()) {
            case DONE -> {
                return null;
            }
            case POSTPONE -> {
                return plan.postponeTo();
            }
            case REMOVE -> {
                Cluster cluster = Objects.requireNonNull(plan.cluster(), "a plan to remove has its cluster");
                try {
                    ClusterDriver driver = drivers.forPool(cluster.pool());
                    driver.teardown(cluster.ref());
                    volumesDone = volumes.removeAtTeardown(driver, cluster.ref());
                    ClusterStatus left = driver.status(cluster.ref());
                    if (left.phase() != ClusterStatus.Phase.ABSENT) {
                        throw new DriverFailedException(
                                "Teardown is not finished: the driver finds the cluster " + left.phase() + " on "
                                        + String.join(", ", left.nodes()),
                                true);
                    }
                } catch (ClusterDriverException ex) {
                    if (ex.retryable()) {
                        throw ex;
                    }
                    failures.giveUpTeardown(step.reservationId(), ex.getMessage(), attempt);
                    return null;
                }
            }
            case NOTHING_BUILT -> {}
        }
        completion.finish(step.reservationId(), attempt, volumesDone);
        return null;
    }
}
