package dev.allot.identity.throttle;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.jdbc.PrimaryKeyMapper;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import io.github.bucket4j.postgresql.Bucket4jPostgreSQL;
import java.time.Duration;
import java.util.Optional;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Token buckets kept in PostgreSQL ({@code rate_limit_bucket}): each request locks its bucket's row, so
 * concurrent requests on any replica spend one shared budget and none is counted twice or lost.
 * <p>
 * Buckets are written on a few connections of their own with {@code synchronous_commit = off}: every sign-in and
 * token request spends from a bucket, and none should wait for a disk flush for it (the {@code /api} budget is not
 * kept here but counted in memory: {@link ApiCallCounts}; docs/adr/0004-rate-limits.md). What a crash of the
 * database may forget is the last fraction of a second of spending, which lets a few more requests through once; a
 * booking's own commit, made later on the main pool, still waits for the flush of everything before it.
 */
@Component
public class RateLimiter implements DisposableBean {

    private final ProxyManager<String> buckets;

    private final JdbcClient jdbc;

    private final @Nullable HikariDataSource own;

    RateLimiter(DataSource dataSource, JdbcClient jdbc) {
        this.jdbc = jdbc;
        this.own = dataSource instanceof HikariDataSource main && main.getJdbcUrl() != null ? bucketPool(main) : null;
        this.buckets = Bucket4jPostgreSQL.selectForUpdateBasedBuilder(own != null ? own : dataSource)
                .primaryKeyMapper(PrimaryKeyMapper.STRING)
                .table("rate_limit_bucket")
                .idColumn("id")
                .stateColumn("state")
                .expiresAtColumn("expires_at")
                .expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(Duration.ZERO))
                .build();
    }

    private static HikariDataSource bucketPool(HikariDataSource main) {
        HikariConfig config = new HikariConfig();
        config.setPoolName("rate-limit-buckets");
        config.setJdbcUrl(main.getJdbcUrl());
        config.setUsername(main.getUsername());
        config.setPassword(main.getPassword());
        config.setDataSourceProperties(main.getDataSourceProperties());
        config.setMaximumPoolSize(4);
        config.setMinimumIdle(1);
        config.setConnectionInitSql("SET synchronous_commit = off");
        return new HikariDataSource(config);
    }

    @Override
    public void destroy() {
        if (own != null) {
            own.close();
        }
    }

    /**
     * Spends one request of {@code key}'s budget under {@code limit}.
     * @return empty when the request may go on, otherwise how long to wait before the next one is answered
     */
    public Optional<Duration> tryAcquire(String name, RateLimitProperties.Limit limit, String key) {
        BucketConfiguration configuration = BucketConfiguration.builder()
                .addLimit(bandwidth ->
                        bandwidth.capacity(limit.capacity()).refillIntervally(limit.capacity(), limit.period()))
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
