package dev.allot.booking.allocation;

import dev.allot.shared.TimeWindow;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The calendar buckets (UTC hours or days) whose state a change of one node's allocations flips. Gaps are kept
 * maximal, so a bucket touching the changed window is free exactly when the node's gap around the window holds
 * the whole bucket: those buckets turn allocated when the window is cut out of the gap, and free again when the
 * window is merged back into it.
 */
public final class Hours {

    public static final Duration HOUR = Duration.ofHours(1);

    public static final Duration DAY = Duration.ofDays(1);

    private Hours() {}

    /** The buckets of {@code unit} touching the window that lie wholly inside {@code [gapFrom, gapTo)}. */
    public static List<Instant> flipping(
            TimeWindow window, @Nullable Instant gapFrom, @Nullable Instant gapTo, Duration unit) {
        List<Instant> buckets = new ArrayList<>();
        for (Instant bucket = window.start().truncatedTo(unit.equals(DAY) ? ChronoUnit.DAYS : ChronoUnit.HOURS);
                bucket.isBefore(window.end());
                bucket = bucket.plus(unit)) {
            boolean startsInside = gapFrom == null || !bucket.isBefore(gapFrom);
            boolean endsInside = gapTo == null || !bucket.plus(unit).isAfter(gapTo);
            if (startsInside && endsInside) {
                buckets.add(bucket);
            }
        }
        return buckets;
    }
}
