package dev.allot.provisioning.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.shared.security.ProjectRole;
import dev.allot.shared.security.TenantRole;
import dev.allot.tenancy.Member;
import dev.allot.tenancy.ProjectMember;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TenantLoginsTests {

    @Test
    void membersWhoMayBookLogInUnderTheirNameWhenItIsAPosixUserNameAndNotASystemAccount() {
        List<Member> members = List.of(
                member("ada", TenantRole.TENANT_ADMIN),
                member("bob", TenantRole.MEMBER),
                member("carol", TenantRole.VIEWER),
                member("root", TenantRole.MEMBER),
                member("dave@example.com", TenantRole.MEMBER),
                member("Eve", TenantRole.MEMBER),
                member("x;rm -rf /", TenantRole.MEMBER),
                member("0a1b2c3d-4e5f", TenantRole.MEMBER),
                member("_svc-ci", TenantRole.MEMBER));

        assertThat(TenantLogins.logins(members)).containsExactly("_svc-ci", "ada", "bob");
    }

    @Test
    void theProjectsOwnMembersWhoMayBookLogInToo() {
        List<ProjectMember> project = List.of(
                new ProjectMember("grasping", "dana", ProjectRole.PROJECT_ADMIN, Instant.EPOCH),
                new ProjectMember("grasping", "erin", ProjectRole.PROJECT_MEMBER, Instant.EPOCH),
                new ProjectMember("grasping", "fay", ProjectRole.PROJECT_VIEWER, Instant.EPOCH),
                new ProjectMember("grasping", "bob", ProjectRole.PROJECT_MEMBER, Instant.EPOCH));

        assertThat(TenantLogins.logins(List.of(member("bob", TenantRole.MEMBER)), project))
                .containsExactly("bob", "dana", "erin");
    }

    private static Member member(String username, TenantRole role) {
        return new Member(username, role, Instant.EPOCH);
    }
}
