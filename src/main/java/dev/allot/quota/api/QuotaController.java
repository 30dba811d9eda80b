package dev.allot.quota.api;

import dev.allot.quota.Priority;
import dev.allot.quota.QuotaPolicy;
import dev.allot.quota.Quotas;
import dev.allot.quota.policies.QuotaWindow;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.QueuedBookings;
import dev.allot.shared.security.Caller;
import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/v1/tenants/{tenant}/quota")
class QuotaController {

    /**
     * Which bookings need a tenant admin's approval (API.md): above {@code aboveGpuHours} GPU-hours, and with
     * {@code beyondGuarantee} any not wholly within the guarantee.
     */
    record ApprovalBody(
            @Nullable @Min(0) Integer aboveGpuHours,
            @Nullable Boolean beyondGuarantee) {}

    /** A time-window quota: {@code days} as MON..SUN, {@code from} and {@code to} as HH:MM (to up to 24:00). */
    record WindowBody(
            @Nullable List<String> days,
            @Nullable String from,
            @Nullable String to,
            @Nullable Integer maxGpus) {

        static WindowBody of(QuotaWindow window) {
            return new WindowBody(window.dayNames(), window.from(), window.to(), window.maxGpus());
        }
    }

    record PolicyBody(
            @NotBlank String gpuType,
            @NotNull @Min(0) Integer guaranteedGpus,
            @NotNull @Min(0) Integer maxGpus,
            @Nullable Boolean burst,
            @NotNull Duration maxWindow,
            @NotNull Duration maxAdvance,
            @Nullable @DecimalMin("0") BigDecimal monthlyBudget,
            @Nullable Priority priority,
            @Nullable @Min(0) Integer lendableGpus,
            @Nullable @Size(max = 64) String zone,
            @Nullable @Size(max = QuotaPolicy.MAX_WINDOWS) List<@NotNull WindowBody> windows,
            @Nullable @Valid ApprovalBody approval) {

        static PolicyBody of(QuotaPolicy policy) {
            return new PolicyBody(
                    policy.gpuType(),
                    policy.guaranteedGpus(),
                    policy.maxGpus(),
                    policy.burst(),
                    policy.maxWindow(),
                    policy.maxAdvance(),
                    policy.monthlyBudget(),
                    policy.priority(),
                    policy.lendableGpus(),
                    policy.zone().getId(),
                    policy.windows().stream().map(WindowBody::of).toList(),
                    policy.approval() == null
                            ? null
                            : new ApprovalBody(
                                    policy.approval().aboveGpuHours(),
                                    policy.approval().beyondGuarantee()));
        }

        QuotaPolicy toPolicy(int index) {
            try {
                List<QuotaWindow> parsed = new ArrayList<>();
                List<WindowBody> given = windows == null ? List.of() : windows;
                for (int i = 0; i < given.size(); i++) {
                    WindowBody w = given.get(i);
                    parsed.add(QuotaWindow.of("windows[" + i + "]", w.days(), w.from(), w.to(), w.maxGpus()));
                }
                return new QuotaPolicy(
                        gpuType,
                        guaranteedGpus,
                        maxGpus,
                        Boolean.TRUE.equals(burst),
                        maxWindow,
                        maxAdvance,
                        monthlyBudget,
                        priority == null ? Priority.TRAINING : priority,
                        lendableGpus == null ? guaranteedGpus : lendableGpus,
                        parsedZone(),
                        parsed,
                        approval == null
                                ? null
                                : new QuotaPolicy.Approval(
                                        approval.aboveGpuHours(), Boolean.TRUE.equals(approval.beyondGuarantee())));
            } catch (InvalidInputException ex) {
                throw new InvalidInputException(ex.errors().stream()
                        .map(e -> new InvalidInputException.FieldError(
                                "policies[" + index + "]." + e.field(), e.message()))
                        .toList());
            }
        }

        private ZoneId parsedZone() {
            if (zone == null || zone.isBlank()) {
                return QuotaPolicy.UTC;
            }
            try {
                return ZoneId.of(zone.strip());
            } catch (DateTimeException ex) {
                throw InvalidInputException.of("zone", "must be a time zone such as Europe/Berlin or UTC");
            }
        }
    }

    /** {@code storageGi}: the tenant's storage quota over all its volumes; absent or null: unlimited. */
    record QuotaBody(
            @Nullable @Min(0) Integer storageGi,
            @NotNull @Size(max = 100) List<@NotNull @Valid PolicyBody> policies) {}

    private final Quotas quotas;

    private final Clock clock;

    private final QueuedBookings queued;

    QuotaController(Quotas quotas, Clock clock, QueuedBookings queued) {
        this.queued = queued;
        this.quotas = quotas;
        this.clock = clock;
    }

    @GetMapping
    ResponseEntity<QuotaBody> get(Caller caller, @PathVariable String tenant) {
        return respond(quotas.quota(caller, tenant));
    }

    @PutMapping
    ResponseEntity<QuotaBody> put(
            Caller caller,
            @PathVariable String tenant,
            @RequestHeader(name = "If-Match", required = false) @Nullable String ifMatch,
            @Valid @RequestBody QuotaBody body) {
        List<QuotaPolicy> policies = new ArrayList<>();
        for (int i = 0; i < body.policies().size(); i++) {
            policies.add(body.policies().get(i).toPolicy(i));
        }
        return respond(quotas.replace(caller, tenant, policies, body.storageGi(), ifMatch));
    }

    @GetMapping("/standing")
    Quotas.Standing standing(
            Caller caller,
            @PathVariable String tenant,
            @RequestParam String gpuType,
            @RequestParam(required = false) @Nullable String from,
            @RequestParam(required = false) @Nullable String to,
            @RequestParam(required = false) @Nullable String step) {
        Instant start = from == null ? clock.instant().truncatedTo(ChronoUnit.HOURS) : instant("from", from);
        Instant end = to == null ? start.plus(Duration.ofDays(7)) : instant("to", to);
        Duration length;
        try {
            length = step == null ? Duration.ofHours(1) : Duration.parse(step);
        } catch (DateTimeParseException ex) {
            throw InvalidInputException.of("step", "must be an ISO-8601 duration, such as PT1H");
        }
        return quotas.standing(caller, tenant, gpuType, start, end, length).withQueued(queued.of(tenant, gpuType));
    }

    private static Instant instant(String field, String value) {
        try {
            return Instant.parse(value);
        } catch (DateTimeParseException ex) {
            throw InvalidInputException.of(field, "must be an ISO-8601 instant in UTC, such as 2027-01-05T09:00:00Z");
        }
    }

    private static ResponseEntity<QuotaBody> respond(Quotas.TenantQuota quota) {
        return ResponseEntity.ok()
                .eTag(quota.etag())
                .body(new QuotaBody(
                        quota.storageGi(),
                        quota.policies().stream().map(PolicyBody::of).toList()));
    }
}
