package dev.allot.provisioning.volumes;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code allot.provisioning.volumes}: upkeep of volumes.
 *
 * @param upkeepInterval how often volumes are measured (monitored limit) and deleted ones removed
 * @param measureBatch at most this many volumes measured per run, the longest unmeasured first
 */
@ConfigurationProperties("allot.provisioning.volumes")
public record VolumeProperties(Duration upkeepInterval, int measureBatch) {

    public VolumeProperties {
        upkeepInterval = upkeepInterval == null ? Duration.ofMinutes(15) : upkeepInterval;
        if (upkeepInterval.isNegative() || upkeepInterval.isZero()) {
            throw new IllegalArgumentException("allot.provisioning.volumes.upkeep-interval must be positive");
        }
        measureBatch = measureBatch <= 0 ? 200 : measureBatch;
    }
}
