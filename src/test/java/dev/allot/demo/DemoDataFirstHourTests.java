package dev.allot.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.IntegrationTest;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.bean.override.convention.TestBean;

/**
 * The demo seeded on a first start in a month's first hour, before the month that ended would close by itself
 * ({@code close-month-after}, six hours): the demo still shows that month's statement closed ({@link DemoDataTests}
 * checks the demo at whatever hour the suite runs). The application's clock runs from five minutes past the next
 * month's midnight (UTC), before the replay's daily metering at ten past.
 */
@IntegrationTest.OwnDatabase(
        value = "demo_first_hour",
        properties = {"allot.demo.enabled=true", "allot.demo.password=" + DemoDataTests.PASSWORD})
class DemoDataFirstHourTests extends IntegrationTest {

    /** Five minutes into the month after the real one, UTC. */
    static final Instant MONTH_STARTS =
            YearMonth.now(ZoneOffset.UTC).plusMonths(1).atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC);

    /** A demo clock, as the quick start installs (a bean put in by a test is not post-processed into one). */
    static final Clock FIRST_HOUR = new DemoClock(
            Clock.offset(Clock.systemUTC(), Duration.between(Instant.now(), MONTH_STARTS.plus(Duration.ofMinutes(5)))));

    @TestBean(name = "clock", methodName = "firstHour")
    Clock clock;

    static Clock firstHour() {
        return FIRST_HOUR;
    }

    @Autowired
    Clock applicationClock;

    @Autowired
    DemoData demo;

    @Test
    void theMonthThatEndedHasAClosedStatementEvenInTheNextMonthsFirstHour() {
        // the demo replayed its history and seeded as the context started, minutes ago on this clock
        assertThat(demo.seeding()).isPresent();
        assertThat(jdbc.sql("SELECT count(*) FROM reservation WHERE ends_at < ?")
                        .param(Timestamp.from(MONTH_STARTS.minus(Duration.ofDays(2))))
                        .query(Long.class)
                        .single())
                .as("past reservations")
                .isGreaterThanOrEqualTo(10);
        assertThat(Duration.between(MONTH_STARTS, applicationClock.instant()))
                .as("still the month's first hour")
                .isBetween(Duration.ZERO, Duration.ofHours(1));

        YearMonth current = YearMonth.from(MONTH_STARTS.atOffset(ZoneOffset.UTC));
        YearMonth last = current.minusMonths(1);
        DemoStatements.lastMonthClosedAndThisOneOpen(api, adminToken(), current);
        // the month's last hour was metered before it closed: its usage is on the closed statement
        Instant lastHour = MONTH_STARTS.minus(Duration.ofHours(1)).truncatedTo(ChronoUnit.HOURS);
        assertThat(jdbc.sql("SELECT count(*) FROM ledger_entry e JOIN ledger_transaction t ON t.id = e.transaction_id "
                                + "WHERE e.period_start = ? AND t.month = ? AND t.kind <> 'REVERSAL'")
                        .params(Timestamp.from(lastHour), last.atDay(1))
                        .query(Long.class)
                        .single())
                .as("usage of " + lastHour + " posted to " + last)
                .isGreaterThan(0);
    }
}
