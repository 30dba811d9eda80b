package dev.allot.home.ui;

import dev.allot.billing.Notices;
import dev.allot.billing.Spending;
import dev.allot.booking.NowAndNext;
import dev.allot.provisioning.Degradations;
import dev.allot.shared.web.Words;
import dev.allot.tenancy.Tenant;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A team's home: its reservations running and coming (each with its warning), its quota standing per GPU type now,
 * this month's budget (null when none is set) and its unread notices.
 */
record TeamHome(
        Tenant tenant,
        List<Reservation> running,
        List<Reservation> next,
        List<Standing> quota,
        Spending.@Nullable MonthBudget budget,
        Notices.Unread unread) {

    /** A reservation with, when its cluster is degraded, why and what is being done about each node at fault. */
    record Reservation(NowAndNext.Current r, Degradations.@Nullable Degradation degradation) {

        public String doing(Degradations.NodeAtFault node) {
            return TeamHome.doing(node.health());
        }
    }

    /**
     * A GPU type's standing now: guaranteed and most GPUs, GPUs held now, and the tier a booking made now would get
     * ({@code NONE}: the most is reached).
     */
    record Standing(String gpuType, int guaranteedGpus, int maxGpus, int inUse, String newBooking) {}

    static TeamHome of(
            Tenant tenant,
            List<NowAndNext.Current> current,
            Map<UUID, Degradations.Degradation> degraded,
            List<Standing> quota,
            Spending.@Nullable MonthBudget budget,
            Notices.Unread unread,
            Instant now) {
        List<Reservation> all = current.stream()
                .map(r -> new Reservation(r, degraded.get(r.id())))
                .toList();
        return new TeamHome(
                tenant,
                all.stream().filter(r -> r.r().running(now)).toList(),
                all.stream().filter(r -> !r.r().running(now)).toList(),
                quota,
                budget,
                unread);
    }

    /** What is being done about a node at fault, in words. */
    static String doing(String health) {
        return switch (health) {
            case "QUARANTINED" ->
                "out of service; no free node could take its place yet, so the cluster runs without it"
                        + " (its hours are not charged)";
            case "REBOOTING" -> "rebooting; it is checked again once it is back";
            case "CHECKING" -> "being checked";
            case "FAILED" -> "failed its last health check";
            default -> Words.word(health);
        };
    }
}
