package dev.allot.identity.api;

import dev.allot.shared.security.Caller;
import dev.allot.shared.security.PlatformRole;
import dev.allot.shared.security.ProjectRole;
import dev.allot.shared.security.TenantRole;
import java.util.Comparator;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
class MeController {

    record Membership(String tenant, TenantRole role) {}

    /** A role in one project of a tenant (issue 31). */
    record ProjectMembership(String tenant, String project, ProjectRole role) {}

    record Me(
            String subject,
            String displayName,
            Caller.Kind kind,
            List<PlatformRole> roles,
            List<Membership> tenants,
            List<ProjectMembership> projects) {}

    @GetMapping("/api/v1/me")
    Me me(Caller caller) {
        return new Me(
                caller.subject(),
                caller.displayName(),
                caller.kind(),
                caller.platformRoles().stream().sorted().toList(),
                caller.tenants().entrySet().stream()
                        .map(entry -> new Membership(entry.getKey(), entry.getValue()))
                        .sorted(Comparator.comparing(Membership::tenant))
                        .toList(),
                caller.projects().entrySet().stream()
                        .flatMap(tenant -> tenant.getValue().entrySet().stream()
                                .map(project ->
                                        new ProjectMembership(tenant.getKey(), project.getKey(), project.getValue())))
                        .sorted(Comparator.comparing(ProjectMembership::tenant)
                                .thenComparing(ProjectMembership::project))
                        .toList());
    }
}
