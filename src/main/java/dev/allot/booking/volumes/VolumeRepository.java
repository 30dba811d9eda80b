package dev.allot.booking.volumes;

import dev.allot.booking.spec.ClusterSpec;
import dev.allot.booking.store.ReservationStages;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The {@code volume} rows: what reservations booked, and what of it is still held. */
@Repository
class VolumeRepository {

    private static final String SELECT = """
			SELECT v.*, r.tenant_slug, r.pool_name, r.gpu_type FROM volume v JOIN reservation r ON r.id = v.reservation_id
			""";

    /** The reservation's cluster served and is gone: it is {@code COMPLETED} ({@link ReservationStages}). */
    private static final String SERVED = """
			EXISTS (SELECT 1 FROM cluster c WHERE c.reservation_id = r.id AND c.ready_at IS NOT NULL
			        AND c.state IN ('DELETED', 'FAILED'))""";

    /**
     * A volume holds storage from its reservation's start: a retained one until the tenant deletes it (unless its
     * reservation ended before it was made), any other until its reservation ends or is given up.
     */
    private static final String HELD_DURING = "v.tenant_id = ? AND v.deleted_at IS NULL AND r.starts_at < ?"
            + " AND ((v.retain AND (v.status IN ('CREATED', 'RETAINED') OR (r.cancelled_at IS NULL"
            + " AND r.lifecycle_status IS NULL AND NOT " + SERVED + ")))"
            + " OR (NOT v.retain AND v.status <> 'RETAINED' AND r.cancelled_at IS NULL AND r.ends_at > ?"
            + " AND r.lifecycle_status IS NULL AND NOT " + SERVED + "))";

    private final JdbcClient jdbc;

    VolumeRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    void insert(UUID id, UUID reservationId, UUID tenantId, ClusterSpec.Volume volume) {
        jdbc.sql("INSERT INTO volume (id, reservation_id, tenant_id, name, size_gi, retain) VALUES (?, ?, ?, ?, ?, ?)")
                .params(id, reservationId, tenantId, volume.name(), volume.sizeGi(), volume.retain())
                .update();
    }

    /** GiB the tenant's volumes hold at some time in {@code [from, to)} (their sum: an upper bound of the peak). */
    long heldGi(UUID tenantId, Instant from, Instant to) {
        return jdbc.sql(
                        "SELECT coalesce(sum(v.size_gi), 0) FROM volume v JOIN reservation r ON r.id = v.reservation_id "
                                + "WHERE " + HELD_DURING)
                .params(tenantId, Timestamp.from(to), Timestamp.from(from))
                .query(Long.class)
                .single();
    }

    List<StoredVolume> ofReservation(UUID reservationId) {
        return jdbc.sql(SELECT + " WHERE v.reservation_id = ? ORDER BY v.name")
                .param(reservationId)
                .query(this::map)
                .list();
    }

    Optional<StoredVolume> find(UUID id) {
        return jdbc.sql(SELECT + " WHERE v.id = ?").param(id).query(this::map).optional();
    }

    Optional<StoredVolume> findForUpdate(UUID tenantId, UUID id) {
        return jdbc.sql(SELECT + " WHERE v.tenant_id = ? AND v.id = ? FOR UPDATE OF v")
                .params(tenantId, id)
                .query(this::map)
                .optional();
    }

    /** The tenant's volumes not deleted, newest reservation first. */
    List<StoredVolume> live(UUID tenantId, long offset, int limit) {
        return jdbc.sql(SELECT + " WHERE v.tenant_id = ? AND v.status <> 'DELETED' "
                        + "ORDER BY r.starts_at DESC, v.name LIMIT ? OFFSET ?")
                .params(tenantId, limit, offset)
                .query(this::map)
                .list();
    }

    long countLive(UUID tenantId) {
        return jdbc.sql("SELECT count(*) FROM volume WHERE tenant_id = ? AND status <> 'DELETED'")
                .param(tenantId)
                .query(Long.class)
                .single();
    }

