package dev.allot.tenancy;

import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditRecord;
import dev.allot.shared.AllotException;
import dev.allot.shared.PageQuery;
import dev.allot.shared.PageResponse;
import dev.allot.shared.security.Caller;
import dev.allot.shared.security.ProjectRole;
import java.sql.Timestamp;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Project roles (issue 31): who holds which role in a project. Tenant admins, platform admins and the project's own
 * PROJECT_ADMINs manage them, each change audited; everyone who sees the project reads them. A project admin learns
 * nothing of other projects (404, as for a project that does not exist) and cannot touch the tenant's members.
 */
@Service
@Transactional
public class ProjectMembers {

    /** What a put did: {@code created} when the person had no role in the project before. */
    public record Put(ProjectMember member, boolean created) {}

    private final Tenancy tenancy;

    private final JdbcClient jdbc;

    private final KnownUsers users;

    private final AuditLog audit;

    private final Clock clock;

    ProjectMembers(Tenancy tenancy, JdbcClient jdbc, KnownUsers users, AuditLog audit, Clock clock) {
        this.tenancy = tenancy;
        this.jdbc = jdbc;
        this.users = users;
        this.audit = audit;
        this.clock = clock;
    }

    /** Gives the user the role in the project, or changes the role they hold there. */
    public Put put(Caller caller, String tenantSlug, String projectSlug, String username, ProjectRole role) {
        Project project = managed(caller, tenantSlug, projectSlug);
        if (!users.exists(username)) {
            throw new AllotException(
                            404,
                            "unknown_user",
                            "Unknown user",
                            "No user is named " + username
                                    + ". A person needs an Allot account (or to have signed in once) before joining a project; check "
                                    + "the spelling.")
                    .with("username", username);
        }
        Optional<ProjectMember> before = find(project, username, true);
        ProjectMember after = new ProjectMember(
                projectSlug, username, role, before.map(ProjectMember::addedAt).orElse(clock.instant()));
        String objectId = projectSlug + "/" + username;
        if (before.isEmpty()) {
            boolean inserted = jdbc.sql("""
					INSERT INTO project_member (project_id, subject, role, created_at) VALUES (?, ?, ?, ?)
					ON CONFLICT DO NOTHING""")
                            .params(project.id(), username, role.name(), Timestamp.from(after.addedAt()))
                            .update()
                    == 1;
            if (inserted) {
                audit.record(AuditRecord.created(tenantSlug, "project-member", objectId, after));
                return new Put(after, true);
            }
            // a twin request added them first: this one is a change of what it stored
            before = find(project, username, true);
            after = new ProjectMember(
                    projectSlug, username, role, before.orElseThrow().addedAt());
        }
        if (before.get().role() != role) {
            jdbc.sql("UPDATE project_member SET role = ? WHERE project_id = ? AND subject = ?")
                    .params(role.name(), project.id(), username)
                    .update();
            audit.record(AuditRecord.changed(tenantSlug, "project-member", objectId, before.get(), after));
        }
        return new Put(after, false);
    }

    /** Takes the user's role in the project away (404 when they hold none). */
    public void remove(Caller caller, String tenantSlug, String projectSlug, String username) {
        Project project = managed(caller, tenantSlug, projectSlug);
        ProjectMember before = find(project, username, true)
                .orElseThrow(() -> AllotException.notFound("Member " + username + " of project " + projectSlug));
        jdbc.sql("DELETE FROM project_member WHERE project_id = ? AND subject = ?")
                .params(project.id(), username)
                .update();
        audit.record(new AuditRecord(
                tenantSlug, "project-member.removed", "project-member", projectSlug + "/" + username, before, null));
    }

    /** The project's members, by username. */
    @Transactional(readOnly = true)
    public PageResponse<ProjectMember> list(Caller caller, String tenantSlug, String projectSlug, PageQuery page) {
        Project project = seen(caller, tenantSlug, projectSlug);
        List<ProjectMember> items = jdbc.sql("""
				SELECT subject, role, created_at FROM project_member WHERE project_id = ?
				ORDER BY subject LIMIT ? OFFSET ?""")
                .params(project.id(), page.size(), page.offset())
                .query((rs, n) -> new ProjectMember(
                        projectSlug,
                        rs.getString(1),
                        ProjectRole.valueOf(rs.getString(2)),
                        rs.getTimestamp(3).toInstant()))
                .list();
        long total = jdbc.sql("SELECT count(*) FROM project_member WHERE project_id = ?")
                .param(project.id())
                .query(Long.class)
                .single();
        return PageResponse.of(items, page, total);
    }

