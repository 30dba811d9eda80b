package dev.allot.billing.metering;

import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;
import dev.allot.billing.config.BillingProperties;
import dev.allot.billing.ledger.Ledger;
import java.time.Clock;
import java.time.Duration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Billing's recurring work, run by whichever replica db-scheduler picks; each run is safe to repeat. */
@Configuration(proxyBeanMethods = false)
class BillingTasks {

    @Bean
    RecurringTask<Void> meterUsage(Metering metering, BillingProperties properties, Clock clock) {
        return Tasks.recurring("billing-meter-usage", FixedDelay.of(properties.meterEvery()))
                .execute((instance, context) -> metering.meterDue(clock.instant()));
    }

    @Bean
    RecurringTask<Void> meterStorage(StorageMetering storage, Clock clock) {
        return Tasks.recurring("billing-meter-storage", FixedDelay.of(Duration.ofHours(1)))
                .execute((instance, context) -> storage.meterDue(clock.instant()));
    }

    @Bean
    RecurringTask<Void> purgeTelemetry(Telemetry telemetry, Clock clock) {
        return Tasks.recurring("billing-purge-telemetry", FixedDelay.of(Duration.ofHours(24)))
                .execute((instance, context) -> telemetry.purge(clock.instant()));
    }

    @Bean
    RecurringTask<Void> collectTelemetry(TelemetryCollector collector, CollectorProperties properties) {
        return Tasks.recurring("billing-collect-telemetry", FixedDelay.of(properties.every()))
                .execute((instance, context) -> collector.collect());
    }

    @Bean
    RecurringTask<Void> closeMonths(Ledger ledger) {
        return Tasks.recurring("billing-close-months", FixedDelay.of(Duration.ofHours(1)))
                .execute((instance, context) -> ledger.closeMonths());
    }
}
