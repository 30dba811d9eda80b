package dev.allot.demo;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.boot.config.DbSchedulerStarter;
import com.github.kagkarlsson.scheduler.boot.config.startup.ContextReadyStart;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Where the demo is seeded, db-scheduler's poller starts once the application context has refreshed, after the
 * demo has replayed its history ({@link DemoData} seeds as the context starts, before the web server takes
 * requests), instead of as soon as its bean is made: the replay runs the past's tasks itself, on its own clock, and
 * a poller going by the real clock would take them for dead.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnExpression(DemoData.ENABLED)
@ConditionalOnProperty(name = "db-scheduler.enabled", havingValue = "true", matchIfMissing = true)
class DemoSchedulerStart {

    @Bean
    DbSchedulerStarter dbSchedulerStarter(Scheduler scheduler) {
        return new ContextReadyStart(scheduler);
    }
}
