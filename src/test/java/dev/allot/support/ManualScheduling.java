package dev.allot.support;

import com.github.kagkarlsson.scheduler.boot.config.DbSchedulerStarter;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * In tests db-scheduler's poller never starts, so that no scheduled work runs behind a test's back (its tasks
 * still schedule, into the shared database). Tests that exercise scheduled work run the due executions themselves
 * with db-scheduler's {@code ManualScheduler} and a clock they set (see {@code LifecycleTest}).
 */
@Configuration(proxyBeanMethods = false)
public class ManualScheduling {

	@Bean
	DbSchedulerStarter dbSchedulerStarter() {
		return () -> {
		};
	}

}
