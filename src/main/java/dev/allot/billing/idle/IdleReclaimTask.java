package dev.allot.billing.idle;

import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;
import java.time.Clock;
import java.time.Duration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** A pass of {@link IdleReclaimer} every minute, on whichever replica db-scheduler picks. */
@Configuration(proxyBeanMethods = false)
class IdleReclaimTask {

    @Bean
    RecurringTask<Void> reclaimIdle(IdleReclaimer reclaimer, Clock clock) {
        return Tasks.recurring("billing-idle-reclaim", FixedDelay.of(Duration.ofMinutes(1)))
                .execute((instance, context) -> reclaimer.run(clock.instant()));
    }
}
