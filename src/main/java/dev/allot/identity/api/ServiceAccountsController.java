package dev.allot.identity.api;

import dev.allot.identity.accounts.ServiceAccount;
import dev.allot.identity.accounts.ServiceAccounts;
import dev.allot.shared.PageQuery;
import dev.allot.shared.PageResponse;
import dev.allot.shared.security.Caller;
import dev.allot.shared.security.TenantRole;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;
import java.net.URI;
import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/v1/tenants/{tenant}/service-accounts")
class ServiceAccountsController {

    /** {@code project}: scoped to that project of the tenant (role MEMBER or VIEWER there). */
    record CreateServiceAccount(
            @NotBlank @Size(max = 100) String name,
            @Nullable TenantRole role,
            @Nullable Instant expiresAt,
            @Nullable @Size(max = 40) String project) {}

    record ServiceAccountBody(
            UUID id,
            String name,
            String clientId,
            TenantRole role,
            @Nullable String project,
            String createdBy,
            Instant createdAt,
            @Nullable Instant expiresAt,
            @Nullable Instant revokedAt) {
        static ServiceAccountBody of(ServiceAccount account) {
            return new ServiceAccountBody(
                    account.id(),
                    account.name(),
                    account.clientId(),
                    account.role(),
                    account.project(),
                    account.createdBy(),
                    account.createdAt(),
                    account.expiresAt(),
                    account.revokedAt());
        }
    }

    /** The only answer that carries the secret. */
    record CreatedBody(
            UUID id,
            String name,
            String clientId,
            String clientSecret,
            TenantRole role,
            @Nullable String project,
            Instant createdAt,
            @Nullable Instant expiresAt,
            String tokenUrl) {}

    private final ServiceAccounts serviceAccounts;

    ServiceAccountsController(ServiceAccounts serviceAccounts) {
        this.serviceAccounts = serviceAccounts;
    }

    @ResponseStatus(HttpStatus.CREATED)
    @PostMapping
    ResponseEntity<CreatedBody> create(
            Caller caller, @PathVariable String tenant, @Valid @RequestBody CreateServiceAccount body) {
        ServiceAccounts.Created created = serviceAccounts.create(
                caller,
                tenant,
                body.name().strip(),
                body.role() == null ? TenantRole.MEMBER : body.role(),
                body.expiresAt(),
                body.project() == null || body.project().isBlank()
                        ? null
                        : body.project().strip());
        ServiceAccount account = created.account();
        return ResponseEntity.created(URI.create("/api/v1/tenants/" + tenant + "/service-accounts/" + account.id()))
                .header("Cache-Control", "no-store")
                .body(new CreatedBody(
                        account.id(),
                        account.name(),
                        account.clientId(),
                        created.clientSecret(),
                        account.role(),
                        account.project(),
                        account.createdAt(),
                        account.expiresAt(),
                        "/oauth2/token"));
    }

    @GetMapping
    PageResponse<ServiceAccountBody> list(
            Caller caller,
            @PathVariable String tenant,
            @RequestParam(required = false) @Nullable Integer page,
            @RequestParam(required = false) @Nullable Integer size) {
        return serviceAccounts.list(caller, tenant, PageQuery.of(page, size)).map(ServiceAccountBody::of);
    }

    @GetMapping("/{id}")
    ServiceAccountBody get(Caller caller, @PathVariable String tenant, @PathVariable UUID id) {
        return ServiceAccountBody.of(serviceAccounts.get(caller, tenant, id));
    }

    @DeleteMapping("/{id}")
    ServiceAccountBody revoke(Caller caller, @PathVariable String tenant, @PathVariable UUID id) {
        return ServiceAccountBody.of(serviceAccounts.revoke(caller, tenant, id));
    }
}
