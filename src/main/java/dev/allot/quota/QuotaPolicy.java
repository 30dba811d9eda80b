package dev.allot.quota;

import dev.allot.quota.policies.QuotaWindow;
import dev.allot.shared.DurationWords;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.TimeWindow;
import dev.allot.shared.UtcText;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * A tenant's quota for one GPU type, and the rules it applies to a booking: the window rules and the split of
 * the booking's GPUs, at every instant, into {@link dev.allot.quota.pricing.RateClass rate classes}.
 */
public record QuotaPolicy(
        String gpuType,
        int guaranteedGpus,
        int maxGpus,
        boolean burst,
        Duration maxWindow,
        Duration maxAdvance,
        @Nullable BigDecimal monthlyBudget,
        Priority priority,
        int lendableGpus,
        ZoneId zone,
        List<QuotaWindow> windows,
        @Nullable Approval approval) {

    /**
     * Which bookings need a tenant admin's approval: those of more than {@code aboveGpuHours} GPU-hours (null: no
     * such limit), and with {@code beyondGuarantee} those not wholly within the guarantee.
     */
    public record Approval(@Nullable Integer aboveGpuHours, boolean beyondGuarantee) {

        public Approval {
            if (aboveGpuHours != null && aboveGpuHours < 0) {
                throw InvalidInputException.of("approval.aboveGpuHours", "must be 0 or more");
            }
        }

        /** Whether a booking of {@code gpus} for {@code duration}, within the guarantee or not, needs approval. */
        public boolean needed(int gpus, Duration duration, boolean withinGuarantee) {
            boolean large = aboveGpuHours != null && gpus * duration.toSeconds() > aboveGpuHours * 3600L;
            return large || (beyondGuarantee && !withinGuarantee);
        }
    }

    /** The same policy with these approval rules. */
    public QuotaPolicy withApproval(@Nullable Approval rules) {
        return new QuotaPolicy(
                gpuType,
                guaranteedGpus,
                maxGpus,
                burst,
                maxWindow,
                maxAdvance,
                monthlyBudget,
                priority,
                lendableGpus,
                zone,
                windows,
                rules);
    }

    /** A policy that asks for no approval. */
    public QuotaPolicy(
            String gpuType,
            int guaranteedGpus,
            int maxGpus,
            boolean burst,
            Duration maxWindow,
            Duration maxAdvance,
            @Nullable BigDecimal monthlyBudget,
            Priority priority,
            int lendableGpus,
            ZoneId zone,
            List<QuotaWindow> windows) {
        this(
                gpuType,
                guaranteedGpus,
                maxGpus,
                burst,
                maxWindow,
                maxAdvance,
                monthlyBudget,
                priority,
                lendableGpus,
                zone,
                windows,
                null);
    }

    /** The zone of a policy that names none. */
    public static final ZoneId UTC = ZoneId.of("UTC");

    /** At most this many time windows per policy. */
    public static final int MAX_WINDOWS = 50;

    /** A policy that lends all of its guarantee and has no time windows (zone UTC). */
    public QuotaPolicy(
            String gpuType,
            int guaranteedGpus,
            int maxGpus,
            boolean burst,
            Duration maxWindow,
            Duration maxAdvance,
            @Nullable BigDecimal monthlyBudget,
            Priority priority) {
        this(
                gpuType,
                guaranteedGpus,
                maxGpus,
                burst,
                maxWindow,
                maxAdvance,
                monthlyBudget,
                priority,
                guaranteedGpus,
                UTC,
                List.of());
    }

    public QuotaPolicy {
        windows = List.copyOf(windows);
        if (lendableGpus < 0 || lendableGpus > guaranteedGpus) {
            throw InvalidInputException.of("lendableGpus", "must be from 0 to guaranteedGpus (" + guaranteedGpus + ")");
        }
        if (windows.size() > MAX_WINDOWS) {
            throw InvalidInputException.of("windows", "must be at most " + MAX_WINDOWS);
        }
        for (int i = 0; i < windows.size(); i++) {
            if (windows.get(i).maxGpus() < guaranteedGpus) {
                throw InvalidInputException.of("windows[" + i + "].maxGpus", "must be at least guaranteedGpus");
            }
        }
        if (guaranteedGpus < 0) {
            throw InvalidInputException.of("guaranteedGpus", "must be 0 or more");
        }
        if (maxGpus < guaranteedGpus) {
            throw InvalidInputException.of("maxGpus", "must be at least guaranteedGpus");
        }
        if (maxWindow.isNegative() || maxWindow.isZero()) {
            throw InvalidInputException.of("maxWindow", "must be positive");
        }
        if (maxAdvance.isNegative() || maxAdvance.isZero()) {
            throw InvalidInputException.of("maxAdvance", "must be positive");
        }
        if (monthlyBudget != null && monthlyBudget.signum() < 0) {
            throw InvalidInputException.of("monthlyBudget", "must be 0 or more");
        }
    }

    /** Refuses a window longer than {@code maxWindow} or starting later than {@code maxAdvance} from now. */
    void requireWindow(TimeWindow window, Instant now) {
        requireLength(window);
        Instant latestStart = now.plus(maxAdvance);
        if (window.start().isAfter(latestStart)) {
            throw (QuotaExceededException) new QuotaExceededException(
                            "maxAdvance",
                            "The reservation would start " + DurationWords.of(Duration.between(now, window.start()))
                                    + " from now; the quota allows starts at most " + DurationWords.of(maxAdvance)
                                    + " ahead ("
                                    + DurationWords.of(Duration.between(latestStart, window.start())) + " too far)")
                    .with("field", "startsAt")
                    .with("allowed", maxAdvance)
                    .with("exceededBy", Duration.between(latestStart, window.start()));
        }
    }

    void requireLength(TimeWindow window) {
        if (window.duration().compareTo(maxWindow) > 0) {
            throw (QuotaExceededException) new QuotaExceededException(
                            "maxWindow",
                            "The reservation would last " + DurationWords.of(window.duration())
                                    + "; the quota allows at most " + DurationWords.of(maxWindow) + " ("
                                    + DurationWords.of(window.duration().minus(maxWindow)) + " too long)")
                    .with("field", "endsAt")
                    .with("allowed", maxWindow)
                    .with("requested", window.duration())
                    .with("exceededBy", window.duration().minus(maxWindow));
        }
    }

    /**
     * Splits {@code gpus} over the window, given what the tenant already holds: first up to the guarantee
     * ({@code RESERVED}), then up to {@code maxGpus} ({@code BORROWED}), then beyond it ({@code ON_DEMAND}) only
     * with burst. Segments break wherever the existing usage changes and at month starts (budgets are monthly).
     */
    List<Segment> split(List<Usage> existing, TimeWindow window, int gpus) {
        return split(UsageSteps.of(existing, window), window, gpus);
    }

    /** As {@link #split(List, TimeWindow, int)}, from the usage's steps over the window. */
    List<Segment> split(UsageSteps existing, TimeWindow window, int gpus) {
        TreeSet<Instant> cuts = new TreeSet<>(List.of(window.start(), window.end()));
        cuts.addAll(existing.breaks()
                .subMap(window.start(), false, window.end(), false)
                .keySet());
        YearMonth month =
                YearMonth.from(window.start().atOffset(ZoneOffset.UTC)).plusMonths(1);
        for (Instant start = monthStart(month);
                start.isBefore(window.end());
                month = month.plusMonths(1), start = monthStart(month)) {
            cuts.add(start);
        }
        windows.forEach(w -> w.edges(window.start(), window.end(), zone, cuts));
        List<Segment> segments = new ArrayList<>();
        int worstExcess = 0;
        int worstMax = maxGpus;
        Instant worstAt = window.start();
        Instant from = cuts.pollFirst();
        for (Instant to : cuts) {
            TimeWindow stretch = new TimeWindow(from, to);
            int used = existing.levelAt(from);
            int max = maxGpusAt(from);
            int reserved = Math.min(gpus, Math.max(0, guaranteedGpus - used));
            int borrowed = Math.min(gpus - reserved, Math.max(0, max - Math.max(used, guaranteedGpus)));
            int onDemand = gpus - reserved - borrowed;
            if (onDemand > 0 && !burst && used + gpus - max > worstExcess) {
                worstExcess = used + gpus - max;
                worstMax = max;
                worstAt = from;
            }
            segments.add(new Segment(stretch, reserved, borrowed, onDemand));
            from = to;
        }
        if (worstExcess > 0) {
            throw (QuotaExceededException) new QuotaExceededException(
                            "maxGpus",
                            "The team would hold " + (worstMax + worstExcess) + " " + gpuType + " GPUs at once (from "
                                    + UtcText.of(worstAt) + "), " + worstExcess + " more than the " + worstMax
                                    + " its quota allows" + (windows.isEmpty() ? "" : " then")
                                    + ", with no bursting beyond it")
                    .with("field", "gpus")
                    .with("gpuType", gpuType)
                    .with("allowed", worstMax)
                    .with("requested", worstMax + worstExcess)
                    .with("exceededBy", worstExcess)
                    .with("at", worstAt);
        }
        return segments;
    }

    /**
     * The most the tenant may hold at the instant: the largest {@code maxGpus} of the time windows holding it (read
     * in the policy's zone), or the policy's own {@code maxGpus} outside them.
     */
    public int maxGpusAt(Instant instant) {
        int max = -1;
        for (QuotaWindow w : windows) {
            if (w.maxGpus() > max && w.covers(instant, zone)) {
                max = w.maxGpus();
            }
        }
        return max < 0 ? maxGpus : max;
    }

    /** The part of the guarantee never lent to other tenants: held for this one even while unused. */
    public int heldBackGpus() {
        return guaranteedGpus - lendableGpus;
    }

    static Instant monthStart(YearMonth month) {
        return month.atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC);
    }
}
