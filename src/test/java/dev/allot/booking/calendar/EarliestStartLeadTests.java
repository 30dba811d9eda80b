package dev.allot.booking.calendar;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.Api;
import dev.allot.support.FleetTest;
import dev.allot.support.MutableClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.bean.override.convention.TestBean;

/**
 * The earliest start offered is a whole minute at least {@link Capacity#BOOKING_LEAD} away, so that a client booking
 * it at once (the CLI without --start, a pipeline's curl) does not reach the server after it has begun. The clock is
 * the test's, so the question can be asked in a minute's last seconds every time.
 */
class EarliestStartLeadTests extends FleetTest {

    static final MutableClock CLOCK = new MutableClock(Instant.now()
            .plus(Duration.ofDays(5 * 366))
            .truncatedTo(ChronoUnit.DAYS)
            .plusSeconds(50));

    @TestBean(name = "clock", methodName = "testClock")
    Clock clock;

    static Clock testClock() {
        return CLOCK;
    }

    @Test
    void askedInAMinutesLastSecondsTheEarliestStartIsTheMinuteAfterTheNext() {
        String pool = newPool(newGpuType(), 8);
        addNodes(pool, 1, 1);
        CLOCK.set(CLOCK.instant()
                .truncatedTo(ChronoUnit.MINUTES)
                .plus(Duration.ofMinutes(1))
                .plusSeconds(50));
        Instant asked = CLOCK.instant();

        assertThat(firstStart(pool, null))
                .isEqualTo(asked.truncatedTo(ChronoUnit.MINUTES).plus(Duration.ofMinutes(2)));
        // and so for a start asked for that lies closer than the lead
        assertThat(firstStart(pool, asked.plusSeconds(5)))
                .isEqualTo(asked.truncatedTo(ChronoUnit.MINUTES).plus(Duration.ofMinutes(2)));
    }

    @Test
    void askedEarlyInAMinuteTheEarliestStartIsTheNextMinute() {
        String pool = newPool(newGpuType(), 8);
        addNodes(pool, 1, 1);
        CLOCK.set(CLOCK.instant()
                .truncatedTo(ChronoUnit.MINUTES)
                .plus(Duration.ofMinutes(1))
                .plusSeconds(10));
        Instant asked = CLOCK.instant();

        assertThat(firstStart(pool, null))
                .isEqualTo(asked.truncatedTo(ChronoUnit.MINUTES).plus(Duration.ofMinutes(1)));
    }

    private Instant firstStart(String pool, Instant after) {
        Api.Response earliest = api.get(
                "/api/v1/capacity/earliest?pool=" + pool + "&gpus=8&duration=PT1H"
                        + (after != null ? "&after=" + after : ""),
                adminToken());
        assertThat(earliest.status()).as(earliest.body()).isEqualTo(200);
        return Instant.parse(
                earliest.json().get("windows").get(0).get("startsAt").asString());
    }
}
