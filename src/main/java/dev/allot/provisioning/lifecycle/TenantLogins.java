package dev.allot.provisioning.lifecycle;

import java.util.List;

import dev.allot.provisioning.driver.ClusterBlueprint;
import dev.allot.shared.security.TenantRole;
import dev.allot.tenancy.Member;
import dev.allot.tenancy.Tenancy;

import org.springframework.stereotype.Component;

/**
 * Who of a tenant logs in on its clusters (Slurm: associated with the tenant's account, SSH keys installed): the
 * members who may book (tenant admins and members, not viewers), under their Allot user name, which must be a
 * POSIX user name other than a system account ({@link ClusterBlueprint#isLoginUser}); others get no login. Read
 * each time the cluster is provisioned or converged, so a member added or removed meanwhile is taken in then.
 */
@Component
class TenantLogins {

	private final Tenancy tenancy;

	TenantLogins(Tenancy tenancy) {
		this.tenancy = tenancy;
	}

	List<String> of(String tenant) {
		return logins(tenancy.members(tenant));
	}

	static List<String> logins(List<Member> members) {
		return members.stream()
			.filter(member -> member.role().includes(TenantRole.MEMBER))
			.map(Member::username)
			.filter(ClusterBlueprint::isLoginUser)
			.sorted()
			.toList();
	}

}
