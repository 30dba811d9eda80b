package dev.allot.provisioning.api;

import dev.allot.provisioning.driver.HealthCheckKind;
import dev.allot.provisioning.health.HealthCheck;
import dev.allot.provisioning.health.HealthChecks;
import dev.allot.shared.IdempotencyKey;
import dev.allot.shared.security.Caller;
import java.net.URI;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/v1/tenants/{tenant}/reservations/{id}/health-checks")
class HealthChecksController {

    private final HealthChecks checks;

    HealthChecksController(HealthChecks checks) {
        this.checks = checks;
    }

    /**
     * @param kind which check ({@code NVIDIA_SMI} when absent)
     * @param level the DCGM diagnostic level of a {@code DCGM_DIAG}, 1 to 3 (1 when absent)
     * @param acrossNodes an {@code NCCL_ALL_REDUCE} as one job across all the cluster's nodes (false when absent)
     */
    record HealthCheckRequest(
            @Nullable HealthCheckKind kind,
            @Nullable Integer level,
            @Nullable Boolean acrossNodes) {}

    /** Queues a check of the cluster's nodes and answers at once (202); read it back until it has finished. */
    @ResponseStatus(HttpStatus.ACCEPTED)
    @PostMapping
    ResponseEntity<HealthCheck> request(
            Caller caller,
            @PathVariable String tenant,
            @PathVariable UUID id,
            @Nullable IdempotencyKey idempotencyKey,
            @RequestBody(required = false) @Nullable HealthCheckRequest body) {
        HealthCheckKind kind = body == null || body.kind() == null ? HealthCheckKind.NVIDIA_SMI : body.kind();
        Integer level = body == null ? null : body.level();
        boolean acrossNodes = body != null && Boolean.TRUE.equals(body.acrossNodes());
        HealthChecks.Requested requested = checks.request(caller, tenant, id, kind, level, acrossNodes, idempotencyKey);
        ResponseEntity.BodyBuilder response = ResponseEntity.status(HttpStatus.ACCEPTED)
                .location(URI.create("/api/v1/tenants/" + tenant + "/reservations/" + id + "/health-checks/"
                        + requested.check().id()));
        if (requested.replayed()) {
            response.header("Idempotent-Replayed", "true");
        }
        return response.body(requested.check());
    }

    @GetMapping("/{check}")
    HealthCheck get(Caller caller, @PathVariable String tenant, @PathVariable UUID id, @PathVariable UUID check) {
        return checks.get(caller, tenant, id, check);
    }
}
