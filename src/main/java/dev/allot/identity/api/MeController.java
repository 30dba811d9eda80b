package dev.allot.identity.api;

import java.util.List;

import dev.allot.shared.security.Caller;
import dev.allot.shared.security.PlatformRole;
import dev.allot.shared.security.TenantRole;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
class MeController {

	record Membership(String tenant, TenantRole role) {
	}

	record Me(String subject, String displayName, Caller.Kind kind, List<PlatformRole> roles,
			List<Membership> tenants) {
	}

	@GetMapping("/api/v1/me")
	Me me(Caller caller) {
		return new Me(caller.subject(), caller.displayName(), caller.kind(),
				caller.platformRoles().stream().sorted().toList(),
				caller.tenants()
					.entrySet()
					.stream()
					.map(entry -> new Membership(entry.getKey(), entry.getValue()))
					.sorted(java.util.Comparator.comparing(Membership::tenant))
					.toList());
	}

}
