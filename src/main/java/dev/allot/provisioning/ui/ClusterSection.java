package dev.allot.provisioning.ui;

import dev.allot.provisioning.driver.HealthCheckKind;
import dev.allot.provisioning.health.HealthCheck;
import dev.allot.provisioning.health.HealthChecks;
import dev.allot.provisioning.lifecycle.ClusterViews;
import dev.allot.shared.AllotException;
import dev.allot.shared.security.Caller;
import dev.allot.shared.web.UiController;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseBody;

/**
 * The cluster of a reservation. The reservation page includes it with
 * {@code <section hx-get="/tenants/{tenant}/reservations/{id}/cluster" hx-trigger="load, every 10s">}: an htmx
 * request gets the fragment {@code provisioning/cluster :: section}, any other request the same section as a page of
 * its own (so it works without JavaScript, and a link to it can be shared).
 */
@UiController
class ClusterSection {

    /** The form's value for an all-reduce as one job across all the cluster's nodes. */
    static final String ACROSS_NODES = "NCCL_ALL_REDUCE_ACROSS_NODES";

    /** The checks as the form offers them: the value, and what it tests in words. */
    private static final Map<String, String> KINDS = new LinkedHashMap<>();

    static {
        KINDS.put(HealthCheckKind.NVIDIA_SMI.name(), "nvidia-smi: GPUs present, ECC errors, Xid errors");
        KINDS.put(HealthCheckKind.DCGM_DIAG.name(), "DCGM diagnostic, level 1");
        KINDS.put(HealthCheckKind.GPU_BURN.name(), "gpu_burn: a minute of stress");
        KINDS.put(HealthCheckKind.NCCL_ALL_REDUCE.name(), "NCCL all-reduce bus bandwidth, each node alone");
        KINDS.put(ACROSS_NODES, "NCCL all-reduce bus bandwidth, one job across all nodes");
        KINDS.put(HealthCheckKind.NVBANDWIDTH.name(), "nvbandwidth: copy bandwidth");
    }

    private final ClusterViews clusters;

    private final HealthChecks checks;

    ClusterSection(ClusterViews clusters, HealthChecks checks) {
        this.clusters = clusters;
        this.checks = checks;
    }

    @GetMapping("/tenants/{tenant}/reservations/{id}/cluster")
    String cluster(
            Caller caller,
            Model model,
            @PathVariable String tenant,
            @PathVariable UUID id,
            @RequestHeader(name = "HX-Request", required = false) @Nullable String htmx) {
        model.addAttribute("cluster", clusters.view(caller, tenant, id));
        model.addAttribute("tenantSlug", tenant);
        model.addAttribute("section", "reservations");
        model.addAttribute("kinds", KINDS);
        return htmx != null ? "provisioning/cluster :: section" : "provisioning/cluster";
    }

    /**
     * The "Run check" button: the same request as {@code POST /api/v1/tenants/{t}/reservations/{id}/health-checks},
     * so the same rules decide (a member on the tenant's own reservation, an admin on any). A refusal is shown where
     * the result would be.
     */
    @PostMapping("/tenants/{tenant}/reservations/{id}/cluster/health-checks")
    String runCheck(
            Caller caller,
            Model model,
            @PathVariable String tenant,
            @PathVariable UUID id,
            @RequestParam String kind,
            @RequestHeader(name = "HX-Request", required = false) @Nullable String htmx) {
        try {
            boolean acrossNodes = ACROSS_NODES.equals(kind);
            HealthCheck check = checks.request(
                            caller,
                            tenant,
                            id,
                            acrossNodes ? HealthCheckKind.NCCL_ALL_REDUCE : kindOf(kind),
                            null,
                            acrossNodes,
                            null)
                    .check();
            if (htmx == null) {
                return "redirect:/tenants/" + tenant + "/reservations/" + id + "/cluster/health-checks/" + check.id();
            }
            model.addAttribute("check", check);
        } catch (AllotException ex) {
            model.addAttribute("refusal", ex.getMessage());
        }
        model.addAttribute("tenantSlug", tenant);
        model.addAttribute("reservationId", id);
        model.addAttribute("section", "reservations");
        return htmx != null ? "provisioning/health-check :: result" : "provisioning/health-check";
    }

    private static HealthCheckKind kindOf(String value) {
        try {
            return HealthCheckKind.valueOf(value);
        } catch (IllegalArgumentException ex) {
            throw new AllotException(400, "invalid_request", "Invalid request", "No check named " + value);
        }
    }

    /** A check's progress and, once finished, its result per node; polled by the page while it runs. */
    @GetMapping("/tenants/{tenant}/reservations/{id}/cluster/health-checks/{check}")
    String check(
            Caller caller,
            Model model,
            @PathVariable String tenant,
            @PathVariable UUID id,
            @PathVariable UUID check,
            @RequestHeader(name = "HX-Request", required = false) @Nullable String htmx) {
        model.addAttribute("check", checks.get(caller, tenant, id, check));
        model.addAttribute("tenantSlug", tenant);
        model.addAttribute("reservationId", id);
        model.addAttribute("section", "reservations");
        return htmx != null ? "provisioning/health-check :: result" : "provisioning/health-check";
    }

    /** The kubeconfig for a signed-in browser (the API's endpoint takes bearer tokens). */
    @GetMapping("/tenants/{tenant}/reservations/{id}/cluster/kubeconfig")
    @ResponseBody
    ResponseEntity<String> kubeconfig(Caller caller, @PathVariable String tenant, @PathVariable UUID id) {
        return ResponseEntity.ok()
                .contentType(MediaType.parseMediaType("application/yaml"))
                .cacheControl(CacheControl.noStore())
                .header(HttpHeaders.CONTENT_DISPOSITION, "attachment; filename=\"allot-" + id + ".kubeconfig\"")
                .body(clusters.kubeconfig(caller, tenant, id));
    }
}