    int created(UUID reservationId, String name, String location, Instant at) {
        return jdbc.sql("""
				UPDATE volume SET status = 'CREATED', location = ?, created_at = coalesce(created_at, ?)
				WHERE reservation_id = ? AND name = ? AND status IN ('BOOKED', 'CREATED')""")
                .params(location, Timestamp.from(at), reservationId, name)
                .update();
    }

    /** After teardown: retained volumes that were made stay, every other one is gone. */
    void tornDown(UUID reservationId, Instant at) {
        jdbc.sql("UPDATE volume SET status = 'RETAINED' WHERE reservation_id = ? AND retain AND status = 'CREATED'")
                .param(reservationId)
                .update();
        jdbc.sql("""
				UPDATE volume SET status = 'DELETED', deleted_at = ?
				WHERE reservation_id = ? AND status IN ('BOOKED', 'CREATED')""").params(Timestamp.from(at), reservationId).update();
    }

    void deleting(UUID id, Instant at) {
        jdbc.sql("UPDATE volume SET status = 'DELETING', deleted_at = ? WHERE id = ? AND status = 'RETAINED'")
                .params(Timestamp.from(at), id)
                .update();
    }

    List<StoredVolume> deleting() {
        return jdbc.sql(SELECT + " WHERE v.status = 'DELETING' ORDER BY v.deleted_at LIMIT 100")
                .query(this::map)
                .list();
    }

    void removed(UUID id) {
        jdbc.sql("UPDATE volume SET status = 'DELETED' WHERE id = ? AND status = 'DELETING'")
                .param(id)
                .update();
    }

    /** Volumes that exist on a driver, the longest unmeasured first. */
    List<StoredVolume> toMeasure(int limit) {
        return jdbc.sql(SELECT
                        + " WHERE v.status IN ('CREATED', 'RETAINED') ORDER BY v.measured_at NULLS FIRST LIMIT ?")
                .param(limit)
                .query(this::map)
                .list();
    }

    Optional<StoredVolume> lockMeasurable(UUID id) {
        return jdbc.sql(SELECT + " WHERE v.id = ? AND v.status IN ('CREATED', 'RETAINED') FOR UPDATE OF v")
                .param(id)
                .query(this::map)
                .optional();
    }

    void measured(UUID id, long usedBytes, Instant at, @Nullable Instant overLimitSince) {
        jdbc.sql("UPDATE volume SET used_bytes = ?, measured_at = ?, over_limit_since = ? WHERE id = ?")
                .params(
                        usedBytes,
                        Timestamp.from(at),
                        overLimitSince == null ? null : Timestamp.from(overLimitSince),
                        id)
                .update();
    }

    /** Volumes that existed on a driver at some time in {@code [from, to)}: billable storage. */
    List<StoredVolume> existedDuring(Instant from, Instant to) {
        return jdbc.sql(SELECT + " WHERE v.created_at IS NOT NULL AND v.created_at < ? "
                        + "AND (v.deleted_at IS NULL OR v.deleted_at > ?) ORDER BY v.id")
                .params(Timestamp.from(to), Timestamp.from(from))
                .query(this::map)
                .list();
    }

    private StoredVolume map(ResultSet rs, int row) throws SQLException {
        return new StoredVolume(
                rs.getObject("id", UUID.class),
                rs.getObject("reservation_id", UUID.class),
                rs.getObject("tenant_id", UUID.class),
                rs.getString("tenant_slug"),
                rs.getString("pool_name"),
                rs.getString("gpu_type"),
                rs.getString("name"),
                rs.getInt("size_gi"),
                rs.getBoolean("retain"),
                rs.getString("status"),
                rs.getString("location"),
                instant(rs, "created_at"),
                instant(rs, "deleted_at"),
                (Long) rs.getObject("used_bytes"),
                instant(rs, "measured_at"),
                instant(rs, "over_limit_since"));
    }

    private static @Nullable Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp value = rs.getTimestamp(column);
        return value == null ? null : value.toInstant();
    }
}