    /** The members of each of these projects of the tenant that the caller sees, by project slug then username. */
    @Transactional(readOnly = true)
    public Map<String, List<ProjectMember>> ofProjects(Caller caller, String tenantSlug, List<String> projectSlugs) {
        caller.requireReadSomeOf(tenantSlug);
        String[] seen = projectSlugs.stream()
                .filter(project -> caller.canSeeProject(tenantSlug, project))
                .toArray(String[]::new);
        Map<String, List<ProjectMember>> members = new LinkedHashMap<>();
        jdbc.sql("""
				SELECT p.slug, m.subject, m.role, m.created_at FROM project_member m JOIN project p ON p.id = m.project_id
				JOIN tenant t ON t.id = p.tenant_id WHERE t.slug = ? AND p.slug = ANY(?) ORDER BY p.slug, m.subject""").params(tenantSlug, seen).query(rs -> {
            members.computeIfAbsent(rs.getString(1), project -> new ArrayList<>())
                    .add(new ProjectMember(
                            rs.getString(1),
                            rs.getString(2),
                            ProjectRole.valueOf(rs.getString(3)),
                            rs.getTimestamp(4).toInstant()));
        });
        return members;
    }

    /** Every member of a project (none for an unknown one), for the logins provisioning opens on its clusters. */
    @Transactional(readOnly = true)
    public List<ProjectMember> membersOf(String tenantSlug, String projectSlug) {
        return jdbc.sql("""
				SELECT m.subject, m.role, m.created_at FROM project_member m JOIN project p ON p.id = m.project_id
				JOIN tenant t ON t.id = p.tenant_id WHERE t.slug = ? AND p.slug = ? ORDER BY m.subject""")
                .params(tenantSlug, projectSlug)
                .query((rs, n) -> new ProjectMember(
                        projectSlug,
                        rs.getString(1),
                        ProjectRole.valueOf(rs.getString(2)),
                        rs.getTimestamp(3).toInstant()))
                .list();
    }

    /** The user's project roles, per tenant and project: read on every request, with their tenant roles. */
    @Transactional(readOnly = true)
    public Map<String, Map<String, ProjectRole>> rolesOf(String subject) {
        Map<String, Map<String, ProjectRole>> roles = new HashMap<>();
        jdbc.sql("""
				SELECT t.slug, p.slug, m.role FROM project_member m JOIN project p ON p.id = m.project_id
				JOIN tenant t ON t.id = p.tenant_id WHERE m.subject = ?""").param(subject).query(rs -> {
            roles.computeIfAbsent(rs.getString(1), tenant -> new HashMap<>())
                    .put(rs.getString(2), ProjectRole.valueOf(rs.getString(3)));
        });
        return roles;
    }

    /** The project if the caller sees it (404 otherwise, as for one that does not exist). */
    private Project seen(Caller caller, String tenantSlug, String projectSlug) {
        caller.requireReadSomeOf(tenantSlug);
        if (!caller.canSeeProject(tenantSlug, projectSlug)) {
            throw notFound(tenantSlug, projectSlug);
        }
        tenancy.find(tenantSlug).orElseThrow(() -> AllotException.notFound("Tenant " + tenantSlug));
        return tenancy.project(tenantSlug, projectSlug).orElseThrow(() -> notFound(tenantSlug, projectSlug));
    }

    /** The project if the caller manages it and its tenant is active: 403 {@code project_admin_required} otherwise. */
    private Project managed(Caller caller, String tenantSlug, String projectSlug) {
        Project project = seen(caller, tenantSlug, projectSlug);
        if (!caller.managesProject(tenantSlug, projectSlug)) {
            throw new AllotException(
                    403,
                    "project_admin_required",
                    "Forbidden",
                    "Managing the members of project " + projectSlug
                            + " needs the role PROJECT_ADMIN in it, or TENANT_ADMIN in tenant " + tenantSlug);
        }
        tenancy.find(tenantSlug).orElseThrow().requireActive();
        return project;
    }

    private Optional<ProjectMember> find(Project project, String username, boolean forUpdate) {
        return jdbc.sql("SELECT subject, role, created_at FROM project_member WHERE project_id = ? AND subject = ?"
                        + (forUpdate ? " FOR UPDATE" : ""))
                .params(project.id(), username)
                .query((rs, n) -> new ProjectMember(
                        project.slug(),
                        rs.getString(1),
                        ProjectRole.valueOf(rs.getString(2)),
                        rs.getTimestamp(3).toInstant()))
                .optional();
    }

    private static AllotException notFound(String tenant, String project) {
        return AllotException.notFound("Project " + project + " of tenant " + tenant);
    }
}
