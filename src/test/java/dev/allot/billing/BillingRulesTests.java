package dev.allot.billing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.billing.ledger.Charge;
import dev.allot.billing.ledger.Line;
import dev.allot.billing.metering.BillableReservation;
import dev.allot.billing.metering.Outage;
import dev.allot.billing.metering.PeriodCharges;
import dev.allot.billing.metering.Split;
import dev.allot.quota.pricing.RateCard;
import dev.allot.quota.pricing.RateClass;
import dev.allot.shared.TimeWindow;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/** The billing rules on their own: hours due, partial hours, rounding, credits, the cancellation fee. */
class BillingRulesTests {

    private static final Instant T0 = Instant.parse("2031-03-03T00:00:00Z");

    private static final RateCard CARD = new RateCard(
            "H100",
            LocalDate.of(2020, 1, 1),
            "USD",
            Map.of(
                    RateClass.RESERVED,
                    new BigDecimal("2.0000"),
                    RateClass.BORROWED,
                    new BigDecimal("1.5000"),
                    RateClass.ON_DEMAND,
                    new BigDecimal("4.0000")));

    private static BillableReservation reservation(Instant start, Instant end, BigDecimal booked) {
        return new BillableReservation(
                UUID.randomUUID(),
                UUID.randomUUID(),
                "t",
                "p",
                "pool",
                "H100",
                8,
                16,
                List.of("n1", "n2"),
                start,
                end,
                booked,
                "USD",
                null,
                null,
                null,
                null,
                BillableReservation.hourOf(start));
    }

    private static Instant at(int minutes) {
        return T0.plus(Duration.ofMinutes(minutes));
    }

    @Test
    void partialHoursAddUpToTheQuoteOfTheWholeStretchToTheLastDecimal() {
        // 16 reserved GPUs for 110 minutes at 2.00: the quote rounds once, to 58.6667
        BillableReservation r = reservation(at(20), at(130), BigDecimal.ZERO);
        List<Split> splits = List.of(new Split(new TimeWindow(at(20), at(130)), 16, 0, 0, BigDecimal.ZERO));
        BigDecimal billed = BigDecimal.ZERO;
        for (Instant hour : r.dueHours(at(200), false)) {
            for (Charge charge : PeriodCharges.of(r, splits, List.of(), CARD, hour)) {
                billed = billed.add(charge.amount());
            }
        }
        assertThat(billed)
                .isEqualByComparingTo(PeriodCharges.amount(new BigDecimal("2.00"), 16L * 110 * 60))
                .isEqualByComparingTo("58.6667");
    }

    @Test
    void anHourIsDueOnlyOnceItsBillablePartHasEnded() {
        BillableReservation r = reservation(at(20), at(130), BigDecimal.ZERO);
        assertThat(r.dueHours(at(59), false)).isEmpty();
        assertThat(r.dueHours(at(60), false)).containsExactly(T0);
        assertThat(r.dueHours(at(130), false)).containsExactly(T0, at(60), at(120));
        assertThat(r.dueHours(at(130), true)).as("waiting for the cluster").isEmpty();
    }

    @Test
    void creditsTakeTheDearestClassFirst() {
        BillableReservation r = reservation(T0, at(60), BigDecimal.ZERO);
        List<Split> splits = List.of(new Split(new TimeWindow(T0, at(60)), 4, 4, 8, BigDecimal.ZERO));
        List<Charge> charges = PeriodCharges.of(r, splits, List.of(new Outage("n1", at(30), null)), CARD, T0);

        assertThat(charges)
                .filteredOn(c -> c.line() == Line.CREDIT)
                .extracting(Charge::rateClass, Charge::gpuSeconds, Charge::amount)
                .containsExactly(Tuple.tuple(RateClass.ON_DEMAND, 8L * 30 * 60, new BigDecimal("-16.0000")));
    }

    @Test
    void aCancellationBeforeTheStartPaysTheConfiguredShareOnlyWithinTheFeeWindow() {
        BillableReservation r = reservation(at(24 * 60), at(30 * 60), new BigDecimal("192.0000"));
        BigDecimal quarter = new BigDecimal("0.25");
        Duration day = Duration.ofDays(1);

        assertThat(r.cancellationFee(at(0), BigDecimal.ZERO, day)).isZero();
        assertThat(r.cancellationFee(at(23 * 60), quarter, day)).isEqualByComparingTo("48.0000");
        assertThat(r.cancellationFee(at(0), quarter, day))
                .as("a whole day ahead is free")
                .isZero();
        assertThat(r.cancellationFee(at(25 * 60), quarter, day))
                .as("after the start time is metered")
                .isZero();
    }
}
