package dev.allot.provisioning.health;

import com.github.kagkarlsson.scheduler.task.CompletionHandler;
import com.github.kagkarlsson.scheduler.task.helper.CustomTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import dev.allot.provisioning.driver.HealthCheckKind;
import dev.allot.provisioning.lifecycle.ClusterRepository;
import dev.allot.provisioning.lifecycle.ClusterSchedule;
import dev.allot.provisioning.lifecycle.ClusterStep;
import dev.allot.provisioning.lifecycle.LifecycleProperties;
import dev.allot.provisioning.lifecycle.StepRetries;
import dev.allot.provisioning.lifecycle.Timeline;
import java.time.Instant;
import java.util.UUID;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The health package's db-scheduler tasks, steps of a cluster like the lifecycle's and retried the same way
 * ({@link StepRetries}): an on-demand check (instance id: the check's id, {@link HealthCheckRuns}) and the check of a
 * node back from its reboot (instance id: reservation/node/kind, {@link RebootRechecks}).
 */
@Configuration(proxyBeanMethods = false)
class HealthTasks {

    @Bean
    CustomTask<ClusterStep> clusterHealthCheckTask(
            HealthCheckRuns runs, ClusterRepository clusters, Timeline timeline) {
        return Tasks.custom(ClusterSchedule.HEALTH_CHECK)
                .onFailure(new StepRetries(
                        Timeline.HEALTH_CHECK,
                        new LifecycleProperties.Retry(
                                3,
                                LifecycleProperties.Retry.DEFAULT_INITIAL_DELAY,
                                LifecycleProperties.Retry.DEFAULT_MAX_DELAY),
                        clusters,
                        timeline,
                        (instance, id, reason, attempt) ->
                                runs.giveUp(UUID.fromString(instance), id, "The check " + reason)))
                .onDeadExecutionRevive()
                .execute((instance, context) -> {
                    runs.run(
                            UUID.fromString(instance.getId()),
                            instance.getData().reservationId(),
                            context.getExecution().consecutiveFailures + 1);
                    return new CompletionHandler.OnCompleteRemove<>();
                });
    }

    @Bean
    CustomTask<ClusterStep> clusterNodeRecheckTask(
            RebootRechecks rechecks, ClusterRepository clusters, Timeline timeline) {
        return Tasks.custom(ClusterSchedule.NODE_RECHECK)
                .onFailure(new StepRetries(
                        Timeline.REMEDIATION,
                        new LifecycleProperties.Retry(
                                3,
                                LifecycleProperties.Retry.DEFAULT_INITIAL_DELAY,
                                LifecycleProperties.Retry.DEFAULT_MAX_DELAY),
                        clusters,
                        timeline,
                        (instance, id, reason, attempt) -> rechecks.giveUp(id, instance.split("/", 3)[1], reason)))
                .onDeadExecutionRevive()
                .execute((instance, context) -> {
                    String[] parts = instance.getId().split("/", 3);
                    Instant again = rechecks.run(
                            instance.getData().reservationId(), parts[1], HealthCheckKind.valueOf(parts[2]));
                    if (again == null) {
                        return new CompletionHandler.OnCompleteRemove<>();
                    }
                    return (complete, operations) -> operations.reschedule(complete, again);
                });
    }
}
