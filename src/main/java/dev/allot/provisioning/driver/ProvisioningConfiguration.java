package dev.allot.provisioning.driver;

import dev.allot.provisioning.driver.DriverProperties.DriverKind;
import dev.allot.provisioning.driver.DriverProperties.Pool;
import dev.allot.provisioning.driver.fake.FakeDriver;
import dev.allot.provisioning.driver.kubernetes.KubernetesDriver;
import dev.allot.provisioning.driver.slurm.SlurmDriver;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
public class ProvisioningConfiguration {

    private static final Logger log = LoggerFactory.getLogger(ProvisioningConfiguration.class);

    /** The driver of pools that name none; a bean so that fault tests can reach it. */
    @Bean
    FakeDriver fakeDriver() {
        return new FakeDriver(Duration.ZERO);
    }

    @Bean(destroyMethod = "close")
    ClusterDrivers clusterDrivers(
            DriverProperties properties, FakeDriver fakeDriver, ObjectProvider<MeterRegistry> meterRegistry) {
        MeterRegistry meters = meterRegistry.getIfAvailable(() -> Metrics.globalRegistry);
        Map<String, ClusterDriver> byPool = new LinkedHashMap<>();
        properties.pools().forEach((pool, config) -> {
            ClusterDriver driver = create(pool, config);
            if (driver != null) {
                byPool.put(pool, new TimeBoundedDriver(driver, properties.timeoutOf(pool), pool, meters));
                log.info("Pool {} is served by {}", pool, driver);
            }
        });
        ClusterDriver fallback = properties.defaultDriver() == DriverKind.FAKE
                ? new TimeBoundedDriver(fakeDriver, properties.timeout(), "default", meters)
                : null;
        return new ClusterDrivers(byPool, fallback);
    }

    @Bean
    DriverIsolationHealth clusterDriversHealthIndicator(ClusterDrivers drivers) {
        return new DriverIsolationHealth(drivers);
    }

    private static @Nullable ClusterDriver create(String pool, Pool config) {
        return switch (config.driver()) {
            case FAKE ->
                new FakeDriver(Objects.requireNonNull(config.fake(), "a fake pool has its settings")
                        .latency());
            case KUBERNETES ->
                KubernetesDriver.connect(pool, Objects.requireNonNull(config.kubernetes(), "its settings"));
            case SLURM -> SlurmDriver.create(pool, Objects.requireNonNull(config.slurm(), "its settings"));
            case NONE -> null;
        };
    }
}
