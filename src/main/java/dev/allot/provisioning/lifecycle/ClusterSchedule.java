package dev.allot.provisioning.lifecycle;

import com.github.kagkarlsson.scheduler.ScheduledExecution;
import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.exceptions.TaskInstanceCurrentlyExecutingException;
import com.github.kagkarlsson.scheduler.exceptions.TaskInstanceNotFoundException;
import com.github.kagkarlsson.scheduler.task.Task;
import com.github.kagkarlsson.scheduler.task.TaskDescriptor;
import com.github.kagkarlsson.scheduler.task.TaskInstanceId;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;
import org.springframework.stereotype.Component;

/**
 * Puts lifecycle steps into db-scheduler's table, one execution per step kind and reservation (the instance id is
 * the reservation id), in the caller's transaction: a step and the change that called for it commit together.
 * Whichever replica polls first runs it. Writes through its own client, so that a replica whose poller is off
 * ({@code db-scheduler.enabled=false}) still schedules work for the others.
 */
@Component
public class ClusterSchedule {

    static final TaskDescriptor<ClusterStep> PROVISION = TaskDescriptor.of("cluster-provision", ClusterStep.class);

    static final TaskDescriptor<ClusterStep> TEARDOWN = TaskDescriptor.of("cluster-teardown", ClusterStep.class);

    /** An on-demand health check: the instance id is the check's id. */
    public static final TaskDescriptor<ClusterStep> HEALTH_CHECK =
            TaskDescriptor.of("cluster-health-check", ClusterStep.class);

    /** A node's check after its reboot: the instance id is {@code <reservation>/<node>/<kind>}. */
    public static final TaskDescriptor<ClusterStep> NODE_RECHECK =
            TaskDescriptor.of("cluster-node-recheck", ClusterStep.class);

    private final DataSource dataSource;

    private final ObjectProvider<Task<?>> tasks;

    private volatile @Nullable SchedulerClient client;

    ClusterSchedule(DataSource dataSource, ObjectProvider<Task<?>> tasks) {
        this.dataSource = dataSource;
        this.tasks = tasks;
    }

    void provision(UUID reservationId, Instant at, String why) {
        put(PROVISION, reservationId, at, why);
    }

    void teardown(UUID reservationId, Instant at, String why) {
        put(TEARDOWN, reservationId, at, why);
    }

    public void healthCheck(UUID checkId, UUID reservationId, Instant at) {
        client().scheduleIfNotExists(HEALTH_CHECK
                .instance(checkId.toString())
                .data(new ClusterStep(reservationId, "health check " + checkId))
                .scheduledTo(at));
    }

    /** Checks the node again once it is back from the reboot a check of this kind called for. */
    public void recheckAfterReboot(UUID reservationId, String node, String kind, Instant at) {
        client().scheduleIfNotExists(NODE_RECHECK
                .instance(reservationId + "/" + node + "/" + kind)
                .data(new ClusterStep(reservationId, "re-check of " + node + " after its reboot"))
                .scheduledTo(at));
    }

    /** Drops a scheduled step that has not started; a running one finishes (steps check the state they act on). */
    void cancel(TaskDescriptor<ClusterStep> step, UUID reservationId) {
        try {
            if (find(step, reservationId).isPresent()) {
                client().cancel(step.instanceId(reservationId.toString()));
            }
        } catch (TaskInstanceCurrentlyExecutingException | TaskInstanceNotFoundException ex) {
            // running or just finished: nothing to drop
        }
    }

    Optional<ScheduledExecution<Object>> find(TaskDescriptor<ClusterStep> step, UUID reservationId) {
        return client().getScheduledExecution(step.instanceId(reservationId.toString()));
    }

    /**
     * Schedules the step, or moves an existing one to the new time. A step that is running now is left alone: it
     * reads the cluster's state when it decides, and the watchdog schedules whatever is still missing afterwards.
     */
    private void put(TaskDescriptor<ClusterStep> step, UUID reservationId, Instant at, String why) {
        ClusterStep data = new ClusterStep(reservationId, why);
        if (client().scheduleIfNotExists(
                        step.instance(reservationId.toString()).data(data).scheduledTo(at))) {
            return;
        }
        TaskInstanceId id = step.instanceId(reservationId.toString());
        try {
            client().reschedule(id, at, data);
        } catch (TaskInstanceCurrentlyExecutingException ex) {
            // see above
        } catch (TaskInstanceNotFoundException ex) {
            // finished between the two calls: schedule anew
            client().scheduleIfNotExists(
                            step.instance(reservationId.toString()).data(data).scheduledTo(at));
        }
    }

    private SchedulerClient client() {
        SchedulerClient current = client;
        if (current == null) {
            synchronized (this) {
                if (client == null) {
                    List<Task<?>> known = tasks.orderedStream().toList();
                    client = SchedulerClient.Builder.create(new TransactionAwareDataSourceProxy(dataSource), known)
                            .build();
                }
                current = client;
            }
        }
        return current;
    }
}
