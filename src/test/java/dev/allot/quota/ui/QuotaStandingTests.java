package dev.allot.quota.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.quota.Priority;
import dev.allot.quota.QuotaPolicy;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class QuotaStandingTests {

    private static final Instant NOW = Instant.parse("2027-01-10T12:00:00Z");

    private final QuotaUsageReads.Booked running = booked("2027-01-10T00:00:00Z", "2027-01-11T00:00:00Z", 16);

    private final QuotaUsageReads.Booked overlapping = booked("2027-01-10T18:00:00Z", "2027-01-12T00:00:00Z", 16);

    private final QuotaUsageReads.Booked later = booked("2027-02-20T00:00:00Z", "2027-02-21T00:00:00Z", 8);

    private final List<QuotaUsageReads.Booked> all = List.of(running, overlapping, later);

    @Test
    void countsWhatIsHeldNowAndThePeakAhead() {
        QuotaStanding standing = QuotaStanding.of(
                policy(32, false, Duration.ofDays(30), null),
                all,
                Map.of(YearMonth.of(2027, 1), new BigDecimal("100.00")),
                NOW);
        assertThat(standing.gpusNow()).isEqualTo(16);
        assertThat(standing.peakGpus()).isEqualTo(32);
        assertThat(standing.peakAt()).isEqualTo(Instant.parse("2027-01-10T18:00:00Z"));
        assertThat(standing.spentThisMonth()).isEqualByComparingTo("100");
        assertThat(standing.findings()).isEmpty();
    }

    @Test
    void aLowerMaximumNamesTheReservationsHeldAboveIt() {
        QuotaStanding standing = QuotaStanding.of(policy(24, false, Duration.ofDays(30), null), all, Map.of(), NOW);
        assertThat(standing.findings()).singleElement().satisfies(finding -> {
            assertThat(finding.limit()).isEqualTo("maxGpus");
            assertThat(finding.message()).contains("32 GPUs, 8 more than the maximum of 24");
            assertThat(finding.reservations()).containsExactly(running, overlapping);
        });
    }

    @Test
    void burstLeavesNothingAboveTheMaximum() {
        assertThat(QuotaStanding.of(policy(8, true, Duration.ofDays(30), null), all, Map.of(), NOW)
                        .findings())
                .isEmpty();
    }

    @Test
    void windowAdvanceAndBudgetLimitsNameTheirReservations() {
        QuotaStanding standing = QuotaStanding.of(
                policy(64, false, Duration.ofHours(29), new BigDecimal("50")),
                all,
                Map.of(YearMonth.of(2027, 2), new BigDecimal("80")),
                NOW);
        assertThat(standing.findings())
                .extracting(QuotaStanding.Finding::limit)
                .containsExactly("maxWindow", "maxAdvance", "monthlyBudget");
        assertThat(standing.findings().get(0).reservations()).containsExactly(overlapping);
        assertThat(standing.findings().get(1).reservations()).containsExactly(later);
        assertThat(standing.findings().get(2).reservations()).containsExactly(later);
    }

    @Test
    void withoutAPolicyEveryReservationAheadIsAffected() {
        assertThat(QuotaStanding.of(null, all, Map.of(), NOW).findings())
                .singleElement()
                .satisfies(finding -> assertThat(finding.reservations()).hasSize(3));
    }

    private static QuotaPolicy policy(int max, boolean burst, Duration maxWindow, BigDecimal budget) {
        Duration maxAdvance = budget == null ? Duration.ofDays(60) : Duration.ofDays(30);
        return new QuotaPolicy("H100", 0, max, burst, maxWindow, maxAdvance, budget, Priority.TRAINING);
    }

    private static QuotaUsageReads.Booked booked(String start, String end, int gpus) {
        return new QuotaUsageReads.Booked(UUID.randomUUID(), Instant.parse(start), Instant.parse(end), gpus);
    }
}
