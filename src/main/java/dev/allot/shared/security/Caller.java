package dev.allot.shared.security;

import dev.allot.shared.AllotException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Who is calling, resolved on each request from the token or session and the current memberships
 * (so that a removed membership takes effect at once, not when the token expires).
 *
 * <p>Tenant checks answer as the API promises: a caller without access to a tenant learns nothing about it
 * (404, exactly as for a tenant that does not exist); a caller who may read but not change gets 403.
 *
 * <p>{@code projects}: roles in single projects, per tenant (issue 31). A caller with only project roles in a tenant
 * (no tenant role, no platform role) is confined to those projects: {@link #canRead} stays false for the tenant, so
 * everything tenant-wide (members, usage, billing, webhooks) stays out of its sight, and only what asks
 * {@link #canReadSomeOf} (reservations, quotes, the quota and its standing, the projects) opens to it, narrowed to
 * {@link #confinedTo} those projects.
 */
public record Caller(
        String subject,
        String displayName,
        Kind kind,
        Set<PlatformRole> platformRoles,
        Map<String, TenantRole> tenants,
        Map<String, Map<String, ProjectRole>> projects) {

    public enum Kind {
        USER,
        SERVICE_ACCOUNT
    }

    public Caller {
        platformRoles = Set.copyOf(platformRoles);
        tenants = Map.copyOf(tenants);
        projects = projects.entrySet().stream()
                .filter(entry -> !entry.getValue().isEmpty())
                .collect(Collectors.toUnmodifiableMap(Map.Entry::getKey, entry -> Map.copyOf(entry.getValue())));
    }

    /** A caller without project roles. */
    public Caller(
            String subject,
            String displayName,
            Kind kind,
            Set<PlatformRole> platformRoles,
            Map<String, TenantRole> tenants) {
        this(subject, displayName, kind, platformRoles, tenants, Map.of());
    }

    public boolean isPlatformAdmin() {
        return platformRoles.contains(PlatformRole.PLATFORM_ADMIN);
    }

    /** Platform admins and auditors read everything. */
    public boolean readsEverything() {
        return isPlatformAdmin() || platformRoles.contains(PlatformRole.AUDITOR);
    }

    public Optional<TenantRole> roleIn(String tenant) {
        return Optional.ofNullable(tenants.get(tenant));
    }

    public boolean canRead(String tenant) {
        return readsEverything() || tenants.containsKey(tenant);
    }

    /** Refuses with 404 a caller who may not see the tenant at all. */
    public void requireRead(String tenant) {
        if (!canRead(tenant)) {
            throw AllotException.notFound("Tenant " + tenant);
        }
    }

    /** Refuses with 404 a stranger to the tenant and with 403 a member whose role is too weak. */
    public void requireRole(String tenant, TenantRole required) {
        requireRead(tenant);
        if (isPlatformAdmin()) {
            return;
        }
        TenantRole role = tenants.get(tenant);
        if (role == null || !role.includes(required)) {
            throw AllotException.forbidden("Needs the role " + required + " in tenant " + tenant);
        }
    }

    /** The caller's roles in the tenant's projects (none for most callers). */
    public Map<String, ProjectRole> projectRolesIn(String tenant) {
        return projects.getOrDefault(tenant, Map.of());
    }

    /** Every tenant the caller has a tenant role or a project role in. */
    public Set<String> tenantsSeen() {
        Set<String> seen = new TreeSet<>(tenants.keySet());
        seen.addAll(projects.keySet());
        return seen;
    }

    /** Whether the caller reads the tenant whole, or some of its projects. */
    public boolean canReadSomeOf(String tenant) {
        return canRead(tenant) || !projectRolesIn(tenant).isEmpty();
    }

    /** Refuses with 404 a caller who may see neither the tenant nor any of its projects. */
    public void requireReadSomeOf(String tenant) {
        if (!canReadSomeOf(tenant)) {
            throw AllotException.notFound("Tenant " + tenant);
        }
    }

    /**
     * The projects of the tenant the caller is confined to: empty when it reads the whole tenant (a tenant role, a
     * platform role), otherwise the projects it holds a role in.
     */
    public Optional<Set<String>> confinedTo(String tenant) {
        return canRead(tenant)
                ? Optional.empty()
                : Optional.of(new TreeSet<>(projectRolesIn(tenant).keySet()));
    }

    /** Whether the caller sees the project: it reads the whole tenant or holds a role in the project. */
    public boolean canSeeProject(String tenant, String project) {
        return canRead(tenant) || projectRolesIn(tenant).containsKey(project);
    }

    /** Whether the caller may book, cancel and extend in the project: a tenant MEMBER or better, or a PROJECT_MEMBER. */
    public boolean canBookIn(String tenant, String project) {
        return isPlatformAdmin()
                || roleIn(tenant)
                        .filter(role -> role.includes(TenantRole.MEMBER))
                        .isPresent()
                || holdsInProject(tenant, project, ProjectRole.PROJECT_MEMBER);
    }

    /** Whether the caller manages the project's members and decides its approvals (a project admin or better). */
    public boolean managesProject(String tenant, String project) {
        return isPlatformAdmin()
                || roleIn(tenant)
                        .filter(role -> role == TenantRole.TENANT_ADMIN)
                        .isPresent()
                || holdsInProject(tenant, project, ProjectRole.PROJECT_ADMIN);
    }

    private boolean holdsInProject(String tenant, String project, ProjectRole required) {
        ProjectRole role = projectRolesIn(tenant).get(project);
        return role != null && role.includes(required);
    }

    /**
     * Refuses a booking (or a cancel or an extension) in the project: 404 to a stranger of the tenant; for a caller
     * with project roles there, 403 {@code project_not_allowed} naming the projects it may book in; otherwise as
     * {@link #requireRole} with {@code MEMBER}.
     */
    public void requireBookingIn(String tenant, String project) {
        requireReadSomeOf(tenant);
        if (canBookIn(tenant, project)) {
            return;
        }
        if (projectRolesIn(tenant).isEmpty()) {
            requireRole(tenant, TenantRole.MEMBER);
        }
        var allowed = projectRolesIn(tenant).entrySet().stream()
                .filter(entry -> entry.getValue().includes(ProjectRole.PROJECT_MEMBER))
                .map(Map.Entry::getKey)
                .sorted()
                .toList();
        throw new AllotException(
                        403,
                        "project_not_allowed",
                        "Project not allowed",
                        "Books only in "
                                + (allowed.isEmpty() ? "no project" : "the projects " + String.join(", ", allowed))
                                + " of tenant " + tenant + ", not in " + project)
                .with("allowedProjects", allowed);
    }

    public void requirePlatformAdmin() {
        if (!isPlatformAdmin()) {
            throw AllotException.forbidden("Needs the role PLATFORM_ADMIN");
        }
    }

    public void requireReadsEverything() {
        if (!readsEverything()) {
            throw AllotException.forbidden("Needs the role PLATFORM_ADMIN or AUDITOR");
        }
    }
}
