package dev.allot.demo;

import dev.allot.booking.BookingRequest;
import dev.allot.booking.Bookings;
import dev.allot.booking.Reservation;
import dev.allot.booking.spec.ClusterSpec;
import dev.allot.shared.AllotException;
import dev.allot.shared.TimeWindow;
import dev.allot.shared.security.Caller;
import dev.allot.shared.security.TenantRole;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The demo's reservations (issue 30, a living demo), booked by its users through the normal booking path, so that
 * the first sign-in shows a calendar in use: two teams' clusters running from the first minutes (guaranteed, and
 * guaranteed plus borrowed), bookings in the coming days, and a large one waiting for approval. The fake driver
 * builds the running ones and metering counts them from then on. A booking the fleet refuses is logged and skipped:
 * the demo never stops a start.
 */
@Component
class DemoBookings {

    private static final Logger log = LoggerFactory.getLogger(DemoBookings.class);

    static final Caller ALICE = new Caller(
            "alice", "Alice Example", Caller.Kind.USER, Set.of(), Map.of("acme-ml", TenantRole.TENANT_ADMIN));

    static final Caller BOB =
            new Caller("bob", "Bob Example", Caller.Kind.USER, Set.of(), Map.of("globex-ai", TenantRole.MEMBER));

    private final Bookings bookings;

    private final Clock clock;

    DemoBookings(Bookings bookings, Clock clock) {
        this.bookings = bookings;
        this.clock = clock;
    }

    /** Books the demo's reservations; answers how many were made. */
    int seed() {
        Instant soon = clock.instant().truncatedTo(ChronoUnit.MINUTES).plus(Duration.ofMinutes(2));
        Instant today = clock.instant().truncatedTo(ChronoUnit.DAYS);
        int made = 0;
        // running within minutes: pre-training within acme's guarantee, recommender training partly borrowed
        made += book(
                ALICE,
                "acme-ml",
                "llm-pretrain",
                "h100-eu",
                32,
                soon,
                soon.plus(Duration.ofDays(2)),
                Map.of("workload", "pretrain"));
        made += book(
                BOB,
                "globex-ai",
                "recsys",
                "h100-eu",
                24,
                soon,
                soon.plus(Duration.ofDays(2)),
                Map.of("workload", "fine-tune"));
        // the coming days
        made += book(
                ALICE,
                "acme-ml",
                "vision",
                "h200-eu",
                16,
                today.plus(Duration.ofHours(24 + 9)),
                today.plus(Duration.ofHours(24 + 17)),
                Map.of("workload", "eval"));
        made += book(
                BOB,
                "globex-ai",
                "recsys",
                "a100-us",
                32,
                today.plus(Duration.ofHours(3 * 24 + 8)),
                today.plus(Duration.ofHours(3 * 24 + 20)),
                Map.of("workload", "inference"));
        // above acme's approval limit on H100 (2,000 GPU-hours): waits for a platform admin's (or another
        // tenant admin's) decision on the approvals page
        made += book(
                ALICE,
                "acme-ml",
                "llm-pretrain",
                "h100-eu",
                64,
                today.plus(Duration.ofDays(7)),
                today.plus(Duration.ofDays(9)),
                Map.of("workload", "pretrain"));
        return made;
    }

    private int book(
            Caller who,
            String tenant,
            String project,
            String pool,
            int gpus,
            Instant start,
            Instant end,
            Map<String, String> labels) {
        return reserve(who, tenant, project, pool, gpus, start, end, labels).isPresent() ? 1 : 0;
    }

    /** Books through the normal booking path; empty (and logged) when refused. */
    Optional<Reservation> reserve(
            Caller who,
            String tenant,
            String project,
            String pool,
            int gpus,
            Instant start,
            Instant end,
            Map<String, String> labels) {
        try {
            return Optional.of(bookings.book(
                            who,
                            tenant,
                            null,
                            new BookingRequest(
                                    project,
                                    pool,
                                    gpus,
                                    new TimeWindow(start, end),
                                    ClusterSpec.kubernetes(),
                                    false,
                                    labels))
                    .reservation());
        } catch (AllotException refused) {
            log.warn("Demo booking of {} GPUs of {} for {} skipped: {}", gpus, pool, tenant, refused.getMessage());
            return Optional.empty();
        }
    }
}
