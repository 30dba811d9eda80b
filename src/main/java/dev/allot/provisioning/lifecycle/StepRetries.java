package dev.allot.provisioning.lifecycle;

import com.github.kagkarlsson.scheduler.task.Execution;
import com.github.kagkarlsson.scheduler.task.ExecutionComplete;
import com.github.kagkarlsson.scheduler.task.ExecutionOperations;
import com.github.kagkarlsson.scheduler.task.FailureHandler;
import dev.allot.provisioning.driver.ClusterDriverException;
import java.time.Instant;
import java.util.UUID;

/**
 * What db-scheduler does when a lifecycle step throws: bounded retries with exponential backoff, each failure and
 * the time of the next attempt recorded in the cluster's timeline, and giving up once the attempts are used up.
 * The attempt count is db-scheduler's (persisted with the execution), so it survives restarts and replicas.
 */
public final class StepRetries implements FailureHandler<ClusterStep> {

    public interface GiveUp {

        /** @param instanceId the execution's instance id (the reservation id, or a health check's id) */
        void giveUp(String instanceId, UUID reservationId, String reason, int attempt);
    }

    private final String step;

    private final LifecycleProperties.Retry retry;

    private final ClusterRepository clusters;

    private final Timeline timeline;

    private final GiveUp giveUp;

    public StepRetries(
            String step,
            LifecycleProperties.Retry retry,
            ClusterRepository clusters,
            Timeline timeline,
            GiveUp giveUp) {
        this.step = step;
        this.retry = retry;
        this.clusters = clusters;
        this.timeline = timeline;
        this.giveUp = giveUp;
    }

    @Override
    public void onFailure(ExecutionComplete complete, ExecutionOperations<ClusterStep> operations) {
        Execution execution = complete.getExecution();
        ClusterStep data = (ClusterStep) execution.taskInstance.getData();
        int attempt = execution.consecutiveFailures + 1;
        String cause = complete.getCause().map(StepRetries::describe).orElse("unknown error");
        if (attempt >= retry.attempts()) {
            // Give up first: should that fail, the execution stays, is found dead and runs (and gives up) again.
            giveUp.giveUp(
                    execution.taskInstance.getId(),
                    data.reservationId(),
                    "failed " + attempt + " times; the last error: " + cause,
                    attempt);
            operations.remove();
            return;
        }
        Instant next = complete.getTimeDone().plus(retry.delayAfter(attempt));
        operations.reschedule(complete, next);
        clusters.find(data.reservationId())
                .ifPresent(cluster -> timeline.record(
                        data.reservationId(),
                        step,
                        "RETRYING",
                        cluster.state(),
                        attempt,
                        "Attempt " + attempt + " of " + retry.attempts() + " failed: " + cause
                                + ". The next attempt runs at " + next + "."));
    }

    static String describe(Throwable cause) {
        if (cause instanceof ClusterDriverException driverFailure) {
            return driverFailure.getMessage();
        }
        return cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
    }
}
