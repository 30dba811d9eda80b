package dev.allot.identity.throttle;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code allot.security.rate-limits}: how many sign-ins and API calls are answered before a caller is told to
 * wait (429 with {@code Retry-After}). Every limit is a window of {@code capacity} requests per {@code period},
 * counted in PostgreSQL, so all replicas share one budget: exactly for sign-ins, and within one {@code apiSync} for
 * API calls.
 *
 * @param tokenPerClient client authentications ({@code /oauth2/token}) per client id
 * @param tokenPerAddress client authentications per source address
 * @param loginPerUsername login form posts per username
 * @param loginPerAddress login form posts per source address
 * @param apiPerCaller {@code /api/**} calls per authenticated caller (client id or user); the whole capacity
 * may be spent in a burst
 * @param apiSync how often each replica shares its count of {@code /api/**} calls with the others (default 2 s); the
 * API budget is counted in memory between ({@link ApiCallCounts})
 * @param backoff the growing delay after repeated failures of one account
 */
@ConfigurationProperties("allot.security.rate-limits")
public record RateLimitProperties(
        Limit tokenPerClient,
        Limit tokenPerAddress,
        Limit loginPerUsername,
        Limit loginPerAddress,
        Limit apiPerCaller,
        Duration apiSync,
        Backoff backoff) {

    public RateLimitProperties {
        tokenPerClient = tokenPerClient != null ? tokenPerClient : new Limit(10, Duration.ofMinutes(1));
        tokenPerAddress = tokenPerAddress != null ? tokenPerAddress : new Limit(30, Duration.ofMinutes(1));
        loginPerUsername = loginPerUsername != null ? loginPerUsername : new Limit(10, Duration.ofMinutes(1));
        loginPerAddress = loginPerAddress != null ? loginPerAddress : new Limit(30, Duration.ofMinutes(1));
        apiPerCaller = apiPerCaller != null ? apiPerCaller : new Limit(600, Duration.ofMinutes(1));
        apiSync = apiSync != null ? apiSync : Duration.ofSeconds(2);
        if (apiSync.isNegative() || apiSync.isZero()) {
            throw new IllegalStateException("allot.security.rate-limits.api-sync must be positive, not " + apiSync);
        }
        backoff = backoff != null ? backoff : new Backoff(5, Duration.ofMinutes(15), Duration.ofMinutes(15), 0);
    }

    /** At most {@code capacity} requests per {@code period}; the budget comes back whole at the period's end. */
    public record Limit(int capacity, Duration period) {

        public Limit {
            if (period == null) {
                period = Duration.ofMinutes(1);
            }
            if (capacity < 1 || period.isNegative() || period.isZero()) {
                throw new IllegalStateException(
                        "A rate limit needs a capacity of at least 1 and a positive period, not " + capacity + " per "
                                + period);
            }
        }

        /** Names the bucket, so a changed limit starts a fresh bucket instead of keeping the stored one. */
        String describe() {
            return capacity + "/" + period;
        }
    }

    /**
     * After {@code threshold} failures within {@code window} from one source address, each further attempt on that
     * account from that address is refused for 2^(failures - threshold) seconds, at most {@code max}; a successful
     * sign-in from the address clears its count. After {@code accountThreshold} failures from any addresses (default
     * four times {@code threshold}), the account is refused the same way from every address but those it signed in
     * from successfully before (known good): a stranger slows down guessing without locking its owner out.
     */
    public record Backoff(int threshold, Duration window, Duration max, int accountThreshold) {

        public Backoff {
            if (threshold == 0) {
                threshold = 5;
            }
            if (threshold < 1) {
                throw new IllegalStateException("allot.security.rate-limits.backoff.threshold must be at least 1");
            }
            if (accountThreshold == 0) {
                accountThreshold = threshold * 4;
            }
            if (accountThreshold < threshold) {
                throw new IllegalStateException(
                        "allot.security.rate-limits.backoff.account-threshold must be at least " + "the threshold");
            }
            if (window == null) {
                window = Duration.ofMinutes(15);
            }
            if (max == null) {
                max = Duration.ofMinutes(15);
            }
        }
    }
}
