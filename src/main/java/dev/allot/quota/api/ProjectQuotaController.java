package dev.allot.quota.api;

import dev.allot.quota.Quotas;
import dev.allot.quota.policies.ProjectQuotaPolicy;
import dev.allot.shared.security.Caller;
import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.math.BigDecimal;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A project's caps within its tenant's quota (API.md): per GPU type, {@code maxGpus} held at once and a
 * {@code monthlyBudget} for what its bookings of the type cost in a month. A booking over either answers
 * {@code 422 project_quota_exceeded}.
 */
@RestController
@RequestMapping("/api/v1/tenants/{tenant}/projects/{project}/quota")
class ProjectQuotaController {

    record ProjectPolicyBody(
            @NotBlank String gpuType,
            @Nullable @Min(0) Integer maxGpus,
            @Nullable @DecimalMin("0") BigDecimal monthlyBudget) {

        ProjectQuotaPolicy toPolicy() {
            return new ProjectQuotaPolicy(gpuType.strip(), maxGpus, monthlyBudget);
        }

        static ProjectPolicyBody of(ProjectQuotaPolicy policy) {
            return new ProjectPolicyBody(policy.gpuType(), policy.maxGpus(), policy.monthlyBudget());
        }
    }

    record ProjectQuotaRequest(@NotNull @Size(max = 50) List<@NotNull @Valid ProjectPolicyBody> policies) {}

    record ProjectQuotaBody(String tenant, String project, List<ProjectPolicyBody> policies) {}

    private final Quotas quotas;

    ProjectQuotaController(Quotas quotas) {
        this.quotas = quotas;
    }

    @GetMapping
    ProjectQuotaBody get(Caller caller, @PathVariable String tenant, @PathVariable String project) {
        return body(tenant, project, quotas.projectQuota(caller, tenant, project));
    }

    @PutMapping
    ProjectQuotaBody replace(
            Caller caller,
            @PathVariable String tenant,
            @PathVariable String project,
            @Valid @RequestBody ProjectQuotaRequest body) {
        return body(
                tenant,
                project,
                quotas.replaceProjectQuota(
                        caller,
                        tenant,
                        project,
                        body.policies().stream()
                                .map(ProjectPolicyBody::toPolicy)
                                .toList()));
    }

    private static ProjectQuotaBody body(String tenant, String project, List<ProjectQuotaPolicy> policies) {
        return new ProjectQuotaBody(
                tenant, project, policies.stream().map(ProjectPolicyBody::of).toList());
    }
}
