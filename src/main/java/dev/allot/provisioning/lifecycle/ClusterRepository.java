package dev.allot.provisioning.lifecycle;

import dev.allot.booking.spec.ClusterSpec.Orchestrator;
import dev.allot.provisioning.driver.Endpoints;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * Clusters and their timelines. A state change is made by the {@link Cluster} and stored only over the state it
 * left ({@link #moved}), so that two steps racing on one cluster (a teardown overtaking a build) cannot undo each
 * other: the loser learns it lost.
 */
@Repository
public class ClusterRepository {

    private static final TypeReference<List<NodeHealth>> NODES = new TypeReference<>() {};

    private final JdbcClient jdbc;

    private final JsonMapper json;

    ClusterRepository(JdbcClient jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    /** Creates the cluster of a newly confirmed reservation; false when it exists (a redelivered event). */
    boolean insertIfAbsent(
            UUID reservationId,
            String tenant,
            String pool,
            Orchestrator orchestrator,
            Instant provisionAt,
            Instant endsAt,
            Instant now) {
        return jdbc.sql("""
				INSERT INTO cluster (reservation_id, tenant_slug, pool_name, orchestrator, state, state_changed_at,
				    provision_at, ends_at, created_at)
				VALUES (?, ?, ?, ?, 'PENDING', ?, ?, ?, ?) ON CONFLICT (reservation_id) DO NOTHING""")
                        .params(
                                reservationId,
                                tenant,
                                pool,
                                orchestrator.name(),
                                ts(now),
                                ts(provisionAt),
                                ts(endsAt),
                                ts(now))
                        .update()
                == 1;
    }

    public Optional<Cluster> find(UUID reservationId) {
        return jdbc.sql("SELECT * FROM cluster WHERE reservation_id = ?")
                .param(reservationId)
                .query(this::cluster)
                .optional();
    }

    /** The clusters of these reservations that serve {@code DEGRADED}. */
    public List<Cluster> degraded(Collection<UUID> reservationIds) {
        if (reservationIds.isEmpty()) {
            return List.of();
        }
        return jdbc.sql("SELECT * FROM cluster WHERE reservation_id = ANY(?) AND state = 'DEGRADED'")
                .param(reservationIds.toArray(UUID[]::new))
                .query(this::cluster)
                .list();
    }

    /** The open, serving cluster running on this node now, if any. */
    public Optional<Cluster> servingOn(String hostname) {
        return jdbc.sql("""
				SELECT * FROM cluster WHERE open AND state IN ('READY', 'DEGRADED')
				  AND nodes @> jsonb_build_array(jsonb_build_object('hostname', CAST(? AS text)))
				ORDER BY state_changed_at DESC LIMIT 1""").param(hostname).query(this::cluster).optional();
    }

    /** Locks the cluster for a decision; steps hold it only for that, never during a driver call. */
    public Optional<Cluster> findForUpdate(UUID reservationId) {
        return jdbc.sql("SELECT * FROM cluster WHERE reservation_id = ? FOR UPDATE")
                .param(reservationId)
                .query(this::cluster)
                .optional();
    }

    /**
     * Stores a transition the cluster made ({@code after}, from {@code before}); false, storing nothing, when another
     * step moved the cluster first.
     */
    boolean moved(Cluster before, Cluster after) {
        return jdbc.sql("""
				UPDATE cluster SET state = ?, state_reason = ?, failure_reason = ?, state_changed_at = ?
				WHERE reservation_id = ? AND state = ?""")
                        .params(
                                after.state().name(),
                                after.stateReason(),
                                after.failureReason(),
                                ts(after.stateChangedAt()),
                                before.reservationId(),
                                before.state().name())
                        .update()
                == 1;
    }

    void startedBuilding(UUID reservationId, Instant now) {
        jdbc.sql("UPDATE cluster SET provisioning_started_at = coalesce(provisioning_started_at, ?) "
                        + "WHERE reservation_id = ?")
                .params(ts(now), reservationId)
                .update();
    }

    public void built(UUID reservationId, Endpoints endpoints, List<NodeHealth> nodes) {
        jdbc.sql("UPDATE cluster SET endpoints = ?::jsonb, nodes = ?::jsonb WHERE reservation_id = ?")
                .params(json.writeValueAsString(endpoints), json.writeValueAsString(nodes), reservationId)
                .update();
    }

    void ready(UUID reservationId, Instant now) {
        jdbc.sql("UPDATE cluster SET ready_at = coalesce(ready_at, ?) WHERE reservation_id = ?")
                .params(ts(now), reservationId)
                .update();
    }

    /** The lifecycle is done with the cluster: torn down, or given up on ({@code tornDown} false). */
    void close(UUID reservationId, boolean tornDown, Instant now) {
        jdbc.sql("""
				UPDATE cluster SET open = false,
				    torn_down_at = CASE WHEN CAST(:tornDown AS boolean) THEN CAST(:now AS timestamptz) END
				WHERE reservation_id = :id""")
                .param("tornDown", tornDown)
                .param("now", ts(now))
                .param("id", reservationId)
                .update();
    }

    /**
     * Which of these nodes another cluster still has, as Allot last recorded it (built, being built or being torn
     * down): a node a cluster holds until its teardown has removed it.
     */
    List<String> inOtherClusters(UUID reservationId, Collection<String> hostnames) {
        return jdbc.sql("""
				SELECT DISTINCT e ->> 'hostname' FROM cluster c, jsonb_array_elements(c.nodes) e
				WHERE c.open AND c.reservation_id <> ? AND c.state NOT IN ('PENDING', 'DELETED')
				  AND e ->> 'hostname' = ANY(?) ORDER BY 1""")
                .params(reservationId, hostnames.toArray(String[]::new))
                .query(String.class)
                .list();
    }

    /**
     * Claims the reconciliation of a serving cluster until {@code until}: empty when the cluster is not serving or
     * another replica's claim has not run out. The claim is a lease, not a row lock: its owner talks to the driver
     * while holding it.
     */
    Optional<Cluster> claim(UUID reservationId, Instant now, Instant until) {
        return jdbc.sql("""
				UPDATE cluster SET reconciling_until = :until
				WHERE reservation_id = :id AND open AND state IN ('READY', 'DEGRADED')
				  AND (reconciling_until IS NULL OR reconciling_until <= :now)
				RETURNING *""")
                .param("until", ts(until))
                .param("id", reservationId)
                .param("now", ts(now))
                .query(this::cluster)
                .optional();
    }

    void release(UUID reservationId) {
        jdbc.sql("UPDATE cluster SET reconciling_until = NULL WHERE reservation_id = ?")
                .param(reservationId)
                .update();
    }

    /** Of these reservations, those whose cluster is serving and whose window runs at {@code now}. */
    List<UUID> servingAmong(Collection<UUID> reservationIds, Instant now) {
        return jdbc.sql("""
				SELECT reservation_id FROM cluster
				WHERE reservation_id = ANY(:ids) AND open AND state IN ('READY', 'DEGRADED')
				  AND provision_at <= :now AND ends_at > :now""")
                .param("ids", reservationIds.toArray(UUID[]::new))
                .param("now", ts(now))
                .query(UUID.class)
                .list();
    }

    /** An open cluster whose last timeline entry says it waits for nodes another cluster still has. */
    record Waiting(UUID reservationId, boolean serving) {}

    /** The open clusters of these pools, their windows begun building by {@code now}, that wait for nodes. */
    List<Waiting> waitingIn(Collection<UUID> poolIds, Instant now) {
        return jdbc.sql("""
				SELECT c.reservation_id, c.state IN ('READY', 'DEGRADED') AS serving
				FROM cluster c JOIN reservation r ON r.id = c.reservation_id
				WHERE c.open AND c.state <> 'PENDING' AND r.pool_id = ANY(:pools)
				  AND c.provision_at <= :now AND c.ends_at > :now
				  AND (SELECT e.outcome FROM cluster_event e WHERE e.reservation_id = c.reservation_id
				       ORDER BY e.id DESC LIMIT 1) = 'WAITING'""")
                .param("pools", poolIds.toArray(UUID[]::new))
                .param("now", ts(now))
                .query((rs, n) -> new Waiting(rs.getObject("reservation_id", UUID.class), rs.getBoolean("serving")))
                .list();
    }

    /** The serving clusters whose window runs at {@code now}, least recently changed first. */
    List<UUID> serving(Instant now, int limit) {
        return jdbc.sql("""
				SELECT reservation_id FROM cluster
				WHERE open AND state IN ('READY', 'DEGRADED') AND provision_at <= :now AND ends_at > :now
				ORDER BY state_changed_at LIMIT :limit""")
                .param("now", ts(now))
                .param("limit", limit)
                .query(UUID.class)
                .list();
    }

    void reschedule(UUID reservationId, Instant endsAt) {
        jdbc.sql("UPDATE cluster SET ends_at = ? WHERE reservation_id = ?")
                .params(ts(endsAt), reservationId)
                .update();
    }

    /**
     * Open clusters that may need the watchdog: building for longer than allowed, or due for a step that is not
     * scheduled. Clusters booked for later are not looked at until their provisioning is due.
     */
    List<Cluster> suspects(Instant now, Instant stuckBefore, int limit) {
        return jdbc.sql("""
				SELECT * FROM cluster c
				WHERE c.open AND c.state = 'PENDING' AND c.provision_at <= :now
				  AND (NOT EXISTS (SELECT 1 FROM scheduled_tasks t
				                   WHERE t.task_name = 'cluster-provision' AND t.task_instance = c.reservation_id::text)
				       OR NOT EXISTS (SELECT 1 FROM scheduled_tasks t
				                   WHERE t.task_name = 'cluster-teardown' AND t.task_instance = c.reservation_id::text))
				UNION ALL
				SELECT * FROM cluster c
				WHERE c.open AND c.state <> 'PENDING'
				  AND ((c.state IN ('CREATING', 'INSTALLING_DRIVERS', 'RUNNING_ACCEPTANCE_TESTS')
				        AND (c.provisioning_started_at < :stuck
				             OR NOT EXISTS (SELECT 1 FROM scheduled_tasks t WHERE t.task_name = 'cluster-provision'
				                            AND t.task_instance = c.reservation_id::text)))
				       OR NOT EXISTS (SELECT 1 FROM scheduled_tasks t
				                      WHERE t.task_name = 'cluster-teardown' AND t.task_instance = c.reservation_id::text))
				LIMIT :limit""")
                .param("now", ts(now))
                .param("stuck", ts(stuckBefore))
                .param("limit", limit)
                .query(this::cluster)
                .list();
    }

    void record(
            UUID reservationId,
            String step,
            String outcome,
            ClusterState state,
            @Nullable Integer attempt,
            String detail,
            Instant at) {
        String bounded = detail.length() > 4000 ? detail.substring(0, 3997) + "..." : detail;
        jdbc.sql("""
				INSERT INTO cluster_event (reservation_id, at, step, outcome, state, attempt, detail)
				VALUES (?, ?, ?, ?, ?, ?, ?)""")
                .params(reservationId, ts(at), step, outcome, state.name(), attempt, bounded)
                .update();
    }

    List<TimelineEntry> timeline(UUID reservationId) {
        return jdbc.sql("SELECT * FROM cluster_event WHERE reservation_id = ? ORDER BY id")
                .param(reservationId)
                .query((rs, n) -> new TimelineEntry(
                        rs.getTimestamp("at").toInstant(),
                        rs.getString("step"),
                        rs.getString("outcome"),
                        ClusterState.valueOf(rs.getString("state")),
                        (Integer) rs.getObject("attempt"),
                        rs.getString("detail")))
                .list();
    }

    private Cluster cluster(ResultSet rs, int row) throws SQLException {
        return new Cluster(
                rs.getObject("reservation_id", UUID.class),
                rs.getString("tenant_slug"),
                rs.getString("pool_name"),
                Orchestrator.valueOf(rs.getString("orchestrator")),
                ClusterState.valueOf(rs.getString("state")),
                rs.getString("state_reason"),
                Objects.requireNonNull(instant(rs, "state_changed_at"), "NOT NULL"),
                Objects.requireNonNull(instant(rs, "provision_at"), "NOT NULL"),
                Objects.requireNonNull(instant(rs, "ends_at"), "NOT NULL"),
                instant(rs, "provisioning_started_at"),
                instant(rs, "ready_at"),
                instant(rs, "torn_down_at"),
                rs.getString("failure_reason"),
                rs.getBoolean("open"),
                json.readValue(rs.getString("endpoints"), Endpoints.class),
                json.readValue(rs.getString("nodes"), NODES));
    }

    private static @Nullable Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp value = rs.getTimestamp(column);
        return value == null ? null : value.toInstant();
    }

    private static Timestamp ts(Instant instant) {
        return Timestamp.from(instant);
    }
}
