package dev.allot.provisioning.health;

import dev.allot.provisioning.driver.HealthCheckKind;
import dev.allot.shared.IdempotencyKey;
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
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

@Repository
class HealthCheckRepository {

    private static final TypeReference<List<HealthCheck.NodeResult>> RESULTS = new TypeReference<>() {};

    private final JdbcClient jdbc;

    private final JsonMapper json;

    HealthCheckRepository(JdbcClient jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    /** A check asked for with an Idempotency-Key, and the fingerprint of the request that asked. */
    record Keyed(HealthCheck check, String requestHash) {}

    void insert(HealthCheck check, @Nullable IdempotencyKey idempotencyKey) {
        jdbc.sql("""
				INSERT INTO cluster_health_check (id, reservation_id, kind, level, across_nodes, status, requested_by,
				    requested_at, idempotency_caller, idempotency_key, request_hash)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""")
                .params(
                        check.id(),
                        check.reservationId(),
                        check.kind().name(),
                        check.level(),
                        check.acrossNodes(),
                        check.status().name(),
                        check.requestedBy(),
                        Timestamp.from(check.requestedAt()),
                        idempotencyKey == null ? null : idempotencyKey.caller(),
                        idempotencyKey == null ? null : idempotencyKey.key(),
                        idempotencyKey == null ? null : idempotencyKey.requestHash())
                .update();
    }

    Optional<HealthCheck> find(UUID reservationId, UUID id) {
        return jdbc.sql("SELECT * FROM cluster_health_check WHERE reservation_id = ? AND id = ?")
                .params(reservationId, id)
                .query(this::check)
                .optional();
    }

    /** The check this caller's key asked for (keys are per caller). */
    Optional<Keyed> byIdempotencyKey(UUID reservationId, IdempotencyKey key) {
        return jdbc.sql("""
				SELECT * FROM cluster_health_check
				WHERE reservation_id = ? AND idempotency_caller = ? AND idempotency_key = ?""")
                .params(reservationId, key.caller(), key.key())
                .query((rs, row) -> new Keyed(check(rs, row), rs.getString("request_hash")))
                .optional();
    }

    void running(UUID id) {
        jdbc.sql("UPDATE cluster_health_check SET status = 'RUNNING' WHERE id = ? AND status IN ('QUEUED', 'RUNNING')")
                .param(id)
                .update();
    }

    /** Records the outcome once; false when the check was already finished (a step run twice). */
    boolean finish(
            UUID id,
            HealthCheck.Status status,
            String detail,
            List<HealthCheck.NodeResult> results,
            HealthCheck.@Nullable AcrossNodesResult across,
            Instant now) {
        return jdbc.sql("""
				UPDATE cluster_health_check SET status = ?, detail = ?, results = ?::jsonb, across_result = ?::jsonb,
				    finished_at = ?
				WHERE id = ? AND status IN ('QUEUED', 'RUNNING')""")
                        .params(
                                status.name(),
                                detail,
                                json.writeValueAsString(results),
                                across == null ? null : json.writeValueAsString(across),
                                Timestamp.from(now),
                                id)
                        .update()
                == 1;
    }

    private HealthCheck check(ResultSet rs, int row) throws SQLException {
        Timestamp finished = rs.getTimestamp("finished_at");
        String across = rs.getString("across_result");
        return new HealthCheck(
                rs.getObject("id", UUID.class),
                rs.getObject("reservation_id", UUID.class),
                HealthCheckKind.valueOf(rs.getString("kind")),
                rs.getObject("level", Integer.class),
                rs.getBoolean("across_nodes"),
                HealthCheck.Status.valueOf(rs.getString("status")),
                rs.getString("requested_by"),
                rs.getTimestamp("requested_at").toInstant(),
                finished == null ? null : finished.toInstant(),
                rs.getString("detail"),
                json.readValue(rs.getString("results"), RESULTS),
                across == null ? null : json.readValue(across, HealthCheck.AcrossNodesResult.class));
    }
}
