package dev.allot.tenancy;

import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditRecord;
import dev.allot.shared.AllotException;
import dev.allot.shared.ETags;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.KnownTenants;
import dev.allot.shared.PageQuery;
import dev.allot.shared.PageResponse;
import dev.allot.shared.SearchQuery;
import dev.allot.shared.UtcText;
import dev.allot.shared.changes.ReadCache;
import dev.allot.shared.changes.TableChanges;
import dev.allot.shared.security.Caller;
import dev.allot.shared.security.TenantRole;
import dev.allot.tenancy.invitations.Invitation;
import dev.allot.tenancy.status.TenantStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Tenants, projects and members: what the platform admin and tenant admins may change, each change audited
 * in its own transaction. Other modules use the lookups ({@link #find}, {@link #project}, {@link #membershipsOf}).
 */
@Service
@Transactional
public class Tenancy implements KnownTenants {

    public record NewTenant(String slug, String displayName) {}

    public record TenantChange(
            @Nullable String displayName, @Nullable TenantStatus status) {}

    public record NewProject(String slug, String displayName) {}

    private final TenancyRepository repository;

    private final AuditLog audit;

    private final Clock clock;

    /** Read by every request that names a tenant; kept until the tenant table changes. */
    private final ReadCache<String, Tenant> tenants;

    private final ReadCache<String, Project> projects;

    private final KnownUsers users;

    Tenancy(TenancyRepository repository, AuditLog audit, Clock clock, TableChanges changes, KnownUsers users) {
        this.repository = repository;
        this.audit = audit;
        this.clock = clock;
        this.users = users;
        this.tenants = changes.cache("tenants by slug", "tenant");
        this.projects = changes.cache("projects by tenant and slug", "tenant", "project");
    }

    // Lookups for other modules

    @Transactional(propagation = Propagation.SUPPORTS)
    public Optional<Tenant> find(String slug) {
        return tenants.find(slug, repository::tenant);
    }

    @Override
    @Transactional(propagation = Propagation.SUPPORTS)
    public boolean exists(String slug) {
        return find(slug).isPresent();
    }

    @Transactional(propagation = Propagation.SUPPORTS)
    public Optional<Project> project(String tenant, String slug) {
        return projects.find(tenant + "/" + slug, key -> repository.project(tenant, slug));
    }

    @Transactional(readOnly = true)
    public Map<String, TenantRole> membershipsOf(String subject) {
        return repository.membershipsOf(subject);
    }

    /** Every member of a tenant (none for an unknown one), for the logins provisioning opens on a cluster. */
    @Transactional(readOnly = true)
    public List<Member> members(String tenantSlug) {
        Optional<Tenant> tenant = find(tenantSlug);
        if (tenant.isEmpty()) {
            return List.of();
        }
        List<Member> all = new ArrayList<>();
        for (int page = 0; ; page++) {
            List<Member> members = repository.members(tenant.get().id(), new PageQuery(page, PageQuery.MAX_SIZE));
            all.addAll(members);
            if (members.size() < PageQuery.MAX_SIZE) {
                return all;
            }
        }
    }

    /** The tenant if the caller may see it; 404 otherwise. */
    @Transactional(propagation = Propagation.SUPPORTS)
    public Tenant readable(Caller caller, String slug) {
        caller.requireRead(slug);
        return find(slug).orElseThrow(() -> AllotException.notFound("Tenant " + slug));
    }

    /**
     * The tenant if the caller reads it whole or holds a role in one of its projects (404 otherwise): for what a
     * caller confined to its projects may see of the tenant, narrowed by {@link Caller#confinedTo}.
     */
    @Transactional(propagation = Propagation.SUPPORTS)
    public Tenant readableInProjects(Caller caller, String slug) {
        caller.requireReadSomeOf(slug);
        return find(slug).orElseThrow(() -> AllotException.notFound("Tenant " + slug));
    }

    /** The tenant if the caller holds {@code role} in it and the tenant is not suspended. */
    @Transactional(propagation = Propagation.SUPPORTS)
    public Tenant writable(Caller caller, String slug, TenantRole role) {
        Tenant tenant = readable(caller, slug);
        caller.requireRole(slug, role);
        tenant.requireActive();
        return tenant;
    }

    // Tenants (platform admin)

    public Tenant createTenant(Caller caller, NewTenant request) {
        caller.requirePlatformAdmin();
        Tenant tenant = new Tenant(
                UUID.randomUUID(), request.slug(), request.displayName(), TenantStatus.ACTIVE, 0, clock.instant());
        if (!repository.insert(tenant)) {
            throw AllotException.conflict("tenant_exists", "A tenant with the slug " + request.slug() + " exists");
        }
        audit.record(AuditRecord.created(tenant.slug(), "tenant", tenant.slug(), tenant));
        return tenant;
    }

    /** What the admin console's tenants may be sorted by: each column it shows; by slug as it opens. */
    public static final SearchQuery.Columns TENANT_COLUMNS = SearchQuery.Columns.of(
                    "t.slug",
                    "name",
                    "lower(t.display_name)",
                    "slug",
                    "t.slug",
                    "status",
                    "t.status",
                    "created",
                    "t.created_at")
            .byDefault("slug", false);

    /** The admin console's tenants: those whose slug or name holds the search text, sorted and paged. */
    @Transactional(readOnly = true)
    public PageResponse<Tenant> searchTenants(Caller caller, SearchQuery query) {
        caller.requireReadsEverything();
        return PageResponse.of(repository.searchTenants(query), query.page(), repository.countTenants(query));
    }

    @Transactional(readOnly = true)
    public PageResponse<Tenant> tenants(Caller caller, PageQuery page) {
        boolean all = caller.readsEverything();
        var mine = new ArrayList<>(caller.tenantsSeen());
        return PageResponse.of(repository.tenants(mine, all, page), page, repository.countTenants(mine, all));
    }

    public Tenant changeTenant(Caller caller, String slug, TenantChange change, @Nullable String ifMatch) {
        caller.requireRead(slug);
        Tenant before = repository.tenantForUpdate(slug).orElseThrow(() -> AllotException.notFound("Tenant " + slug));
        caller.requirePlatformAdmin();
        if (!ETags.matches(ifMatch, before.etag())) {
            throw AllotException.preconditionFailed("Tenant " + slug + " has changed; its ETag is " + before.etag());
        }
        Tenant after = before.with(
                change.displayName() != null ? change.displayName() : before.displayName(),
                change.status() != null ? change.status() : before.status());
        repository.update(after);
        String action = before.status() != after.status()
                ? (after.isActive() ? "tenant.reactivated" : "tenant.suspended")
                : "tenant.updated";
        audit.record(new AuditRecord(slug, action, "tenant", slug, before, after));
        return after;
    }

    // Projects (tenant admin)

    public Project createProject(Caller caller, String tenantSlug, NewProject request) {
        Tenant tenant = writable(caller, tenantSlug, TenantRole.TENANT_ADMIN);
        Project project =
                new Project(UUID.randomUUID(), tenantSlug, request.slug(), request.displayName(), clock.instant());
        if (!repository.insertProject(project, tenant.id())) {
            throw AllotException.conflict(
                    "project_exists", "Tenant " + tenantSlug + " already has a project " + request.slug());
        }
        audit.record(AuditRecord.created(tenantSlug, "project", request.slug(), project));
        return project;
    }

    /** One project of a tenant the caller may read. */
    @Transactional(readOnly = true)
    public Project project(Caller caller, String tenantSlug, String slug) {
        readableInProjects(caller, tenantSlug);
        return repository
                .project(tenantSlug, slug)
                .filter(project -> caller.canSeeProject(tenantSlug, project.slug()))
                .orElseThrow(() -> AllotException.notFound("Project " + slug + " of tenant " + tenantSlug));
    }

    @Transactional(readOnly = true)
    public PageResponse<Project> projects(Caller caller, String tenantSlug, PageQuery page) {
        readableInProjects(caller, tenantSlug);
        String[] only = caller.confinedTo(tenantSlug)
                .map(mine -> mine.toArray(String[]::new))
                .orElse(null);
        return PageResponse.of(
                repository.projects(tenantSlug, only, page), page, repository.countProjects(tenantSlug, only));
    }

    // Members (tenant admin)

    /** How long an invitation waits for its answer. */
    static final Duration INVITATION_LIFETIME = Duration.ofDays(14);

    /**
     * What adding a member did: a platform admin adds them at once ({@code member}); a tenant admin invites them
     * ({@code invitation}), and they become a member only when they accept.
     */
    public record Joining(@Nullable Member member, @Nullable Invitation invitation) {}

    /**
     * Adds an existing user to the tenant. Nobody is made a member of a tenant without consent: a tenant admin's
     * request is an invitation the user accepts ({@link #accept}); a platform admin adds directly, audited as such.
     */
    public Joining addMember(Caller caller, String tenantSlug, String username, TenantRole role) {
        Tenant tenant = writable(caller, tenantSlug, TenantRole.TENANT_ADMIN);
        if (!users.exists(username)) {
            throw InvalidInputException.of(
                    "username",
                    "No user is named " + username + ". A person needs an Allot "
                            + "account (or to have signed in once) before joining a team; check the spelling.");
        }
        if (repository.member(tenant.id(), username).isPresent()) {
            throw AllotException.conflict("member_exists", username + " is already a member of " + tenantSlug);
        }
        Instant now = clock.instant();
        if (!caller.isPlatformAdmin()) {
            Invitation invitation = new Invitation(
                    UUID.randomUUID(),
                    tenantSlug,
                    username,
                    role,
                    caller.subject(),
                    now,
                    now.plus(INVITATION_LIFETIME),
                    Invitation.Status.PENDING);
            if (!repository.insertInvitation(tenant.id(), invitation)) {
                throw AllotException.conflict(
                        "invitation_exists",
                        username + " already has an invitation to " + tenantSlug + " that waits for an answer");
            }
            audit.record(AuditRecord.created(
                    tenantSlug, "invitation", invitation.id().toString(), invitation));
            return new Joining(null, invitation);
        }
        Member member = new Member(username, role, now);
        if (!repository.insertMember(tenant.id(), member)) {
            throw AllotException.conflict("member_exists", username + " is already a member of " + tenantSlug);
        }
        audit.record(AuditRecord.created(tenantSlug, "member", username, member));
        return new Joining(member, null);
    }

    /** The caller's invitations that wait for an answer (expired ones included, so they can see why). */
    @Transactional(readOnly = true)
    public List<Invitation> invitations(Caller caller) {
        if (caller.kind() != Caller.Kind.USER) {
            return List.of();
        }
        return repository.openInvitations(caller.subject(), clock.instant());
    }

    /** How many invitations wait for the caller's answer: one count, for the header of every page. */
    @Transactional(readOnly = true)
    public int pendingInvitations(Caller caller) {
        return caller.kind() == Caller.Kind.USER ? repository.pendingInvitations(caller.subject(), clock.instant()) : 0;
    }

    /** The invited user accepts: they become a member with the role they were invited to. */
    public Member accept(Caller caller, UUID id) {
        Invitation invitation = answerable(caller, id);
        Tenant tenant = find(invitation.tenant()).orElseThrow(() -> AllotException.notFound("Invitation " + id));
        Instant now = clock.instant();
        Member member = new Member(invitation.username(), invitation.role(), now);
        repository.insertMember(tenant.id(), member);
        repository.answerInvitation(id, Invitation.Status.ACCEPTED, now);
        audit.record(new AuditRecord(
                invitation.tenant(),
                "invitation.accepted",
                "invitation",
                id.toString(),
                invitation,
                invitation.answered(Invitation.Status.ACCEPTED)));
        return repository.member(tenant.id(), invitation.username()).orElse(member);
    }

    /** The invited user declines: nothing else changes. */
    public Invitation decline(Caller caller, UUID id) {
        Invitation invitation = answerable(caller, id);
        repository.answerInvitation(id, Invitation.Status.DECLINED, clock.instant());
        Invitation declined = invitation.answered(Invitation.Status.DECLINED);
        audit.record(new AuditRecord(
                invitation.tenant(), "invitation.declined", "invitation", id.toString(), invitation, declined));
        return declined;
    }

    /** Only the invited user answers, once, before it expires: anyone else learns nothing of it (404). */
    private Invitation answerable(Caller caller, UUID id) {
        Invitation invitation = repository
                .invitationForUpdate(id, clock.instant())
                .filter(i -> caller.kind() == Caller.Kind.USER && i.username().equals(caller.subject()))
                .orElseThrow(() -> AllotException.notFound("Invitation " + id));
        if (invitation.status() == Invitation.Status.EXPIRED) {
            throw AllotException.conflict(
                    "invitation_expired",
                    "The invitation to " + invitation.tenant() + " expired at " + UtcText.of(invitation.expiresAt())
                            + "; ask for a new one");
        }
        if (invitation.status() != Invitation.Status.PENDING) {
            throw AllotException.conflict(
                    "invitation_answered",
                    "The invitation to " + invitation.tenant() + " was already "
                            + invitation.status().name().toLowerCase(Locale.ROOT));
        }
        return invitation;
    }

    public Member changeMemberRole(Caller caller, String tenantSlug, String username, TenantRole role) {
        Tenant tenant = writable(caller, tenantSlug, TenantRole.TENANT_ADMIN);
        Member before = repository
                .member(tenant.id(), username)
                .orElseThrow(() -> AllotException.notFound("Member " + username));
        repository.updateMemberRole(tenant.id(), username, role);
        Member after = new Member(username, role, before.addedAt());
        audit.record(AuditRecord.changed(tenantSlug, "member", username, before, after));
        return after;
    }

    public void removeMember(Caller caller, String tenantSlug, String username) {
        Tenant tenant = writable(caller, tenantSlug, TenantRole.TENANT_ADMIN);
        Member before = repository
                .member(tenant.id(), username)
                .orElseThrow(() -> AllotException.notFound("Member " + username));
        repository.deleteMember(tenant.id(), username);
        audit.record(new AuditRecord(tenantSlug, "member.removed", "member", username, before, null));
    }

    @Transactional(readOnly = true)
    public Member member(Caller caller, String tenantSlug, String username) {
        Tenant tenant = readable(caller, tenantSlug);
        return repository
                .member(tenant.id(), username)
                .orElseThrow(() -> AllotException.notFound("Member " + username));
    }

    @Transactional(readOnly = true)
    public PageResponse<Member> members(Caller caller, String tenantSlug, PageQuery page) {
        Tenant tenant = readable(caller, tenantSlug);
        return PageResponse.of(repository.members(tenant.id(), page), page, repository.countMembers(tenant.id()));
    }
}
