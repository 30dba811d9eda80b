package dev.allot.provisioning.health;

import dev.allot.provisioning.driver.HealthCheckKind;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What provisioning knows of one node over time, newest first: the checks that ran on it with its own result, the
 * exporter events reported for it, and the remediation steps taken on it. Each read gives the newest {@code limit}
 * entries, so that a page of a merged history reads no more than it shows.
 */
@Component
@Transactional(readOnly = true)
public class NodeHistory {

    /** A check's result on this node. */
    public record Check(
            UUID id,
            UUID reservationId,
            HealthCheckKind kind,
            HealthCheck.Status status,
            String requestedBy,
            Instant requestedAt,
            @Nullable Instant finishedAt,
            boolean passed,
            @Nullable String fault,
            @Nullable String summary,
            String output,
            @Nullable Duration took) {}

    /**
     * One run of an acceptance check on this node before a cluster's handover: {@code passed} and {@code finishedAt}
     * are null while it runs.
     */
    public record AcceptanceRun(
            long id,
            UUID reservationId,
            HealthCheckKind kind,
            Instant startedAt,
            @Nullable Instant finishedAt,
            @Nullable Boolean passed,
            @Nullable String fault,
            @Nullable String summary,
            String output) {

        public boolean running() {
            return finishedAt == null;
        }
    }

    /** An exporter event as reported, and what it caused. */
    public record Event(
            long id,
            NodeEvents.Type type,
            String detail,
            String fault,
            Remediation.Action action,
            String reportedBy,
            Instant at) {}

    /** A remediation step taken on the node. */
    public record Step(long id, @Nullable UUID reservationId, String action, String fault, String reason, Instant at) {}

    private final JdbcClient jdbc;

    private final JsonMapper json;

    NodeHistory(JdbcClient jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    public List<Check> checks(String hostname, int limit) {
        return jdbc.sql("""
				SELECT c.id, c.reservation_id, c.kind, c.status, c.requested_by, c.requested_at, c.finished_at,
				       r.value::text AS result
				FROM cluster_health_check c CROSS JOIN LATERAL jsonb_array_elements(c.results) r
				WHERE c.results @> jsonb_build_array(jsonb_build_object('node', CAST(? AS text)))
				  AND r.value ->> 'node' = ?
				ORDER BY coalesce(c.finished_at, c.requested_at) DESC, c.id DESC LIMIT ?""")
                .params(hostname, hostname, limit)
                .query((rs, n) -> {
                    JsonNode result = json.readTree(rs.getString("result"));
                    Timestamp finished = rs.getTimestamp("finished_at");
                    return new Check(
                            rs.getObject("id", UUID.class),
                            rs.getObject("reservation_id", UUID.class),
                            HealthCheckKind.valueOf(rs.getString("kind")),
                            HealthCheck.Status.valueOf(rs.getString("status")),
                            rs.getString("requested_by"),
                            rs.getTimestamp("requested_at").toInstant(),
                            finished == null ? null : finished.toInstant(),
                            result.path("passed").asBoolean(false),
                            text(result, "fault"),
                            text(result, "summary"),
                            result.path("output").asString(""),
                            took(result));
                })
                .list();
    }

    public long countChecks(String hostname) {
        return jdbc.sql("""
				SELECT count(*) FROM cluster_health_check c
				WHERE c.results @> jsonb_build_array(jsonb_build_object('node', CAST(? AS text)))""").param(hostname).query(Long.class).single();
    }

    /** The acceptance checks run on this node, the newest started first, those still running among them. */
    public List<AcceptanceRun> acceptance(String hostname, int limit) {
        return jdbc.sql("SELECT * FROM node_check_run WHERE hostname = ? ORDER BY started_at DESC, id DESC LIMIT ?")
                .params(hostname, limit)
                .query((rs, n) -> {
                    Timestamp finished = rs.getTimestamp("finished_at");
                    return new AcceptanceRun(
                            rs.getLong("id"),
                            rs.getObject("reservation_id", UUID.class),
                            HealthCheckKind.valueOf(rs.getString("kind")),
                            rs.getTimestamp("started_at").toInstant(),
                            finished == null ? null : finished.toInstant(),
                            rs.getObject("passed", Boolean.class),
                            rs.getString("fault"),
                            rs.getString("summary"),
                            rs.getString("output") == null ? "" : rs.getString("output"));
                })
                .list();
    }

    public long countAcceptance(String hostname) {
        return jdbc.sql("SELECT count(*) FROM node_check_run WHERE hostname = ?")
                .param(hostname)
                .query(Long.class)
                .single();
    }

    public List<Event> events(String hostname, int limit) {
        return jdbc.sql("SELECT * FROM node_event WHERE hostname = ? ORDER BY at DESC, id DESC LIMIT ?")
                .params(hostname, limit)
                .query((rs, n) -> new Event(
                        rs.getLong("id"),
                        NodeEvents.Type.valueOf(rs.getString("type")),
                        rs.getString("detail"),
                        rs.getString("fault"),
                        Remediation.Action.valueOf(rs.getString("action")),
                        rs.getString("reported_by"),
                        rs.getTimestamp("at").toInstant()))
                .list();
    }

    public long countEvents(String hostname) {
        return jdbc.sql("SELECT count(*) FROM node_event WHERE hostname = ?")
                .param(hostname)
                .query(Long.class)
                .single();
    }

    public List<Step> remediations(String hostname, int limit) {
        return jdbc.sql("SELECT * FROM node_remediation WHERE hostname = ? ORDER BY at DESC, id DESC LIMIT ?")
                .params(hostname, limit)
                .query((rs, n) -> new Step(
                        rs.getLong("id"),
                        rs.getObject("reservation_id", UUID.class),
                        rs.getString("action"),
                        rs.getString("fault"),
                        rs.getString("reason"),
                        rs.getTimestamp("at").toInstant()))
                .list();
    }

    public long countRemediations(String hostname) {
        return jdbc.sql("SELECT count(*) FROM node_remediation WHERE hostname = ?")
                .param(hostname)
                .query(Long.class)
                .single();
    }

    private static @Nullable String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asString();
    }

    private static @Nullable Duration took(JsonNode result) {
        JsonNode took = result.get("took");
        if (took == null || took.isNull()) {
            return null;
        }
        try {
            return took.isNumber()
                    ? Duration.ofMillis(Math.round(took.asDouble() * 1000))
                    : Duration.parse(took.asString());
        } catch (RuntimeException unreadable) {
            return null;
        }
    }
}
