package dev.allot.quota.api;

import dev.allot.quota.QuotaPolicy;
import dev.allot.quota.QuotaRequest;
import dev.allot.quota.QuotaRequests;
import dev.allot.shared.PageQuery;
import dev.allot.shared.PageResponse;
import dev.allot.shared.security.Caller;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * Quota requests (API.md): a tenant admin asks for a quota under {@code /tenants/{tenant}/quota-requests}; platform
 * admins list them all under {@code /quota-requests} and approve or deny each.
 */
@RestController
class QuotaRequestsController {

    /** The policy list wanted (as a quota's) and why. */
    record QuotaRequestBody(
            @NotNull @Size(max = 100) List<QuotaController.@NotNull @Valid PolicyBody> policies,
            @NotNull String reason) {}

    /** A decision's reason: required to deny, optional to approve. */
    record DecisionBody(@Nullable String reason) {}

    record QuotaRequestAnswer(
            UUID id,
            String tenant,
            QuotaRequest.Status status,
            List<QuotaController.PolicyBody> policies,
            String reason,
            String requestedBy,
            Instant createdAt,
            @Nullable String decidedBy,
            @Nullable Instant decidedAt,
            @Nullable String decisionReason) {

        static QuotaRequestAnswer of(QuotaRequest r) {
            return new QuotaRequestAnswer(
                    r.id(),
                    r.tenant(),
                    r.status(),
                    r.policies().stream().map(QuotaController.PolicyBody::of).toList(),
                    r.reason(),
                    r.requestedBy(),
                    r.createdAt(),
                    r.decidedBy(),
                    r.decidedAt(),
                    r.decisionReason());
        }
    }

    private final QuotaRequests requests;

    QuotaRequestsController(QuotaRequests requests) {
        this.requests = requests;
    }

    @ResponseStatus(HttpStatus.CREATED)
    @PostMapping("/api/v1/tenants/{tenant}/quota-requests")
    ResponseEntity<QuotaRequestAnswer> create(
            Caller caller, @PathVariable String tenant, @Valid @RequestBody QuotaRequestBody body) {
        List<QuotaPolicy> policies = new ArrayList<>();
        for (int i = 0; i < body.policies().size(); i++) {
            policies.add(body.policies().get(i).toPolicy(i));
        }
        QuotaRequest created = requests.create(caller, tenant, policies, body.reason());
        return ResponseEntity.created(URI.create("/api/v1/tenants/" + tenant + "/quota-requests/" + created.id()))
                .body(QuotaRequestAnswer.of(created));
    }

    @GetMapping("/api/v1/tenants/{tenant}/quota-requests")
    PageResponse<QuotaRequestAnswer> ofTenant(
            Caller caller,
            @PathVariable String tenant,
            @RequestParam(required = false) @Nullable Integer page,
            @RequestParam(required = false) @Nullable Integer size) {
        return requests.ofTenant(caller, tenant, PageQuery.of(page, size)).map(QuotaRequestAnswer::of);
    }

    @GetMapping("/api/v1/tenants/{tenant}/quota-requests/{id}")
    QuotaRequestAnswer get(Caller caller, @PathVariable String tenant, @PathVariable UUID id) {
        return QuotaRequestAnswer.of(requests.get(caller, tenant, id));
    }

    @PostMapping("/api/v1/tenants/{tenant}/quota-requests/{id}/withdraw")
    QuotaRequestAnswer withdraw(Caller caller, @PathVariable String tenant, @PathVariable UUID id) {
        return QuotaRequestAnswer.of(requests.withdraw(caller, tenant, id));
    }

    @GetMapping("/api/v1/quota-requests")
    PageResponse<QuotaRequestAnswer> all(
            Caller caller,
            @RequestParam(required = false) QuotaRequest.@Nullable Status status,
            @RequestParam(required = false) @Nullable Integer page,
            @RequestParam(required = false) @Nullable Integer size) {
        return requests.all(caller, status, PageQuery.of(page, size)).map(QuotaRequestAnswer::of);
    }

    @PostMapping("/api/v1/quota-requests/{id}/approve")
    QuotaRequestAnswer approve(
            Caller caller, @PathVariable UUID id, @RequestBody(required = false) @Nullable DecisionBody body) {
        return QuotaRequestAnswer.of(requests.approve(caller, id, body == null ? null : body.reason()));
    }

    @PostMapping("/api/v1/quota-requests/{id}/deny")
    QuotaRequestAnswer deny(Caller caller, @PathVariable UUID id, @Valid @RequestBody DecisionBody body) {
        return QuotaRequestAnswer.of(requests.deny(caller, id, body.reason()));
    }
}
