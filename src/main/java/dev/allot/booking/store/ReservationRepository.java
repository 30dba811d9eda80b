package dev.allot.booking.store;

import dev.allot.booking.Bookings;
import dev.allot.booking.Reservation;
import dev.allot.booking.ReservationLifecycle;
import dev.allot.booking.ReservationStatus;
import dev.allot.booking.spec.ClusterSpec;
import dev.allot.booking.spec.Labels;
import dev.allot.quota.QuotaDecision;
import dev.allot.shared.CursorPage;
import dev.allot.shared.IdempotencyKey;
import dev.allot.shared.ListQuery;
import dev.allot.shared.TimeWindow;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.databind.json.JsonMapper;

/**
 * The reservation rows: a reservation as stored, with the stage its cluster gives it ({@link ReservationStages}), the
 * facts booking stores on it, and the reads of booking, its rooms and its adapters.
 */
@Repository
public class ReservationRepository {

    /** Ids of what the reservation row points to, kept beside the aggregate. */
    public record Keys(UUID tenantId, UUID projectId, UUID poolId) {}

    public record Stored(
            Reservation reservation, UUID poolId, @Nullable String requestHash) {}

    /** Filters of a tenant's list: status, and windows overlapping {@code [from, to)}. */
    /** What a list keeps: each given part must hold ({@code labels}: every one of them). */
    /** {@code onlyProjects}: a caller confined to these projects of the tenant sees only their reservations. */
    public record Filter(
            @Nullable ReservationStatus status,
            @Nullable Instant from,
            @Nullable Instant to,
            Instant now,
            @Nullable String project,
            List<Labels.Filter> labels,
            @Nullable Set<String> onlyProjects) {}

    private final JdbcClient jdbc;

    private final JsonMapper json;

    /** Whole reservations, with the stage their cluster gives them ({@link ReservationStages}). */
    private static final String SELECT = "SELECT r.*, " + ReservationStages.STAGE + " AS stage, "
            + ReservationStages.STAGE_AT + " AS stage_at FROM " + ReservationStages.FROM;

