package dev.allot.booking.api;

import dev.allot.booking.api.ReservationBodies.QuoteBody;
import dev.allot.booking.calendar.Capacity;
import dev.allot.booking.spec.ClusterSpec;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.security.Caller;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Open to everyone signed in: it reveals counts, never who holds what. */
@RestController
@RequestMapping("/api/v1/capacity")
class CapacityController {

    record FitBody(
            Instant startsAt, Instant endsAt, @Nullable QuoteBody quote) {}

    record EarliestBody(String pool, int gpus, Duration duration, List<FitBody> windows) {}

    private final Capacity capacity;

    CapacityController(Capacity capacity) {
        this.capacity = capacity;
    }

    @GetMapping
    Capacity.Calendar calendar(
            Caller caller,
            @RequestParam String pool,
            @RequestParam(required = false) @Nullable String from,
            @RequestParam(required = false) @Nullable String to,
            @RequestParam(required = false) @Nullable String step) {
        return capacity.calendar(
                caller,
                pool,
                UtcInstants.optional("from", from),
                UtcInstants.optional("to", to),
                UtcInstants.duration("step", step, Duration.ofHours(1)));
    }

    @GetMapping("/earliest")
    EarliestBody earliest(
            Caller caller,
            @RequestParam String pool,
            @RequestParam int gpus,
            @RequestParam String duration,
            @RequestParam(required = false) @Nullable String after,
            @RequestParam(required = false) @Nullable String tenant,
            @RequestParam(required = false) @Nullable String orchestrator) {
        Duration length = UtcInstants.duration("duration", duration, Duration.ZERO);
        @Nullable Instant from = UtcInstants.optional("after", after);
        List<Capacity.Fit> fits = orchestrator == null
                ? capacity.earliest(caller, pool, gpus, length, from, tenant)
                : capacity.earliest(caller, pool, gpus, length, from, tenant, orchestrator(orchestrator));
        List<FitBody> windows = fits.stream()
                .map(fit -> new FitBody(
                        fit.startsAt(), fit.endsAt(), fit.quote() == null ? null : QuoteBody.of(fit.quote())))
                .toList();
        return new EarliestBody(pool, gpus, length, windows);
    }

    private static ClusterSpec.Orchestrator orchestrator(String value) {
        try {
            return ClusterSpec.Orchestrator.valueOf(value);
        } catch (IllegalArgumentException ex) {
            throw InvalidInputException.of(
                    "orchestrator",
                    "must be one of "
                            + Arrays.stream(ClusterSpec.Orchestrator.values())
                                    .map(Enum::name)
                                    .toList());
        }
    }

    /** Recomputes a pool's calendar from the allocations (platform admin; a repair, normally never needed). */
    @PostMapping("/rebuild")
    Map<String, String> rebuild(Caller caller, @RequestParam String pool) {
        capacity.rebuild(caller, pool);
        return Map.of("pool", pool, "status", "rebuilt");
    }
}
