package dev.allot.identity.throttle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.IntegrationTest;
import dev.allot.support.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * The API budget counted in memory and shared through PostgreSQL at each sync: each "replica" here is an
 * {@link ApiCallCounts} of its own on the same database, with a clock moved by hand (40 calls per 10 s).
 */
class ApiCallCountsTests extends IntegrationTest {

    private static final RateLimitProperties.Limit LIMIT = new RateLimitProperties.Limit(40, Duration.ofSeconds(10));

    /** 1 s into a window: windows are aligned to the epoch, 10 s long. */
    private final MutableClock clock = new MutableClock(Instant.parse("2031-03-04T05:06:01Z"));

    private ApiCallCounts replica() {
        return new ApiCallCounts(jdbc, LIMIT, Duration.ofSeconds(2), clock);
    }

    @Test
    void oneReplicaCountsExactlyAndWritesNothingUntilItSyncs() {
        ApiCallCounts counts = replica();
        String caller = unique("ci-bot");
        assertThat(calls(counts, caller, 40)).isEqualTo(40);
        Optional<Duration> refused = counts.tryAcquire(caller);
        assertThat(refused).as("the 41st call waits for the window's end").contains(Duration.ofSeconds(9));
        assertThat(stored(caller)).as("no call wrote its count").isNull();

        counts.sync();
        assertThat(stored(caller)).isEqualTo(40L);
        counts.sync();
        assertThat(stored(caller)).as("a sync sends only what is new").isEqualTo(40L);
        assertThat(counts.tryAcquire(caller)).isPresent();
    }

    @Test
    void aSecondReplicaStartsFromWhatTheFirstSharedAndEachSeesTheOthersCallsAtItsNextSync() {
        ApiCallCounts first = replica();
        ApiCallCounts second = replica();
        String caller = unique("ci-bot");
        assertThat(calls(first, caller, 30)).isEqualTo(30);
        first.sync();

        assertThat(calls(second, caller, 40))
                .as("the second replica's share of the window")
                .isEqualTo(10);
        second.sync();
        assertThat(stored(caller)).isEqualTo(40L);

        // the first learns of the second's ten at its sync
        first.sync();
        assertThat(first.tryAcquire(caller)).isPresent();
    }

    @Test
    void betweenSyncsACallerGetsPastTheCapacityByAtMostWhatTheOtherReplicaAnsweredMeanwhile() {
        ApiCallCounts first = replica();
        ApiCallCounts second = replica();
        String caller = unique("ci-bot");
        assertThat(calls(first, caller, 5)).isEqualTo(5);
        first.sync();
        // a burst on both at once, neither syncing: the second began from the first's 5
        assertThat(calls(first, caller, 50)).isEqualTo(35);
        assertThat(calls(second, caller, 50)).isEqualTo(35);
        first.sync();
        second.sync();
        assertThat(stored(caller))
                .as("40 + the 35 the second answered before it learned of the first's")
                .isEqualTo(75L);
        assertThat(first.tryAcquire(caller)).isPresent();
        assertThat(second.tryAcquire(caller)).isPresent();
    }

    @Test
    void theNextWindowStartsAfresh() {
        ApiCallCounts counts = replica();
        String caller = unique("ci-bot");
        assertThat(calls(counts, caller, 41)).isEqualTo(40);
        clock.advance(Duration.ofSeconds(9));
        assertThat(counts.tryAcquire(caller)).isEmpty();
        assertThat(calls(counts, caller, 40)).isEqualTo(39);
    }

    @Test
    void withTheDatabaseOutOfReachAReplicaStillLimitsByItsOwnCount() {
        DriverManagerDataSource nowhere =
                new DriverManagerDataSource("jdbc:postgresql://127.0.0.1:1/nowhere?connectTimeout=1", "nobody", "");
        ApiCallCounts counts = new ApiCallCounts(JdbcClient.create(nowhere), LIMIT, Duration.ofSeconds(2), clock);
        String caller = unique("ci-bot");
        assertThat(calls(counts, caller, 41)).isEqualTo(40);
        counts.sync();
        assertThat(counts.tryAcquire(caller))
                .as("a failed sync keeps the calls counted")
                .isPresent();
    }

    @Test
    void endedWindowsArePurgedAfterADay() {
        ApiCallCounts counts = replica();
        String caller = unique("ci-bot");
        calls(counts, caller, 3);
        counts.sync();
        clock.advance(Duration.ofDays(1).plusSeconds(10));
        counts.purgeEnded();
        assertThat(stored(caller)).isNull();
    }

    /** Tries {@code tries} calls; answers how many were let through. */
    private static int calls(ApiCallCounts counts, String caller, int tries) {
        int answered = 0;
        for (int i = 0; i < tries; i++) {
            if (counts.tryAcquire(caller).isEmpty()) {
                answered++;
            }
        }
        return answered;
    }

    private Long stored(String caller) {
        return jdbc.sql("SELECT sum(calls) FROM api_call_count WHERE caller = ?")
                .param(caller)
                .query(Long.class)
                .optional()
                .orElse(null);
    }
}