    ReservationRepository(JdbcClient jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    public void insert(Reservation r, Keys keys, @Nullable IdempotencyKey idempotencyKey) {
        jdbc.sql("""
				INSERT INTO reservation (id, tenant_id, tenant_slug, project_id, project_slug, pool_id, pool_name, gpu_type,
				    gpus, starts_at, ends_at, preemptible, cluster, quote, nodes, version, idempotency_caller, idempotency_key,
				    request_hash, created_at, labels)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?, ?, ?, ?, ?, ?, ?::jsonb)""")
                .params(
                        r.id(),
                        keys.tenantId(),
                        r.tenant(),
                        keys.projectId(),
                        r.project(),
                        keys.poolId(),
                        r.pool(),
                        r.gpuType(),
                        r.gpus(),
                        ts(r.startsAt()),
                        ts(r.endsAt()),
                        r.preemptible(),
                        json.writeValueAsString(r.cluster()),
                        json.writeValueAsString(r.quote()),
                        r.nodes().toArray(String[]::new),
                        r.version(),
                        idempotencyKey == null ? null : idempotencyKey.caller(),
                        idempotencyKey == null ? null : idempotencyKey.key(),
                        idempotencyKey == null ? null : idempotencyKey.requestHash(),
                        ts(r.createdAt()),
                        json.writeValueAsString(r.labels()))
                .update();
    }

    public void update(Reservation r) {
        jdbc.sql("UPDATE reservation SET ends_at = ?, cancelled_at = ?, quote = ?::jsonb, version = ? WHERE id = ?")
                .params(
                        ts(r.endsAt()),
                        r.cancelledAt() == null ? null : ts(r.cancelledAt()),
                        json.writeValueAsString(r.quote()),
                        r.version(),
                        r.id())
                .update();
    }

    /**
     * Stores a queued reservation's state, its start window ({@code earliest} to {@code latest}) and who asked (see
     * {@link dev.allot.booking.queue.BookingQueue}).
     */
    public void queue(Reservation r, Instant earliest, Instant latest, String requestedBy) {
        Reservation.Progress progress = Objects.requireNonNull(r.progress());
        jdbc.sql("""
				UPDATE reservation SET lifecycle_status = 'QUEUED', status_changed_at = ?, queue_earliest = ?,
				    queue_latest = ?, requested_by = ? WHERE id = ?""")
                .params(ts(progress.at()), ts(earliest), ts(latest), requestedBy, r.id())
                .update();
    }

    /** Stores a queued reservation booked: its window, nodes and quote, {@code CONFIRMED}. */
    public void dequeued(Reservation r) {
        jdbc.sql("""
				UPDATE reservation SET starts_at = ?, ends_at = ?, nodes = ?, quote = ?::jsonb, preemptible = ?,
				    lifecycle_status = NULL, status_reason = NULL, status_changed_at = NULL, version = ? WHERE id = ?""")
                .params(
                        ts(r.startsAt()),
                        ts(r.endsAt()),
                        r.nodes().toArray(String[]::new),
                        json.writeValueAsString(r.quote()),
                        r.preemptible(),
                        r.version(),
                        r.id())
                .update();
    }

    /** Who booked it (a user's or service account's subject), as stored for approvals and the queue. */
    public @Nullable String requestedBy(UUID id) {
        return jdbc.sql("SELECT requested_by FROM reservation WHERE id = ?")
                .param(id)
                .query(String.class)
                .optional()
                .orElse(null);
    }

    /** Stores a node replacement (see {@link ReservationLifecycle#replaceNode}). */
    public void updateNodes(Reservation r) {
        jdbc.sql("UPDATE reservation SET nodes = ?, version = ? WHERE id = ?")
                .params(r.nodes().toArray(String[]::new), r.version(), r.id())
                .update();
    }

    /** Stores a lifecycle transition (see {@link ReservationLifecycle}); nothing else of the row changes. */
    public void updateProgress(Reservation r) {
        Reservation.Progress progress = r.progress();
        jdbc.sql("UPDATE reservation SET lifecycle_status = ?, status_reason = ?, status_changed_at = ?, version = ? "
                        + "WHERE id = ?")
                .params(
                        progress == null ? null : progress.status().name(),
                        progress == null ? null : progress.reason(),
                        progress == null ? null : ts(progress.at()),
                        r.version(),
                        r.id())
                .update();
    }

    /** A live preemptible reservation of another tenant, and what ranks it as a victim. */
    public record Preemptible(UUID id, UUID tenantId, Instant createdAt, int gpus, Instant startsAt, Instant endsAt) {}

    /**
     * The live preemptible reservations of the pool overlapping the window, of tenants other than {@code tenantId}
     * (one read of the partial index, made only when a guaranteed booking finds too few nodes free).
     */
    public List<Preemptible> preemptibleOverlapping(UUID poolId, UUID tenantId, TimeWindow window) {
        return jdbc.sql("""
				SELECT id, tenant_id, created_at, gpus, starts_at, ends_at FROM reservation
				WHERE pool_id = ? AND preemptible AND cancelled_at IS NULL AND starts_at < ? AND ends_at > ?
				  AND tenant_id <> ? AND lifecycle_status IS NULL""")
                .params(poolId, ts(window.end()), ts(window.start()), tenantId)
                .query((rs, n) -> new Preemptible(
                        rs.getObject(1, UUID.class),
                        rs.getObject(2, UUID.class),
                        rs.getTimestamp(3).toInstant(),
                        rs.getInt(4),
                        rs.getTimestamp(5).toInstant(),
                        rs.getTimestamp(6).toInstant()))
                .list();
    }

    /** Locks the reservation unless another transaction holds it (then empty): for reclaiming, which never waits. */
    public Optional<Stored> findForUpdateSkipLocked(UUID tenantId, UUID id) {
        return jdbc.sql(SELECT + " WHERE r.tenant_id = ? AND r.id = ? FOR UPDATE OF r SKIP LOCKED")
                .params(tenantId, id)
                .query(this::stored)
                .optional();
    }

    /** For the lifecycle, which acts for no caller: by id alone. */
    public Optional<Stored> findForUpdate(UUID id) {
        return jdbc.sql(SELECT + " WHERE r.id = ? FOR UPDATE OF r")
                .param(id)
                .query(this::stored)
                .optional();
    }

    public Optional<Stored> find(UUID id) {
        return jdbc.sql(SELECT + " WHERE r.id = ?")
                .param(id)
                .query(this::stored)
                .optional();
    }

    /** Hostnames and states of the reservation's nodes that are no longer in service. */
    public List<String> outOfService(UUID id) {
        return jdbc.sql("""
				SELECT n.hostname || ' is ' || n.state || coalesce(' (' || n.state_reason || ')', '')
				FROM allocation a JOIN node n ON n.id = a.node_id
				WHERE a.reservation_id = ? AND a.active AND n.state <> 'AVAILABLE' ORDER BY n.hostname""").param(id).query(String.class).list();
    }

    public Optional<Stored> find(UUID tenantId, UUID id) {
        return jdbc.sql(SELECT + " WHERE r.tenant_id = ? AND r.id = ?")
                .params(tenantId, id)
                .query(this::stored)
                .optional();
    }

    public Optional<Stored> findForUpdate(UUID tenantId, UUID id) {
        return jdbc.sql(SELECT + " WHERE r.tenant_id = ? AND r.id = ? FOR UPDATE OF r")
                .params(tenantId, id)
                .query(this::stored)
                .optional();
    }

    /** The reservation this caller's key made (keys are per caller). */
    public Optional<Stored> byIdempotencyKey(UUID tenantId, IdempotencyKey key) {
        return jdbc.sql(SELECT + " WHERE r.tenant_id = ? AND r.idempotency_caller = ? AND r.idempotency_key = ?")
                .params(tenantId, key.caller(), key.key())
                .query(this::stored)
                .optional();
    }

    /** A page of the tenant's reservations in start order; its cursor is the last one's start and id. */
    public CursorPage<Reservation> list(UUID tenantId, Filter filter, ListQuery page) {
        Where where = where(tenantId, filter);
        List<Object> params = new ArrayList<>(where.params());
        String after = "";
        if (page.after() != null) {
            after = " AND (r.starts_at, r.id) > (?, ?)";
            params.add(ts(page.key(0, Instant::parse)));
            params.add(page.key(1, UUID::fromString));
        }
        params.add(page.rowsToRead());
        params.add(page.offset());
        List<Reservation> rows = jdbc.sql(SELECT + where.sql() + after + " ORDER BY r.starts_at, r.id LIMIT ? OFFSET ?")
                .params(params)
                .query((rs, n) -> stored(rs, n).reservation())
                .list();
        return page.answer(
                rows, count(tenantId, filter), r -> List.of(r.startsAt().toString(), r.id().toString()));
    }

    /**
     * The tenant's reservations not cancelled that overlap {@code [from, to)}, as the GPUs each holds in a pool, in
     * start order: the four columns only, for the calendar (reading whole reservations cost it most of its time).
     */
    public List<Bookings.Held> held(
            UUID tenantId, Instant from, Instant to, int limit, @Nullable Set<String> onlyProjects) {
        String[] only = onlyProjects == null ? null : onlyProjects.toArray(String[]::new);
        return jdbc.sql("""
				SELECT pool_name, gpus, starts_at, ends_at FROM reservation
				WHERE tenant_id = ? AND cancelled_at IS NULL AND ends_at > ? AND starts_at < ?
				  AND lifecycle_status IS DISTINCT FROM 'QUEUED'
				  AND (CAST(? AS text[]) IS NULL OR project_slug = ANY(?))
				ORDER BY starts_at, id LIMIT ?""")
                .params(tenantId, ts(from), ts(to), only, only, limit)
                .query((rs, n) -> new Bookings.Held(
                        rs.getString(1),
                        rs.getInt(2),
                        rs.getTimestamp(3).toInstant(),
                        rs.getTimestamp(4).toInstant()))
                .list();
    }

    long count(UUID tenantId, Filter filter) {
        Where where = where(tenantId, filter);
        return jdbc.sql("SELECT count(*) FROM " + ReservationStages.FROM + where.sql())
                .params(where.params())
                .query(Long.class)
                .single();
    }

    private record Where(String sql, List<Object> params) {}

    private static Where where(UUID tenantId, Filter filter) {
        StringBuilder sql = new StringBuilder(" WHERE r.tenant_id = ?");
        List<Object> params = new ArrayList<>(List.of(tenantId));
        if (filter.from() != null) {
            sql.append(" AND r.ends_at > ?");
            params.add(ts(filter.from()));
        }
        if (filter.to() != null) {
            sql.append(" AND r.starts_at < ?");
            params.add(ts(filter.to()));
        }
        if (filter.status() != null) {
            ReservationStages.filter(filter.status(), filter.now(), sql, params);
        }
        if (filter.project() != null) {
            sql.append(" AND r.project_slug = ?");
            params.add(filter.project());
        }
        if (filter.onlyProjects() != null) {
            sql.append(" AND r.project_slug = ANY(?)");
            params.add(filter.onlyProjects().toArray(String[]::new));
        }
        for (Labels.Filter label : filter.labels()) {
            if (label.value() == null) {
                sql.append(" AND jsonb_exists(r.labels, ?)");
                params.add(label.key());
            } else {
                // containment, which the GIN index answers
                sql.append(" AND r.labels @> jsonb_build_object(CAST(? AS text), CAST(? AS text))");
                params.add(label.key());
                params.add(label.value());
            }
        }
        return new Where(sql.toString(), params);
    }

    private Stored stored(ResultSet rs, int row) throws SQLException {
        Timestamp cancelled = rs.getTimestamp("cancelled_at");
        Reservation reservation = new Reservation(
                rs.getObject("id", UUID.class),
                rs.getString("tenant_slug"),
                rs.getString("project_slug"),
                rs.getString("pool_name"),
                rs.getString("gpu_type"),
                rs.getInt("gpus"),
                rs.getTimestamp("starts_at").toInstant(),
                rs.getTimestamp("ends_at").toInstant(),
                cancelled == null ? null : cancelled.toInstant(),
                rs.getBoolean("preemptible"),
                json.readValue(rs.getString("cluster"), ClusterSpec.class),
                json.readValue(rs.getString("quote"), QuotaDecision.class),
                Arrays.asList((String[]) rs.getArray("nodes").getArray()),
                rs.getLong("version"),
                rs.getTimestamp("created_at").toInstant(),
                progress(rs),
                labels(rs.getString("labels")));
        return new Stored(reservation, rs.getObject("pool_id", UUID.class), rs.getString("request_hash"));
    }

    @SuppressWarnings("unchecked")
    private Map<String, String> labels(String stored) {
        return stored.equals("{}") ? Map.of() : json.readValue(stored, Map.class);
    }

    /** The stage read with the row ({@link #SELECT}); a stored fact's reason with it. */
    private static Reservation.@Nullable Progress progress(ResultSet rs) throws SQLException {
        String stage = rs.getString("stage");
        return stage == null
                ? null
                : new Reservation.Progress(
                        ReservationStatus.valueOf(stage),
                        rs.getString("status_reason"),
                        rs.getTimestamp("stage_at").toInstant());
    }

    private static Timestamp ts(Instant instant) {
        return Timestamp.from(instant);
    }
}
