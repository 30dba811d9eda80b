package dev.allot.identity.throttle;

import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Every address and account that tries to sign in leaves a bucket and perhaps a failure count behind, and every API
 * caller a count per window; those that no longer limit anything are purged every ten minutes, by whichever replica db-scheduler picks.
 */
@Configuration(proxyBeanMethods = false)
class ThrottleHousekeeping {

    private static final Logger log = LoggerFactory.getLogger(ThrottleHousekeeping.class);

    @Bean
    RecurringTask<Void> purgeSpentThrottles(RateLimiter limiter, ApiCallCounts apiCalls, SignInFailures failures) {
        return Tasks.recurring("identity-purge-spent-throttles", FixedDelay.of(Duration.ofMinutes(10)))
                .execute((instance, context) -> {
                    int buckets = limiter.purgeRefilled() + apiCalls.purgeEnded();
                    int accounts = failures.purgeForgotten() + failures.purgeUnknown();
                    if (buckets + accounts > 0) {
                        log.info(
                                "Purged {} refilled rate-limit buckets or ended API call counts and {} forgotten sign-in "
                                        + "failure counts",
                                buckets,
                                accounts);
                    }
                });
    }
}
