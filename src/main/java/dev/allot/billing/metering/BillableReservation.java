package dev.allot.billing.metering;

import dev.allot.shared.TimeWindow;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A reservation as billing sees it: its booked window and the facts that shorten its billable life
 * (cancellation, a late-ready cluster, a failed provisioning), and how far it has been metered.
 */
public record BillableReservation(
        UUID reservationId,
        UUID tenantId,
        String tenant,
        String project,
        String pool,
        String gpuType,
        int gpusPerNode,
        int gpus,
        List<String> nodes,
        Instant startsAt,
        Instant endsAt,
        BigDecimal bookedAmount,
        String currency,
        @Nullable Instant cancelledAt,
        @Nullable Instant stoppedAt,
        @Nullable Instant readyAt,
        @Nullable Instant failedAt,
        Instant meteredUntil) {

    private static final Duration HOUR = Duration.ofHours(1);

    public BillableReservation {
        nodes = List.copyOf(nodes);
    }

    /** From the window's start, or from when its cluster became ready if that was later (Allot's delay). */
    Instant billableFrom() {
        if (readyAt != null && readyAt.isAfter(startsAt)) {
            Instant minute = readyAt.truncatedTo(ChronoUnit.MINUTES);
            return minute.equals(readyAt) ? minute : minute.plus(Duration.ofMinutes(1));
        }
        return startsAt;
    }

    /** Until the window's end, or until a cancellation freed the nodes. */
    Instant billableEnd() {
        return stoppedAt != null && stoppedAt.isBefore(endsAt) ? stoppedAt : endsAt;
    }

    /** Its billable life, or null when there is none (failed, or cancelled before it started). */
    @Nullable
    TimeWindow billable() {
        if (failedAt != null || !billableEnd().isAfter(billableFrom())) {
            return null;
        }
        return new TimeWindow(billableFrom(), billableEnd());
    }

    /**
     * The hours (UTC) not yet metered whose billable part has ended by {@code horizon}. When billing waits for
     * provisioning, nothing is due before the cluster is ready, unless the reservation ended without one.
     */
    public List<Instant> dueHours(Instant horizon, boolean awaitClusterReady) {
        List<Instant> due = new ArrayList<>();
        if (failedAt != null) {
            return due;
        }
        if (awaitClusterReady && readyAt == null && cancelledAt == null) {
            return due;
        }
        Instant end = billableEnd();
        for (Instant hour = meteredUntil; hour.isBefore(end); hour = hour.plus(HOUR)) {
            Instant periodEnd = hour.plus(HOUR).isBefore(end) ? hour.plus(HOUR) : end;
            if (periodEnd.isAfter(horizon)) {
                break;
            }
            due.add(hour);
        }
        return due;
    }

    /**
     * The fee for a cancellation: none once the window has started (the time used is metered) or when made
     * earlier than {@code within} before the start; otherwise {@code share} of the booked amount.
     */
    public BigDecimal cancellationFee(Instant cancelled, BigDecimal share, Duration within) {
        if (!cancelled.isBefore(startsAt) || !cancelled.isAfter(startsAt.minus(within))) {
            return BigDecimal.ZERO;
        }
        return bookedAmount.multiply(share).setScale(4, RoundingMode.HALF_EVEN);
    }

    public static Instant hourOf(Instant instant) {
        return instant.truncatedTo(ChronoUnit.HOURS);
    }
}
