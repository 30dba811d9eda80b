package dev.allot.provisioning.volumes;

import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The recurring volume upkeep, run by db-scheduler on one replica at a time. */
@Configuration(proxyBeanMethods = false)
class VolumeTasks {

    @Bean
    RecurringTask<Void> volumeUpkeepTask(VolumeUpkeep upkeep, VolumeProperties properties) {
        return Tasks.recurring("volume-upkeep", FixedDelay.of(properties.upkeepInterval()))
                .execute((instance, context) -> upkeep.run());
    }
}
