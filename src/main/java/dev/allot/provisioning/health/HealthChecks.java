package dev.allot.provisioning.health;

import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditRecord;
import dev.allot.booking.Bookings;
import dev.allot.provisioning.driver.ClusterDrivers;
import dev.allot.provisioning.driver.HealthCheckKind;
import dev.allot.provisioning.lifecycle.Cluster;
import dev.allot.provisioning.lifecycle.ClusterRepository;
import dev.allot.provisioning.lifecycle.ClusterSchedule;
import dev.allot.provisioning.lifecycle.ClusterState;
import dev.allot.provisioning.lifecycle.Timeline;
import dev.allot.shared.AllotException;
import dev.allot.shared.IdempotencyKey;
import dev.allot.shared.security.Caller;
import dev.allot.shared.security.TenantRole;
import dev.allot.tenancy.Tenancy;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * On-demand health checks of a reservation's nodes. Asking queues a check (a db-scheduler step, see
 * {@link HealthCheckRuns}) and answers at once; the tenant then reads it until it has finished. Only a ready
 * cluster on a driver that runs checks can be checked; the same Idempotency-Key asks for the same check once.
 */
@Service
public class HealthChecks {

    /** A check, and whether it was asked for before with the same Idempotency-Key. */
    public record Requested(HealthCheck check, boolean replayed) {}

    private final Bookings bookings;

    private final Tenancy tenancy;

    private final ClusterRepository clusters;

    private final ClusterDrivers drivers;

    private final HealthCheckRepository store;

    private final ClusterSchedule schedule;

    private final Timeline timeline;

    private final AuditLog audit;

    private final TransactionTemplate transactions;

    private final Clock clock;

    HealthChecks(
            Bookings bookings,
            Tenancy tenancy,
            ClusterRepository clusters,
            ClusterDrivers drivers,
            HealthCheckRepository store,
            ClusterSchedule schedule,
            Timeline timeline,
            AuditLog audit,
            TransactionTemplate transactions,
            Clock clock) {
        this.bookings = bookings;
        this.tenancy = tenancy;
        this.clusters = clusters;
        this.drivers = drivers;
        this.store = store;
        this.schedule = schedule;
        this.timeline = timeline;
        this.audit = audit;
        this.transactions = transactions;
        this.clock = clock;
    }

    /**
     * @param acrossNodes an {@code NCCL_ALL_REDUCE} as one job across all the cluster's nodes (two or more, on a
     * driver that runs such jobs), judged by the GPU type's multi-node bus bandwidth
     */
    public Requested request(
            Caller caller,
            String tenant,
            UUID reservationId,
            HealthCheckKind kind,
            @Nullable Integer level,
            boolean acrossNodes,
            @Nullable IdempotencyKey idempotencyKey) {
        requireValidOptions(kind, level, acrossNodes);
        bookings.get(caller, tenant, reservationId);
        tenancy.writable(caller, tenant, TenantRole.MEMBER);
        Optional<Requested> asked = replay(reservationId, idempotencyKey);
        if (asked.isPresent()) {
            return asked.get();
        }
        Cluster cluster = checkable(reservationId);
        if (acrossNodes) {
            requireAcrossNodes(reservationId, cluster);
        }
        HealthCheck check = new HealthCheck(
                UUID.randomUUID(),
                reservationId,
                kind,
                level,
                acrossNodes,
                HealthCheck.Status.QUEUED,
                caller.subject(),
                clock.instant(),
                null,
                null,
                List.of(),
                null);
        try {
            transactions.executeWithoutResult(status -> {
                store.insert(check, idempotencyKey);
                schedule.healthCheck(check.id(), reservationId, check.requestedAt());
                timeline.record(
                        reservationId,
                        Timeline.HEALTH_CHECK,
                        "SCHEDULED",
                        cluster.state(),
                        null,
                        kind + (level == null ? "" : " level " + level) + (acrossNodes ? " across all nodes" : "")
                                + " asked for by " + caller.subject() + " (check " + check.id() + ").");
                audit.record(
                        AuditRecord.created(tenant, "health-check", check.id().toString(), check));
            });
        } catch (DuplicateKeyException ex) {
            // The same key raced its twin, which won: answer as it did.
            return replay(reservationId, idempotencyKey).orElseThrow(() -> ex);
        }
        return new Requested(check, false);
    }

    /** A DCGM level only for DCGM_DIAG, 1 to 3; across nodes only for NCCL_ALL_REDUCE. */
    private static void requireValidOptions(HealthCheckKind kind, @Nullable Integer level, boolean acrossNodes) {
        if (level != null && (kind != HealthCheckKind.DCGM_DIAG || level < 1 || level > 3)) {
            throw new AllotException(
                    400,
                    "invalid_request",
                    "Invalid request",
                    "level is the DCGM diagnostic level, 1 to 3, and only for DCGM_DIAG");
        }
        if (acrossNodes && kind != HealthCheckKind.NCCL_ALL_REDUCE) {
            throw new AllotException(
                    400,
                    "invalid_request",
                    "Invalid request",
                    "acrossNodes runs one job across all the cluster's nodes: only for NCCL_ALL_REDUCE");
        }
    }

    /** The reservation's cluster, when it is serving on a pool whose driver runs checks on demand. */
    private Cluster checkable(UUID reservationId) {
        Cluster cluster = clusters.find(reservationId).orElse(null);
        if (cluster == null || !cluster.open() || !cluster.state().isServing()) {
            ClusterState state = cluster == null ? ClusterState.PENDING : cluster.state();
            throw AllotException.conflict(
                            "cluster_not_ready",
                            "The cluster of reservation " + reservationId + " is " + state
                                    + ": only a READY or DEGRADED cluster can be checked")
                    .with("state", state);
        }
        if (!drivers.forPool(cluster.pool()).supportsHealthChecks()) {
            throw AllotException.conflict(
                    "health_checks_not_supported",
                    "The driver of pool " + cluster.pool() + " runs no health checks on demand");
        }
        return cluster;
    }

    private void requireAcrossNodes(UUID reservationId, Cluster cluster) {
        if (cluster.nodes().size() < 2) {
            throw AllotException.conflict(
                    "single_node_cluster",
                    "The cluster of reservation " + reservationId + " has "
                            + cluster.nodes().size() + " node: an all-reduce across nodes needs two or more");
        }
        if (!drivers.forPool(cluster.pool()).supportsMultiNodeChecks()) {
            throw AllotException.conflict(
                    "multi_node_checks_not_supported",
                    "The driver of pool " + cluster.pool() + " runs no check across nodes");
        }
    }

    public HealthCheck get(Caller caller, String tenant, UUID reservationId, UUID checkId) {
        bookings.get(caller, tenant, reservationId);
        return store.find(reservationId, checkId).orElseThrow(() -> AllotException.notFound("Health check " + checkId));
    }

    /** The check already asked for with this key (after a crash lost its answer, or by a twin that won a race). */
    private Optional<Requested> replay(UUID reservationId, @Nullable IdempotencyKey key) {
        if (key == null) {
            return Optional.empty();
        }
        return store.byIdempotencyKey(reservationId, key).map(existing -> {
            key.requireSameRequest(existing.requestHash());
            return new Requested(existing.check(), true);
        });
    }
}
