package dev.allot.provisioning.lifecycle;

import dev.allot.provisioning.driver.ClusterBlueprint;
import dev.allot.shared.security.ProjectRole;
import dev.allot.shared.security.TenantRole;
import dev.allot.tenancy.Member;
import dev.allot.tenancy.ProjectMember;
import dev.allot.tenancy.ProjectMembers;
import dev.allot.tenancy.Tenancy;
import java.util.List;
import java.util.stream.Stream;
import org.springframework.stereotype.Component;

/**
 * Who of a tenant logs in on its clusters (Slurm: associated with the tenant's account, SSH keys installed): the
 * members who may book (tenant admins and members, not viewers), and the cluster's project's own members who may book
 * there (project admins and members), under their Allot user name, which must be a
 * POSIX user name other than a system account ({@link ClusterBlueprint#isLoginUser}); others get no login. Read
 * each time the cluster is provisioned or converged, so a member added or removed meanwhile is taken in then.
 */
@Component
class TenantLogins {

    private final Tenancy tenancy;

    private final ProjectMembers projectMembers;

    TenantLogins(Tenancy tenancy, ProjectMembers projectMembers) {
        this.tenancy = tenancy;
        this.projectMembers = projectMembers;
    }

    /** The logins on a cluster of the tenant's project: its members who may book, and the project's (issue 31). */
    List<String> of(String tenant, String project) {
        return logins(tenancy.members(tenant), projectMembers.membersOf(tenant, project));
    }

    static List<String> logins(List<Member> members) {
        return logins(members, List.of());
    }

    static List<String> logins(List<Member> members, List<ProjectMember> projectMembers) {
        return Stream.concat(
                        members.stream()
                                .filter(member -> member.role().includes(TenantRole.MEMBER))
                                .map(Member::username),
                        projectMembers.stream()
                                .filter(member -> member.role().includes(ProjectRole.PROJECT_MEMBER))
                                .map(ProjectMember::username))
                .filter(ClusterBlueprint::isLoginUser)
                .distinct()
                .sorted()
                .toList();
    }
}
