package dev.allot.tenancy;

import dev.allot.shared.PageQuery;
import dev.allot.shared.SearchQuery;
import dev.allot.shared.changes.TableChanges;
import dev.allot.shared.security.TenantRole;
import dev.allot.tenancy.invitations.Invitation;
import dev.allot.tenancy.status.TenantStatus;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

@Repository
class TenancyRepository {

    private final JdbcClient jdbc;

    private final TableChanges changes;

    TenancyRepository(JdbcClient jdbc, TableChanges changes) {
        this.jdbc = jdbc;
        this.changes = changes;
    }

    Optional<Tenant> tenant(String slug) {
        return jdbc.sql("SELECT * FROM tenant WHERE slug = ?")
                .param(slug)
                .query(TenancyRepository::tenant)
                .optional();
    }

    Optional<Tenant> tenantForUpdate(String slug) {
        return jdbc.sql("SELECT * FROM tenant WHERE slug = ? FOR UPDATE")
                .param(slug)
                .query(TenancyRepository::tenant)
                .optional();
    }

    /** Inserts unless the slug is taken; answers whether it inserted. */
    boolean insert(Tenant tenant) {
        changes.changed("tenant");
        return jdbc.sql("""
				INSERT INTO tenant (id, slug, display_name, status, version, created_at)
				VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (slug) DO NOTHING""")
                        .params(
                                tenant.id(),
                                tenant.slug(),
                                tenant.displayName(),
                                tenant.status().name(),
                                tenant.version(),
                                Timestamp.from(tenant.createdAt()))
                        .update()
                == 1;
    }

    void update(Tenant tenant) {
        changes.changed("tenant");
        jdbc.sql("UPDATE tenant SET display_name = ?, status = ?, version = ? WHERE id = ?")
                .params(tenant.displayName(), tenant.status().name(), tenant.version(), tenant.id())
                .update();
    }

    List<Tenant> tenants(List<String> onlySlugs, boolean all, PageQuery page) {
        String where = all ? "" : " WHERE slug = ANY(?)";
        var spec = jdbc.sql("SELECT * FROM tenant" + where + " ORDER BY slug LIMIT ? OFFSET ?");
        if (!all) {
            spec = spec.param(onlySlugs.toArray(String[]::new));
        }
        return spec.param(page.size())
                .param(page.offset())
                .query(TenancyRepository::tenant)
                .list();
    }

    /** Tenants whose slug or name holds the search text, in the order asked. */
    List<Tenant> searchTenants(SearchQuery query) {
        String pattern = query.pattern();
        var spec = jdbc.sql("SELECT * FROM tenant t" + (pattern == null ? "" : TENANT_SEARCH) + query.orderBy()
                + " LIMIT ? OFFSET ?");
        if (pattern != null) {
            spec = spec.param(pattern).param(pattern);
        }
        return spec.param(query.page().size())
                .param(query.page().offset())
                .query(TenancyRepository::tenant)
                .list();
    }

    long countTenants(SearchQuery query) {
        String pattern = query.pattern();
        var spec = jdbc.sql("SELECT count(*) FROM tenant t" + (pattern == null ? "" : TENANT_SEARCH));
        if (pattern != null) {
            spec = spec.param(pattern).param(pattern);
        }
        return spec.query(Long.class).single();
    }

    private static final String TENANT_SEARCH =
            " WHERE (t.slug ILIKE ? ESCAPE '\\' OR t.display_name ILIKE ? ESCAPE '\\')";

    long countTenants(List<String> onlySlugs, boolean all) {
        if (all) {
            return jdbc.sql("SELECT count(*) FROM tenant").query(Long.class).single();
        }
        return jdbc.sql("SELECT count(*) FROM tenant WHERE slug = ANY(?)")
                .param(onlySlugs.toArray(String[]::new))
                .query(Long.class)
                .single();
    }

