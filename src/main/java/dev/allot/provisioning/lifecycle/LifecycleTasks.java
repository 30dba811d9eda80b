package dev.allot.provisioning.lifecycle;

import com.github.kagkarlsson.scheduler.task.CompletionHandler;
import com.github.kagkarlsson.scheduler.task.helper.CustomTask;
import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;
import java.time.Instant;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The lifecycle's db-scheduler tasks: per reservation a provision and a teardown step (instance id: the reservation
 * id), retried with backoff by {@link StepRetries} and revived when the replica running them dies; and the
 * recurring {@link Watchdog} and {@link ClusterReconciler} pass. db-scheduler runs each execution on one replica at a time.
 * The health package's steps (an on-demand check, the check after a reboot) are its own ({@code health.HealthTasks}).
 */
@Configuration(proxyBeanMethods = false)
class LifecycleTasks {

    @Bean
    CustomTask<ClusterStep> clusterProvisionTask(
            Provisioning provisioning,
            Failures failures,
            ClusterRepository clusters,
            Timeline timeline,
            LifecycleProperties properties) {
        return Tasks.custom(ClusterSchedule.PROVISION)
                .onFailure(new StepRetries(
                        Timeline.PROVISION,
                        properties.provisionRetry(),
                        clusters,
                        timeline,
                        (instance, id, reason, attempt) ->
                                failures.giveUpBuilding(id, "Provisioning " + reason, attempt, Timeline.PROVISION)))
                .onDeadExecutionRevive()
                .execute((instance, context) -> {
                    Instant again =
                            provisioning.run(instance.getData(), context.getExecution().consecutiveFailures + 1);
                    if (again == null) {
                        return new CompletionHandler.OnCompleteRemove<>();
                    }
                    return (complete, operations) -> operations.reschedule(complete, again);
                });
    }

    @Bean
    CustomTask<ClusterStep> clusterTeardownTask(
            Teardown teardown,
            Failures failures,
            ClusterRepository clusters,
            Timeline timeline,
            LifecycleProperties properties) {
        return Tasks.custom(ClusterSchedule.TEARDOWN)
                .onFailure(new StepRetries(
                        Timeline.TEARDOWN,
                        properties.teardownRetry(),
                        clusters,
                        timeline,
                        (instance, id, reason, attempt) -> failures.giveUpTeardown(id, "it " + reason, attempt)))
                .onDeadExecutionRevive()
                .execute((instance, context) -> {
                    Instant again = teardown.run(
                            instance.getData(),
                            context.getExecution().consecutiveFailures + 1,
                            context.getExecution().executionTime);
                    if (again == null) {
                        return new CompletionHandler.OnCompleteRemove<>();
                    }
                    return (complete, operations) -> operations.reschedule(complete, again);
                });
    }

    /** The reconciler's periodic pass ({@link ClusterReconciler}), on one replica at a time. */
    @Bean
    RecurringTask<Void> clusterReconcilerTask(ClusterReconciler reconciler, LifecycleProperties properties) {
        return Tasks.recurring("cluster-reconciler", FixedDelay.of(properties.reconcileInterval()))
                .execute((instance, context) -> reconciler.pass());
    }

    @Bean
    RecurringTask<Void> clusterWatchdogTask(Watchdog watchdog, LifecycleProperties properties) {
        return Tasks.recurring("cluster-watchdog", FixedDelay.of(properties.watchdogInterval()))
                .execute((instance, context) -> watchdog.run());
    }
}
