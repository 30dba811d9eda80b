package dev.allot.quota;

import dev.allot.quota.pricing.RateCard;
import dev.allot.quota.pricing.RateClass;
import dev.allot.shared.TimeWindow;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** A segment priced with the rate card of its booking; stored with the reservation so later changes reprice it alike. */
record PricedSegment(Segment segment, RateCard card) {

    static List<PricedSegment> price(List<Segment> segments, RateCard card) {
        return segments.stream()
                .map(segment -> new PricedSegment(segment, card))
                .toList();
    }

    BigDecimal amount(RateClass rateClass) {
        return card.amount(rateClass, segment.gpuMinutes(rateClass));
    }

    Map<RateClass, BigDecimal> amounts() {
        Map<RateClass, BigDecimal> amounts = new EnumMap<>(RateClass.class);
        for (RateClass rateClass : RateClass.values()) {
            amounts.put(rateClass, amount(rateClass));
        }
        return amounts;
    }

    BigDecimal total() {
        return amounts().values().stream().reduce(BigDecimal.ZERO, BigDecimal::add);
    }

    YearMonth month() {
        return YearMonth.from(segment.during().start().atOffset(ZoneOffset.UTC));
    }

    /** This segment cut short at {@code end}, which lies inside it. */
    PricedSegment endingAt(Instant end) {
        Segment s = segment;
        return new PricedSegment(
                new Segment(new TimeWindow(s.during().start(), end), s.reserved(), s.borrowed(), s.onDemand()), card);
    }
}
