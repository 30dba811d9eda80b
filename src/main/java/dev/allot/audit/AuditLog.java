package dev.allot.audit;

import dev.allot.shared.CursorPage;
import dev.allot.shared.ListQuery;
import dev.allot.shared.web.RequestIds;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Writes and reads the audit trail. */
@Service
public class AuditLog {

    private final JdbcClient jdbc;

    private final JsonMapper json;

    AuditLog(JdbcClient jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    /** Records a change; must run inside the transaction that makes it, so both commit or neither. */
    @Transactional(propagation = Propagation.MANDATORY)
    public void record(AuditRecord change) {
        recordAs(currentActor(), change);
    }

    /**
     * Records a change made by {@code actor} rather than the signed-in caller: a sign-in attempt happens before
     * (or instead of) anyone being signed in.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void recordAs(String actor, AuditRecord change) {
        jdbc.sql("""
				INSERT INTO audit_event (actor, tenant_slug, action, object_type, object_id, request_id, before, after)
				VALUES (:actor, :tenant, :action, :objectType, :objectId, :requestId, :before::jsonb, :after::jsonb)
				""")
                .param("actor", actor)
                .param("tenant", change.tenant())
                .param("action", change.action())
                .param("objectType", change.objectType())
                .param("objectId", change.objectId())
                .param("requestId", RequestIds.current())
                .param("before", toJson(change.before()))
                .param("after", toJson(change.after()))
                .update();
    }

    @Transactional(readOnly = true)
    public CursorPage<AuditEvent> find(AuditQuery query) {
        StringBuilder where = new StringBuilder(" WHERE true");
        List<Object> params = new ArrayList<>();
        if (query.tenant() != null) {
            where.append(" AND tenant_slug = ?");
            params.add(query.tenant());
        }
        if (query.actor() != null) {
            where.append(" AND actor = ?");
            params.add(query.actor());
        }
        if (query.from() != null) {
            where.append(" AND occurred_at >= ?");
            params.add(Timestamp.from(query.from()));
        }
        if (query.to() != null) {
            where.append(" AND occurred_at < ?");
            params.add(Timestamp.from(query.to()));
        }
        long total = jdbc.sql("SELECT count(*) FROM audit_event" + where)
                .params(params)
                .query(Long.class)
                .single();
        List<Object> pageParams = new ArrayList<>(params);
        ListQuery page = query.page();
        if (page.after() != null) {
            where.append(" AND (occurred_at, id) < (?, ?)");
            pageParams.add(Timestamp.from(page.key(0, Instant::parse)));
            pageParams.add(page.key(1, Long::parseLong));
        }
        pageParams.add(page.rowsToRead());
        pageParams.add(page.offset());
        List<AuditEvent> items = jdbc.sql("""
				SELECT id, occurred_at, actor, tenant_slug, action, object_type, object_id, request_id,
				       before::text AS before, after::text AS after
				FROM audit_event""" + where + " ORDER BY occurred_at DESC, id DESC LIMIT ? OFFSET ?")
                .params(pageParams)
                .query((rs, n) -> new AuditEvent(
                        rs.getLong("id"),
                        rs.getTimestamp("occurred_at").toInstant(),
                        rs.getString("actor"),
                        rs.getString("tenant_slug"),
                        rs.getString("action"),
                        rs.getString("object_type"),
                        rs.getString("object_id"),
                        rs.getString("request_id"),
                        parse(rs.getString("before")),
                        parse(rs.getString("after"))))
                .list();
        return page.answer(items, total, event -> List.of(event.occurredAt().toString(), Long.toString(event.id())));
    }

    /**
     * The newest {@code limit} changes of one object ({@code node}, {@code gpu-001}), newest first, but those whose
     * action starts with {@code except} (another module's own record of them; empty for none).
     */
    @Transactional(readOnly = true)
    public List<AuditEvent> ofObject(String objectType, String objectId, String except, int limit) {
        return jdbc.sql("""
				SELECT id, occurred_at, actor, tenant_slug, action, object_type, object_id, request_id,
				       before::text AS before, after::text AS after
				FROM audit_event WHERE object_type = ? AND object_id = ? AND (? = '' OR NOT starts_with(action, ?))
				ORDER BY occurred_at DESC, id DESC LIMIT ?""")
                .params(objectType, objectId, except, except, limit)
                .query((rs, n) -> new AuditEvent(
                        rs.getLong("id"),
                        rs.getTimestamp("occurred_at").toInstant(),
                        rs.getString("actor"),
                        rs.getString("tenant_slug"),
                        rs.getString("action"),
                        rs.getString("object_type"),
                        rs.getString("object_id"),
                        rs.getString("request_id"),
                        parse(rs.getString("before")),
                        parse(rs.getString("after"))))
                .list();
    }

    @Transactional(readOnly = true)
    public long countOfObject(String objectType, String objectId, String except) {
        return jdbc.sql("""
				SELECT count(*) FROM audit_event
				WHERE object_type = ? AND object_id = ? AND (? = '' OR NOT starts_with(action, ?))""")
                .params(objectType, objectId, except, except)
                .query(Long.class)
                .single();
    }

    private static String currentActor() {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        return (authentication != null && authentication.isAuthenticated()) ? authentication.getName() : "system";
    }

    private @Nullable String toJson(@Nullable Object value) {
        return value == null ? null : json.writeValueAsString(value);
    }

    private @Nullable JsonNode parse(@Nullable String value) {
        return value == null ? null : json.readTree(value);
    }
}