    boolean insertProject(Project project, UUID tenantId) {
        changes.changed("project");
        return jdbc.sql("""
				INSERT INTO project (id, tenant_id, slug, display_name, created_at) VALUES (?, ?, ?, ?, ?)
				ON CONFLICT (tenant_id, slug) DO NOTHING""")
                        .params(
                                project.id(),
                                tenantId,
                                project.slug(),
                                project.displayName(),
                                Timestamp.from(project.createdAt()))
                        .update()
                == 1;
    }

    Optional<Project> project(String tenant, String slug) {
        return jdbc.sql("""
				SELECT p.*, t.slug AS tenant_slug FROM project p JOIN tenant t ON t.id = p.tenant_id
				WHERE t.slug = ? AND p.slug = ?""")
                .params(tenant, slug)
                .query(TenancyRepository::project)
                .optional();
    }

    /** The tenant's projects; {@code only}: those of these slugs (a caller confined to its projects), null: all. */
    List<Project> projects(String tenant, String @Nullable [] only, PageQuery page) {
        return jdbc.sql("""
				SELECT p.*, t.slug AS tenant_slug FROM project p JOIN tenant t ON t.id = p.tenant_id
				WHERE t.slug = ? AND (CAST(? AS text[]) IS NULL OR p.slug = ANY(?)) ORDER BY p.slug LIMIT ? OFFSET ?""")
                .params(tenant, only, only, page.size(), page.offset())
                .query(TenancyRepository::project)
                .list();
    }

    long countProjects(String tenant, String @Nullable [] only) {
        return jdbc.sql("""
				SELECT count(*) FROM project p JOIN tenant t ON t.id = p.tenant_id
				WHERE t.slug = ? AND (CAST(? AS text[]) IS NULL OR p.slug = ANY(?))""").params(tenant, only, only).query(Long.class).single();
    }

    Optional<Member> member(UUID tenantId, String username) {
        return jdbc.sql("SELECT * FROM member WHERE tenant_id = ? AND subject = ?")
                .params(tenantId, username)
                .query(TenancyRepository::member)
                .optional();
    }

    boolean insertMember(UUID tenantId, Member member) {
        return jdbc.sql("""
				INSERT INTO member (tenant_id, subject, role, created_at) VALUES (?, ?, ?, ?)
				ON CONFLICT DO NOTHING""")
                        .params(tenantId, member.username(), member.role().name(), Timestamp.from(member.addedAt()))
                        .update()
                == 1;
    }

    /**
     * Stores an open invitation; false when the user already has one to this tenant that has not expired (one that
     * has is closed as {@code EXPIRED} first, so it can be sent again).
     */
    boolean insertInvitation(UUID tenantId, Invitation invitation) {
        jdbc.sql("""
				UPDATE member_invitation SET answer = 'EXPIRED', answered_at = ?
				WHERE tenant_id = ? AND username = ? AND answered_at IS NULL AND expires_at <= ?""")
                .params(
                        Timestamp.from(invitation.createdAt()),
                        tenantId,
                        invitation.username(),
                        Timestamp.from(invitation.createdAt()))
                .update();
        return jdbc.sql("""
				INSERT INTO member_invitation (id, tenant_id, username, role, invited_by, created_at, expires_at)
				VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING""")
                        .params(
                                invitation.id(),
                                tenantId,
                                invitation.username(),
                                invitation.role().name(),
                                invitation.invitedBy(),
                                Timestamp.from(invitation.createdAt()),
                                Timestamp.from(invitation.expiresAt()))
                        .update()
                == 1;
    }

    private static final String INVITATIONS = """
			SELECT i.*, t.slug FROM member_invitation i JOIN tenant t ON t.id = i.tenant_id""";

    /** The invitation, locked for its answer. */
    Optional<Invitation> invitationForUpdate(UUID id, Instant now) {
        return jdbc.sql(INVITATIONS + " WHERE i.id = ? FOR UPDATE OF i")
                .param(id)
                .query((rs, n) -> invitation(rs, now))
                .optional();
    }

