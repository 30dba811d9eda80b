package dev.allot.billing.metering;

import dev.allot.billing.ledger.Account;
import dev.allot.billing.ledger.Charge;
import dev.allot.billing.ledger.Line;
import dev.allot.quota.pricing.RateCard;
import dev.allot.quota.pricing.RateClass;
import dev.allot.shared.TimeWindow;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * What one hour of a reservation costs: GPU time per rate class as split at booking, priced with the one rate
 * card in effect for that hour (cards change at midnight UTC, so an hour never mixes two prices), and a credit
 * for the GPUs of nodes out of service.
 *
 * <p>Amounts keep four decimals. Each hour's amount is the difference of the rounded cumulative amounts of its
 * stretch at the hour's end and start, so the hours of a reservation that ran as booked add up to exactly the
 * quote (which rounds each stretch once), however the partial hours fall.
 *
 * <p>Credited GPUs are taken from the dearest class first (ON_DEMAND, BORROWED, then RESERVED): which of a
 * reservation's GPUs belong to which class is a split of counts, not of nodes, and the doubt goes to the tenant.
 */
public final class PeriodCharges {

    private static final Duration HOUR = Duration.ofHours(1);

    private static final List<RateClass> DEAREST_FIRST =
            List.of(RateClass.ON_DEMAND, RateClass.BORROWED, RateClass.RESERVED);

    private PeriodCharges() {}

    /** The billed part of the hour, or null when the reservation was not billable in it. */
    static @Nullable TimeWindow billed(BillableReservation r, Instant hour) {
        TimeWindow life = r.billable();
        if (life == null) {
            return null;
        }
        Instant from = later(hour, life.start());
        Instant to = earlier(hour.plus(HOUR), life.end());
        return to.isAfter(from) ? new TimeWindow(from, to) : null;
    }

    public static List<Charge> of(
            BillableReservation r, List<Split> splits, List<Outage> outages, RateCard card, Instant hour) {
        TimeWindow billed = billed(r, hour);
        if (billed == null) {
            return List.of();
        }
        Instant cardStart = card.effectiveFrom().atStartOfDay().toInstant(ZoneOffset.UTC);
        Map<RateClass, Long> usedSeconds = new EnumMap<>(RateClass.class);
        Map<RateClass, BigDecimal> usedAmount = new EnumMap<>(RateClass.class);
        Map<RateClass, Long> creditedSeconds = new EnumMap<>(RateClass.class);
        for (Split split : splits) {
            if (!split.during().overlaps(billed)) {
                continue;
            }
            Instant from = later(split.during().start(), billed.start());
            Instant to = earlier(split.during().end(), billed.end());
            Instant runStart = later(later(split.during().start(), r.billableFrom()), cardStart);
            for (RateClass rateClass : RateClass.values()) {
                int gpus = split.gpus(rateClass);
                if (gpus == 0) {
                    continue;
                }
                BigDecimal price = card.price(rateClass);
                usedSeconds.merge(rateClass, gpus * seconds(from, to), Long::sum);
                usedAmount.merge(
                        rateClass,
                        amount(price, gpus * seconds(runStart, to))
                                .subtract(amount(price, gpus * seconds(runStart, from))),
                        BigDecimal::add);
            }
            credit(r, split, new TimeWindow(from, to), outages, creditedSeconds);
        }
        return lines(r, card, hour, usedSeconds, usedAmount, creditedSeconds);
    }

    /** The hour's ledger lines: per rate class, its usage, then its outage credit (each when there is some). */
    private static List<Charge> lines(
            BillableReservation r,
            RateCard card,
            Instant hour,
            Map<RateClass, Long> usedSeconds,
            Map<RateClass, BigDecimal> usedAmount,
            Map<RateClass, Long> creditedSeconds) {
        List<Charge> charges = new ArrayList<>();
        for (RateClass rateClass : RateClass.values()) {
            BigDecimal price = card.price(rateClass);
            long used = usedSeconds.getOrDefault(rateClass, 0L);
            if (used > 0) {
                charges.add(charge(
                        r,
                        Line.USAGE,
                        Account.revenue(rateClass),
                        card,
                        Objects.requireNonNull(usedAmount.get(rateClass), "used seconds come with their amount"),
                        rateClass,
                        hour,
                        used,
                        price));
            }
            long credited = creditedSeconds.getOrDefault(rateClass, 0L);
            if (credited > 0) {
                charges.add(charge(
                        r,
                        Line.CREDIT,
                        Account.OUTAGE_CREDITS,
                        card,
                        amount(price, credited).negate(),
                        rateClass,
                        hour,
                        credited,
                        price));
            }
        }
        return charges;
    }

    /** Adds the GPU-seconds of the reservation's nodes out of service during {@code stretch}, by class. */
    private static void credit(
            BillableReservation r,
            Split split,
            TimeWindow stretch,
            List<Outage> outages,
            Map<RateClass, Long> credited) {
        TreeSet<Instant> cuts = new TreeSet<>(List.of(stretch.start(), stretch.end()));
        for (Outage outage : outages) {
            if (stretch.contains(outage.from())) {
                cuts.add(outage.from());
            }
            if (outage.to() != null && stretch.contains(outage.to())) {
                cuts.add(outage.to());
            }
        }
        Instant from = cuts.pollFirst();
        for (Instant to : cuts) {
            Instant at = from;
            long nodesOut = outages.stream()
                    .filter(o -> o.concerns(r))
                    .filter(o -> !o.from().isAfter(at) && (o.to() == null || o.to().isAfter(at)))
                    .map(Outage::hostname)
                    .distinct()
                    .count();
            int out =
                    (int) Math.min(split.reserved() + split.borrowed() + split.onDemand(), nodesOut * r.gpusPerNode());
            for (RateClass rateClass : DEAREST_FIRST) {
                int taken = Math.min(out, split.gpus(rateClass));
                if (taken > 0) {
                    credited.merge(rateClass, taken * seconds(from, to), Long::sum);
                }
                out -= taken;
            }
            from = to;
        }
    }

    private static Charge charge(
            BillableReservation r,
            Line line,
            Account counter,
            RateCard card,
            BigDecimal amount,
            RateClass rateClass,
            Instant hour,
            long gpuSeconds,
            BigDecimal price) {
        return new Charge(
                line,
                counter,
                card.currency(),
                amount,
                r.reservationId(),
                r.project(),
                r.gpuType(),
                rateClass,
                hour,
                gpuSeconds,
                price);
    }

    public static BigDecimal amount(BigDecimal pricePerGpuHour, long gpuSeconds) {
        return pricePerGpuHour
                .multiply(BigDecimal.valueOf(gpuSeconds))
                .divide(BigDecimal.valueOf(3600), RateCard.SCALE, RoundingMode.HALF_EVEN);
    }

    private static long seconds(Instant from, Instant to) {
        return to.isAfter(from) ? Duration.between(from, to).toSeconds() : 0;
    }

    private static Instant later(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    private static Instant earlier(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }
}
