package dev.allot.identity.throttle;

import java.time.Duration;
import java.util.Optional;

import javax.sql.DataSource;

import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.jdbc.PrimaryKeyMapper;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import io.github.bucket4j.postgresql.Bucket4jPostgreSQL;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Token buckets kept in PostgreSQL ({@code rate_limit_bucket}): each request locks its bucket's row, so
 * concurrent requests on any replica spend one shared budget and none is counted twice or lost.
 */
@Component
public class RateLimiter {

	private final ProxyManager<String> buckets;

	private final JdbcClient jdbc;

	RateLimiter(DataSource dataSource, JdbcClient jdbc) {
		this.jdbc = jdbc;
		this.buckets = Bucket4jPostgreSQL.selectForUpdateBasedBuilder(dataSource)
			.primaryKeyMapper(PrimaryKeyMapper.STRING)
			.table("rate_limit_bucket")
			.idColumn("id")
			.stateColumn("state")
			.expiresAtColumn("expires_at")
			.expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(Duration.ZERO))
			.build();
	}

	/**
	 * Spends one request of {@code key}'s budget under {@code limit}.
	 * @return empty when the request may go on, otherwise how long to wait before the next one is answered
	 */
	public Optional<Duration> tryAcquire(String name, RateLimitProperties.Limit limit, String key) {
		BucketConfiguration configuration = BucketConfiguration.builder()
			.addLimit(bandwidth -> bandwidth.capacity(limit.capacity())
				.refillIntervally(limit.capacity(), limit.period()))
			.build();
		ConsumptionProbe probe = buckets.builder()
			.build(name + ":" + limit.describe() + ":" + key, () -> configuration)
			.tryConsumeAndReturnRemaining(1);
		return probe.isConsumed() ? Optional.empty() : Optional.of(Duration.ofNanos(probe.getNanosToWaitForRefill()));
	}

	/** Drops the buckets that are full again (each address and account tried leaves one). */
	int purgeRefilled() {
		return jdbc.sql("DELETE FROM rate_limit_bucket WHERE expires_at < :now")
			.param("now", System.currentTimeMillis())
			.update();
	}

	/** Whole seconds for {@code Retry-After}, rounded up so a client that waits that long is answered. */
	public static long retryAfterSeconds(Duration wait) {
		return Math.max(1, (wait.toMillis() + 999) / 1000);
	}

}