    /** The user's invitations nobody answered yet, expired or not, newest first. */
    List<Invitation> openInvitations(String username, Instant now) {
        return jdbc.sql(INVITATIONS
                        + " WHERE i.username = ? AND i.answered_at IS NULL ORDER BY i.created_at DESC LIMIT 100")
                .param(username)
                .query((rs, n) -> invitation(rs, now))
                .list();
    }

    /** How many invitations wait for the user's answer and have not expired (the header's count). */
    int pendingInvitations(String username, Instant now) {
        return jdbc.sql("""
				SELECT count(*) FROM member_invitation
				WHERE username = ? AND answered_at IS NULL AND expires_at > ?""")
                .params(username, Timestamp.from(now))
                .query(Integer.class)
                .single();
    }

    void answerInvitation(UUID id, Invitation.Status answer, Instant at) {
        jdbc.sql("UPDATE member_invitation SET answer = ?, answered_at = ? WHERE id = ? AND answered_at IS NULL")
                .params(answer.name(), Timestamp.from(at), id)
                .update();
    }

    private static Invitation invitation(ResultSet rs, Instant now) throws SQLException {
        String answer = rs.getString("answer");
        Instant expires = rs.getTimestamp("expires_at").toInstant();
        Invitation.Status status = answer != null
                ? Invitation.Status.valueOf(answer)
                : now.isBefore(expires) ? Invitation.Status.PENDING : Invitation.Status.EXPIRED;
        return new Invitation(
                rs.getObject("id", UUID.class),
                rs.getString("slug"),
                rs.getString("username"),
                TenantRole.valueOf(rs.getString("role")),
                rs.getString("invited_by"),
                rs.getTimestamp("created_at").toInstant(),
                expires,
                status);
    }

    void updateMemberRole(UUID tenantId, String username, TenantRole role) {
        jdbc.sql("UPDATE member SET role = ? WHERE tenant_id = ? AND subject = ?")
                .params(role.name(), tenantId, username)
                .update();
    }

    void deleteMember(UUID tenantId, String username) {
        jdbc.sql("DELETE FROM member WHERE tenant_id = ? AND subject = ?")
                .params(tenantId, username)
                .update();
    }

    List<Member> members(UUID tenantId, PageQuery page) {
        return jdbc.sql("SELECT * FROM member WHERE tenant_id = ? ORDER BY subject LIMIT ? OFFSET ?")
                .params(tenantId, page.size(), page.offset())
                .query(TenancyRepository::member)
                .list();
    }

    long countMembers(UUID tenantId) {
        return jdbc.sql("SELECT count(*) FROM member WHERE tenant_id = ?")
                .param(tenantId)
                .query(Long.class)
                .single();
    }

    Map<String, TenantRole> membershipsOf(String subject) {
        return jdbc
                .sql("SELECT t.slug, m.role FROM member m JOIN tenant t ON t.id = m.tenant_id WHERE m.subject = ?")
                .param(subject)
                .query((rs, n) -> Map.entry(rs.getString(1), TenantRole.valueOf(rs.getString(2))))
                .list()
                .stream()
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    private static Tenant tenant(ResultSet rs, int row) throws SQLException {
        return new Tenant(
                rs.getObject("id", UUID.class),
                rs.getString("slug"),
                rs.getString("display_name"),
                TenantStatus.valueOf(rs.getString("status")),
                rs.getLong("version"),
                rs.getTimestamp("created_at").toInstant());
    }

    private static Project project(ResultSet rs, int row) throws SQLException {
        return new Project(
                rs.getObject("id", UUID.class),
                rs.getString("tenant_slug"),
                rs.getString("slug"),
                rs.getString("display_name"),
                rs.getTimestamp("created_at").toInstant());
    }

    private static Member member(ResultSet rs, int row) throws SQLException {
        return new Member(
                rs.getString("subject"),
                TenantRole.valueOf(rs.getString("role")),
                rs.getTimestamp("created_at").toInstant());
    }
}
