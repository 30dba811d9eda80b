package dev.allot.tenancy.api;

import dev.allot.shared.PageQuery;
import dev.allot.shared.PageResponse;
import dev.allot.shared.Slugs;
import dev.allot.shared.security.Caller;
import dev.allot.tenancy.Tenancy;
import dev.allot.tenancy.Tenant;
import dev.allot.tenancy.status.TenantStatus;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.net.URI;
import java.time.Instant;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/v1/tenants")
class TenantsController {

    record CreateTenant(
            @NotBlank @Pattern(regexp = Slugs.PATTERN, message = Slugs.MESSAGE)
            String slug,

            @NotBlank @Size(max = 200) String displayName) {}

    record ChangeTenant(
            @Nullable @Size(min = 1, max = 200) String displayName,
            @Nullable TenantStatus status) {}

    record TenantBody(String slug, String displayName, TenantStatus status, Instant createdAt) {
        static TenantBody of(Tenant tenant) {
            return new TenantBody(tenant.slug(), tenant.displayName(), tenant.status(), tenant.createdAt());
        }
    }

    private final Tenancy tenancy;

    TenantsController(Tenancy tenancy) {
        this.tenancy = tenancy;
    }

    @ResponseStatus(HttpStatus.CREATED)
    @PostMapping
    ResponseEntity<TenantBody> create(Caller caller, @Valid @RequestBody CreateTenant body) {
        Tenant tenant = tenancy.createTenant(
                caller, new Tenancy.NewTenant(body.slug(), body.displayName().strip()));
        return ResponseEntity.created(URI.create("/api/v1/tenants/" + tenant.slug()))
                .eTag(tenant.etag())
                .body(TenantBody.of(tenant));
    }

    @GetMapping
    PageResponse<TenantBody> list(
            Caller caller,
            @RequestParam(required = false) @Nullable Integer page,
            @RequestParam(required = false) @Nullable Integer size) {
        return tenancy.tenants(caller, PageQuery.of(page, size)).map(TenantBody::of);
    }

    @GetMapping("/{tenant}")
    ResponseEntity<TenantBody> get(Caller caller, @PathVariable String tenant) {
        Tenant found = tenancy.readableInProjects(caller, tenant);
        return ResponseEntity.ok().eTag(found.etag()).body(TenantBody.of(found));
    }

    @PatchMapping("/{tenant}")
    ResponseEntity<TenantBody> change(
            Caller caller,
            @PathVariable String tenant,
            @RequestHeader(name = "If-Match", required = false) @Nullable String ifMatch,
            @Valid @RequestBody ChangeTenant body) {
        Tenant changed = tenancy.changeTenant(
                caller,
                tenant,
                new Tenancy.TenantChange(
                        body.displayName() == null ? null : body.displayName().strip(), body.status()),
                ifMatch);
        return ResponseEntity.ok().eTag(changed.etag()).body(TenantBody.of(changed));
    }
}
