package dev.allot.booking.ui;

import dev.allot.booking.Bookings;
import dev.allot.booking.calendar.Capacity;
import dev.allot.quota.QuotaDecision;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What the live quote shows: whether the request fits, its price split by rate class and the budget left, or
 * why it does not fit and the earliest windows that do. {@code problems} are reasons a quote cannot be made yet.
 * {@code victims}: how many reservations of other teams it would preempt to fit. {@code verdict} says whether it
 * fits, and when it fits only by reclaiming, whose reservations it takes; {@code preemptionRule}, when reclaiming
 * concerns this booking (it reclaims, or it may be reclaimed), the rule.
 */
record QuoteView(
        boolean fits,
        int victims,
        String verdict,
        @Nullable String preemptionRule,
        @Nullable QuotaDecision decision,
        List<String> reasons,
        @Nullable String limit,
        List<Capacity.Fit> suggestions,
        List<String> problems) {

    static QuoteView incomplete(List<String> problems) {
        return new QuoteView(false, 0, "", null, null, List.of(), null, List.of(), List.copyOf(problems));
    }

    static QuoteView of(Bookings.Quote quote, @Nullable String driver, List<Capacity.Fit> suggestions) {
        List<String> reasons = new ArrayList<>();
        int victims = quote.reclaim().victims();
        String notice = notice(quote.reclaim().notice());
        String within = span(quote.reclaim().notice());
        if (quote.freeNodes() < quote.neededNodes() && !quote.fits()) {
            reasons.add(
                    "Only " + quote.freeNodes() + " of the " + quote.neededNodes() + " nodes needed are free for the "
                            + "whole window" + (driver == null ? "" : " with CUDA driver " + driver) + ".");
        }
        String limit = null;
        if (quote.refusal() != null) {
            limit = quote.refusal().limit();
            reasons.add("Your quota refuses it: " + quote.refusal().getMessage() + ".");
        }
        if (quote.heldBack() != null) {
            reasons.add(quote.heldBack().getMessage() + ".");
        }
        String verdict = !quote.fits()
                ? "✖ It does not fit."
                : victims == 0
                        ? "✔ It fits."
                        : victims == 1
                                ? "✔ It fits by reclaiming 1 preemptible reservation of another team; it gets " + notice
                                        + "."
                                : "✔ It fits by reclaiming " + victims
                                        + " preemptible reservations of other teams; they get " + notice + ".";
        String rule = null;
        if (quote.fits() && victims > 0) {
            rule = "A booking within your team's guarantee takes back what other teams borrowed when too few nodes are "
                    + "free: their preemptible reservations end, those losing the fewest GPU-hours first. One that runs, "
                    + "or starts within " + within + ", keeps its nodes for " + notice + ".";
        } else if (quote.decision() != null && quote.decision().preemptible()) {
            rule = "Part of it is borrowed, so the whole reservation may be preempted: when a team that lends to you "
                    + "books within its guarantee and too few nodes are free, it takes its GPUs back. If this reservation "
                    + "runs then, it keeps its nodes for " + notice + ". Book the guaranteed part separately to keep "
                    + "it safe.";
        }
        return new QuoteView(
                quote.fits(),
                quote.fits() ? victims : 0,
                verdict,
                rule,
                quote.decision(),
                List.copyOf(reasons),
                limit,
                quote.fits() ? List.of() : List.copyOf(suggestions),
                List.of());
    }

    /** "30 minutes' notice", "1 hour's notice": how long a preempted reservation keeps its nodes, in words. */
    static String notice(Duration notice) {
        String span = span(notice);
        return span + (span.startsWith("1 ") ? "'s" : "'") + " notice";
    }

    /** "30 minutes", "1 hour", "2 hours". */
    static String span(Duration span) {
        long minutes = span.toMinutes();
        if (minutes >= 60 && minutes % 60 == 0) {
            return minutes == 60 ? "1 hour" : minutes / 60 + " hours";
        }
        return minutes == 1 ? "1 minute" : minutes + " minutes";
    }

    /** Whether it fits only by preempting other teams' reservations: said as a warning, not as plain good news. */
    public boolean reclaims() {
        return victims > 0;
    }

    public boolean complete() {
        return problems.isEmpty();
    }
}
