package dev.allot.tenancy;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditRecord;
import dev.allot.shared.AllotException;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.PageQuery;
import dev.allot.shared.PageResponse;
import dev.allot.shared.changes.ReadCache;
import dev.allot.shared.changes.TableChanges;
import dev.allot.shared.security.Caller;
import dev.allot.shared.security.TenantRole;
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
public class Tenancy {

	public record NewTenant(String slug, String displayName) {
	}

	public record TenantChange(@Nullable String displayName, @Nullable TenantStatus status) {
	}

	public record NewProject(String slug, String displayName) {
	}

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
		for (int page = 0;; page++) {
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
		Tenant tenant = new Tenant(UUID.randomUUID(), request.slug(), request.displayName(), TenantStatus.ACTIVE, 0,
				clock.instant());
		if (!repository.insert(tenant)) {
			throw AllotException.conflict("tenant_exists", "A tenant with the slug " + request.slug() + " exists");
		}
		audit.record(AuditRecord.created(tenant.slug(), "tenant", tenant.slug(), tenant));
		return tenant;
	}

	@Transactional(readOnly = true)
	public PageResponse<Tenant> tenants(Caller caller, PageQuery page) {
		boolean all = caller.readsEverything();
		var mine = new ArrayList<>(caller.tenants().keySet());
		return PageResponse.of(repository.tenants(mine, all, page), page, repository.countTenants(mine, all));
	}

	public Tenant changeTenant(Caller caller, String slug, TenantChange change, @Nullable String ifMatch) {
		caller.requireRead(slug);
		Tenant before = repository.tenantForUpdate(slug)
			.orElseThrow(() -> AllotException.notFound("Tenant " + slug));
		caller.requirePlatformAdmin();
		if (ifMatch != null && !ifMatch.equals(before.etag())) {
			throw AllotException.preconditionFailed("Tenant " + slug + " has changed; its ETag is " + before.etag());
		}
		Tenant after = before.with(change.displayName() != null ? change.displayName() : before.displayName(),
				change.status() != null ? change.status() : before.status());
		repository.update(after);
		String action = before.status() != after.status()
				? (after.isActive() ? "tenant.reactivated" : "tenant.suspended") : "tenant.updated";
		audit.record(new AuditRecord(slug, action, "tenant", slug, before, after));
		return after;
	}

	// Projects (tenant admin)

	public Project createProject(Caller caller, String tenantSlug, NewProject request) {
		Tenant tenant = writable(caller, tenantSlug, TenantRole.TENANT_ADMIN);
		Project project = new Project(UUID.randomUUID(), tenantSlug, request.slug(), request.displayName(),
				clock.instant());
		if (!repository.insertProject(project, tenant.id())) {
			throw AllotException.conflict("project_exists",
					"Tenant " + tenantSlug + " already has a project " + request.slug());
		}
		audit.record(AuditRecord.created(tenantSlug, "project", request.slug(), project));
		return project;
	}

	/** One project of a tenant the caller may read. */
	@Transactional(readOnly = true)
	public Project project(Caller caller, String tenantSlug, String slug) {
		readable(caller, tenantSlug);
		return repository.project(tenantSlug, slug)
			.orElseThrow(() -> AllotException.notFound("Project " + slug + " of tenant " + tenantSlug));
	}

	@Transactional(readOnly = true)
	public PageResponse<Project> projects(Caller caller, String tenantSlug, PageQuery page) {
		readable(caller, tenantSlug);
		return PageResponse.of(repository.projects(tenantSlug, page), page, repository.countProjects(tenantSlug));
	}

	// Members (tenant admin)

	public Member addMember(Caller caller, String tenantSlug, String username, TenantRole role) {
		Tenant tenant = writable(caller, tenantSlug, TenantRole.TENANT_ADMIN);
		if (!users.exists(username)) {
			throw InvalidInputException.of("username", "No user is named " + username + ". A person needs an Allot "
					+ "account (or to have signed in once) before joining a team; check the spelling.");
		}
		Member member = new Member(username, role, clock.instant());
		if (!repository.insertMember(tenant.id(), member)) {
			throw AllotException.conflict("member_exists", username + " is already a member of " + tenantSlug);
		}
		audit.record(AuditRecord.created(tenantSlug, "member", username, member));
		return member;
	}

	public Member changeMemberRole(Caller caller, String tenantSlug, String username, TenantRole role) {
		Tenant tenant = writable(caller, tenantSlug, TenantRole.TENANT_ADMIN);
		Member before = repository.member(tenant.id(), username)
			.orElseThrow(() -> AllotException.notFound("Member " + username));
		repository.updateMemberRole(tenant.id(), username, role);
		Member after = new Member(username, role, before.addedAt());
		audit.record(AuditRecord.changed(tenantSlug, "member", username, before, after));
		return after;
	}

	public void removeMember(Caller caller, String tenantSlug, String username) {
		Tenant tenant = writable(caller, tenantSlug, TenantRole.TENANT_ADMIN);
		Member before = repository.member(tenant.id(), username)
			.orElseThrow(() -> AllotException.notFound("Member " + username));
		repository.deleteMember(tenant.id(), username);
		audit.record(new AuditRecord(tenantSlug, "member.removed", "member", username, before, null));
	}

	@Transactional(readOnly = true)
	public Member member(Caller caller, String tenantSlug, String username) {
		Tenant tenant = readable(caller, tenantSlug);
		return repository.member(tenant.id(), username).orElseThrow(() -> AllotException.notFound("Member " + username));
	}

	@Transactional(readOnly = true)
	public PageResponse<Member> members(Caller caller, String tenantSlug, PageQuery page) {
		Tenant tenant = readable(caller, tenantSlug);
		return PageResponse.of(repository.members(tenant.id(), page), page, repository.countMembers(tenant.id()));
	}

}
