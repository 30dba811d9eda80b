package dev.allot.identity.tokens;

import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Every issued token leaves an authorization row behind (CI pipelines fetch many); rows whose every token
 * has expired are purged hourly, by whichever replica db-scheduler picks.
 */
@Configuration(proxyBeanMethods = false)
class ExpiredAuthorizations {

    private static final Logger log = LoggerFactory.getLogger(ExpiredAuthorizations.class);

    @Bean
    RecurringTask<Void> purgeExpiredAuthorizations(JdbcClient jdbc) {
        return Tasks.recurring("identity-purge-expired-authorizations", FixedDelay.of(Duration.ofHours(1)))
                .execute((instance, context) -> {
                    int purged = jdbc.sql("""
						DELETE FROM oauth2_authorization
						WHERE coalesce(access_token_expires_at, authorization_code_expires_at) < now() - interval '1 hour'
						  AND (refresh_token_expires_at IS NULL OR refresh_token_expires_at < now())
						""").update();
                    if (purged > 0) {
                        log.info("Purged {} expired authorizations", purged);
                    }
                });
    }
}
