package dev.allot.identity.throttle;

import java.time.Duration;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Failed sign-ins per account ({@code sign_in_failure}), and the growing delay they earn: a replica that never
 * saw the failures refuses the account just the same. Each change is one upsert, so concurrent failures all
 * count. Nothing sleeps: a refused attempt is answered at once with 429.
 */
@Component
class SignInFailures {

	private final JdbcClient jdbc;

	private final RateLimitProperties.Backoff backoff;

	SignInFailures(JdbcClient jdbc, RateLimitProperties properties) {
		this.jdbc = jdbc;
		this.backoff = properties.backoff();
	}

	/** How long the account is still refused, if it is. */
	Optional<Duration> refusedFor(SignInChannel channel, String principal) {
		return jdbc.sql("""
				SELECT (extract(epoch FROM refused_until - clock_timestamp()) * 1000)::bigint
				FROM sign_in_failure
				WHERE channel = :channel AND principal = :principal AND refused_until > clock_timestamp()
				""")
			.param("channel", channel.key())
			.param("principal", principal)
			.query(Long.class)
			.optional()
			.map(Duration::ofMillis);
	}

	/** Counts a failure; from the threshold on, refuses the account for a delay that doubles each time. */
	void failed(SignInChannel channel, String principal) {
		// failures after this one: the count goes on within the window, starts again at 1 after it
		String failures = "CASE WHEN f.window_start > clock_timestamp() - CAST(:window AS interval) THEN f.failures + 1 ELSE 1 END";
		jdbc.sql("""
				INSERT INTO sign_in_failure AS f (channel, principal, failures, window_start, refused_until)
				VALUES (:channel, :principal, 1, clock_timestamp(), CASE WHEN :threshold <= 1
				        THEN clock_timestamp() + make_interval(secs => 1) END)
				ON CONFLICT (channel, principal) DO UPDATE SET
				    failures = %1$s,
				    window_start = CASE WHEN f.window_start > clock_timestamp() - CAST(:window AS interval) THEN f.window_start
				                   ELSE clock_timestamp() END,
				    refused_until = CASE WHEN %1$s >= :threshold
				        THEN clock_timestamp() + make_interval(secs => least(:maxSeconds,
				            power(2, least(%1$s - :threshold, 30))))
				        END
				""".formatted(failures))
			.param("channel", channel.key())
			.param("principal", principal)
			.param("window", backoff.window().toSeconds() + " seconds")
			.param("threshold", backoff.threshold())
			.param("maxSeconds", (double) backoff.max().toSeconds())
			.update();
	}

	/** Forgets failures that no longer count: their window is over and no delay is running. */
	int purgeForgotten() {
		return jdbc.sql("""
				DELETE FROM sign_in_failure
				WHERE window_start < clock_timestamp() - CAST(:window AS interval)
				  AND (refused_until IS NULL OR refused_until < clock_timestamp())
				""")
			.param("window", backoff.window().toSeconds() + " seconds")
			.update();
	}

	/** A successful sign-in forgets the account's failures. */
	void succeeded(SignInChannel channel, String principal) {
		jdbc.sql("DELETE FROM sign_in_failure WHERE channel = :channel AND principal = :principal")
			.param("channel", channel.key())
			.param("principal", principal)
			.update();
	}

}
