package dev.allot;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The depth of the persisted work queue (db-scheduler): tasks due and not yet picked, and tasks failing in a
 * row. Read from PostgreSQL at scrape time, so every replica reports the same cluster-wide figure.
 */
@Component
class SchedulerMetrics implements SmartInitializingSingleton {

    private final MeterRegistry registry;

    private final JdbcClient jdbc;

    SchedulerMetrics(MeterRegistry registry, JdbcClient jdbc) {
        this.registry = registry;
        this.jdbc = jdbc;
    }

    @Override
    public void afterSingletonsInstantiated() {
        Gauge.builder("allot.scheduler.due", () -> count("NOT picked AND execution_time <= now()"))
                .description("Scheduled tasks due and not picked up yet")
                .register(registry);
        Gauge.builder("allot.scheduler.failing", () -> count("consecutive_failures > 0"))
                .description("Scheduled tasks whose last run failed")
                .register(registry);
    }

    private long count(String condition) {
        return jdbc.sql("SELECT count(*) FROM scheduled_tasks WHERE " + condition)
                .query(Long.class)
                .single();
    }
}
