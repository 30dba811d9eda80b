package dev.allot.identity.throttle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.IntegrationTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

class ThrottleHousekeepingTests extends IntegrationTest {

    @Autowired
    private RateLimiter limiter;

    @Autowired
    private SignInFailures failures;

    @Test
    void refilledBucketsArePurgedAndBucketsStillSpendingAreKept() {
        String refilled = unique("test-bucket");
        String spending = unique("test-bucket");
        long now = System.currentTimeMillis();
        jdbc.sql("INSERT INTO rate_limit_bucket (id, state, expires_at) VALUES (?, null, ?), (?, null, ?)")
                .params(refilled, now - 1000, spending, now + 60_000)
                .update();

        limiter.purgeRefilled();

        assertThat(jdbc.sql("SELECT id FROM rate_limit_bucket WHERE id IN (?, ?)")
                        .params(refilled, spending)
                        .query(String.class)
                        .list())
                .containsExactly(spending);
    }

    @Test
    void failuresArePurgedOnceTheirWindowIsOverAndNoDelayRuns() {
        String forgotten = unique("old");
        String stillRefused = unique("refused");
        String recent = unique("recent");
        jdbc.sql("""
				INSERT INTO sign_in_failure (channel, principal, failures, window_start, refused_until) VALUES
				    ('user', ?, 3, now() - interval '16 minutes', null),
				    ('user', ?, 20, now() - interval '16 minutes', now() + interval '10 minutes'),
				    ('user', ?, 2, now() - interval '1 minute', null)
				""").params(forgotten, stillRefused, recent).update();

        failures.purgeForgotten();

        assertThat(jdbc.sql("SELECT principal FROM sign_in_failure WHERE principal IN (?, ?, ?) ORDER BY principal")
                        .params(forgotten, stillRefused, recent)
                        .query(String.class)
                        .list())
                .containsExactly(recent, stillRefused);
    }
}
