package dev.allot.provisioning.lifecycle;

import dev.allot.provisioning.driver.ClusterDriverException;
import dev.allot.provisioning.driver.NodesUnavailableException;
import java.time.Instant;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The provision step: builds a reservation's cluster through its pool's driver, checks it, and hands it over
 * ({@code CREATING} → {@code INSTALLING_DRIVERS} → {@code RUNNING_ACCEPTANCE_TESTS} → {@code READY}, the reservation
 * {@code PROVISIONING} → {@code ACTIVE}). Every decision is taken on the stored state under the cluster's row lock,
 * never held during a driver call; driver calls are idempotent, so a step repeated after a crash or a lost reply
 * converges on the same cluster. A retryable failure is thrown for the scheduler to retry with backoff; a
 * permanent one gives up at once. A step that finds the cluster torn down meanwhile removes what it built itself.
 *
 * <p>
 * Its parts: {@link ProvisionDecision} (what the step does), {@link ClusterBuild} and {@link ClusterVerification}
 * (build, read back, {@link Acceptance}, {@link Handover}), {@link WindowConvergence} (a cluster already handed over),
 * {@link NodeWait} (nodes another cluster still holds) and {@link BuildProgress} (each move under the row lock).
 */
@Component
public class Provisioning {

    private final ProvisionDecision decision;

    private final ClusterBuild build;

    private final WindowConvergence convergence;

    private final BuildProgress progress;

    private final NodeWait nodeWait;

    private final Failures failures;

    private final TransactionTemplate transactions;

    Provisioning(
            ProvisionDecision decision,
            ClusterBuild build,
            WindowConvergence convergence,
            BuildProgress progress,
            NodeWait nodeWait,
            Failures failures,
            TransactionTemplate transactions) {
        this.decision = decision;
        this.build = build;
        this.convergence = convergence;
        this.progress = progress;
        this.nodeWait = nodeWait;
        this.failures = failures;
        this.transactions = transactions;
    }

    /**
     * Runs the step; answers when to run it again when it waits for nodes another cluster still holds, else
     * {@code null}.
     */
    public @Nullable Instant run(ClusterStep step, int attempt) {
        ProvisionDecision.Plan plan = transactions.execute(status -> decision.plan(step, attempt));
        try {
            switch (plan.kind()) {
                case SKIP -> {}
                case BUILD -> build.build(plan.reservationToBuild(), plan.clusterToBuild(), attempt);
                case CONVERGE -> convergence.converge(plan.reservationToBuild(), attempt);
                case CLEAN ->
                    progress.removeWhatWasBuilt(
                            plan.clusterToBuild().ref(), plan.clusterToBuild().pool(), attempt);
            }
        } catch (NodesUnavailableException ex) {
            if (!ex.retryable()) {
                failures.giveUpBuilding(step.reservationId(), ex.getMessage(), attempt, Timeline.PROVISION);
                return null;
            }
            return nodeWait.waitFor(step.reservationId(), ex, attempt);
        } catch (ClusterDriverException ex) {
            if (ex.retryable()) {
                throw ex;
            }
            failures.giveUpBuilding(step.reservationId(), ex.getMessage(), attempt, Timeline.PROVISION);
        } catch (IllegalArgumentException ex) {
            failures.giveUpBuilding(
                    step.reservationId(),
                    "The booking cannot be built: " + ex.getMessage(),
                    attempt,
                    Timeline.PROVISION);
        }
        return null;
    }
}
