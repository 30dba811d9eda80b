package dev.allot.provisioning.lifecycle;

import java.time.Instant;
import java.util.List;

import dev.allot.shared.security.TenantRole;
import dev.allot.tenancy.Member;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TenantLoginsTests {

	@Test
	void membersWhoMayBookLogInUnderTheirNameWhenItIsAPosixUserNameAndNotASystemAccount() {
		List<Member> members = List.of(member("ada", TenantRole.TENANT_ADMIN), member("bob", TenantRole.MEMBER),
				member("carol", TenantRole.VIEWER), member("root", TenantRole.MEMBER),
				member("dave@example.com", TenantRole.MEMBER), member("Eve", TenantRole.MEMBER),
				member("x;rm -rf /", TenantRole.MEMBER), member("0a1b2c3d-4e5f", TenantRole.MEMBER),
				member("_svc-ci", TenantRole.MEMBER));

		assertThat(TenantLogins.logins(members)).containsExactly("_svc-ci", "ada", "bob");
	}

	private static Member member(String username, TenantRole role) {
		return new Member(username, role, Instant.EPOCH);
	}

}
