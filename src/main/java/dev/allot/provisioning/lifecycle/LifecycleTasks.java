package dev.allot.provisioning.lifecycle;

import java.time.Instant;
import java.util.UUID;

import com.github.kagkarlsson.scheduler.task.CompletionHandler;
import com.github.kagkarlsson.scheduler.task.helper.CustomTask;
import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;
import dev.allot.provisioning.health.HealthCheckKind;
import dev.allot.provisioning.health.HealthCheckRuns;
import dev.allot.provisioning.health.RebootRechecks;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The lifecycle's db-scheduler tasks: per reservation a provision and a teardown step (instance id: the reservation
 * id), retried with backoff by {@link StepRetries} and revived when the replica running them dies; and the
 * recurring {@link Watchdog} and {@link ClusterReconciler} pass. db-scheduler runs each execution on one replica at a time.
 */
@Configuration(proxyBeanMethods = false)
class LifecycleTasks {

	@Bean
	CustomTask<ClusterStep> clusterProvisionTask(Provisioning provisioning, Failures failures, Clusters clusters,
			Timeline timeline, LifecycleProperties properties) {
		return Tasks.custom(ClusterSchedule.PROVISION)
			.onFailure(new StepRetries(Timeline.PROVISION, properties.provisionRetry(), clusters, timeline,
					(instance, id, reason, attempt) -> failures.giveUpBuilding(id, "Provisioning " + reason,
							attempt, Timeline.PROVISION)))
			.onDeadExecutionRevive()
			.execute((instance, context) -> {
				Instant again = provisioning.run(instance.getData(), context.getExecution().consecutiveFailures + 1);
				if (again == null) {
					return new CompletionHandler.OnCompleteRemove<>();
				}
				return (complete, operations) -> operations.reschedule(complete, again);
			});
	}

	@Bean
	CustomTask<ClusterStep> clusterTeardownTask(Teardown teardown, Failures failures, Clusters clusters,
			Timeline timeline, LifecycleProperties properties) {
		return Tasks.custom(ClusterSchedule.TEARDOWN)
			.onFailure(new StepRetries(Timeline.TEARDOWN, properties.teardownRetry(), clusters, timeline,
					(instance, id, reason, attempt) -> failures.giveUpTeardown(id, "it " + reason, attempt)))
			.onDeadExecutionRevive()
			.execute((instance, context) -> {
				Instant again = teardown.run(instance.getData(), context.getExecution().consecutiveFailures + 1,
						context.getExecution().executionTime);
				if (again == null) {
					return new CompletionHandler.OnCompleteRemove<>();
				}
				return (complete, operations) -> operations.reschedule(complete, again);
			});
	}

	@Bean
	CustomTask<ClusterStep> clusterHealthCheckTask(HealthCheckRuns runs, Clusters clusters, Timeline timeline) {
		return Tasks.custom(ClusterSchedule.HEALTH_CHECK)
			.onFailure(new StepRetries(Timeline.HEALTH_CHECK, new LifecycleProperties.Retry(3, null, null), clusters,
					timeline, (instance, id, reason, attempt) -> runs.giveUp(UUID.fromString(instance), id,
							"The check " + reason)))
			.onDeadExecutionRevive()
			.execute((instance, context) -> {
				runs.run(UUID.fromString(instance.getId()), instance.getData().reservationId(),
						context.getExecution().consecutiveFailures + 1);
				return new CompletionHandler.OnCompleteRemove<>();
			});
	}

	@Bean
	CustomTask<ClusterStep> clusterNodeRecheckTask(RebootRechecks rechecks, Clusters clusters, Timeline timeline) {
		return Tasks.custom(ClusterSchedule.NODE_RECHECK)
			.onFailure(new StepRetries(Timeline.REMEDIATION, new LifecycleProperties.Retry(3, null, null), clusters,
					timeline, (instance, id, reason, attempt) -> rechecks.giveUp(id, instance.split("/", 3)[1], reason)))
			.onDeadExecutionRevive()
			.execute((instance, context) -> {
				String[] parts = instance.getId().split("/", 3);
				Instant again = rechecks.run(instance.getData().reservationId(), parts[1],
						HealthCheckKind.valueOf(parts[2]));
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
