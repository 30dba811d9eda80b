package dev.allot.provisioning.driver;

import dev.allot.booking.spec.ClusterSpec.Orchestrator;
import dev.allot.booking.spec.PoolOrchestrators;
import dev.allot.provisioning.driver.DriverProperties.DriverKind;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.stereotype.Component;

/**
 * Answers booking's {@link PoolOrchestrators} from {@code allot.provisioning.pools}: a Kubernetes pool builds
 * Kubernetes clusters, a Slurm pool Slurm clusters, a {@code fake} pool (the embedded default) simulates either,
 * and a pool with driver {@code none} (or unlisted while the default driver is {@code none}) builds nothing.
 */
@Component
class DriverOrchestrators implements PoolOrchestrators {

    private final DriverProperties properties;

    DriverOrchestrators(DriverProperties properties) {
        this.properties = properties;
    }

    @Override
    public Set<Orchestrator> offeredBy(String pool) {
        DriverProperties.Pool config = properties.pools().get(pool);
        return of(config == null ? properties.defaultDriver() : config.driver());
    }

    @Override
    public List<String> configuredFor(Orchestrator orchestrator) {
        return properties.pools().entrySet().stream()
                .filter(pool -> of(pool.getValue().driver()).contains(orchestrator))
                .map(Map.Entry::getKey)
                .sorted()
                .toList();
    }

    @Override
    public Set<Orchestrator> byDefault() {
        return of(properties.defaultDriver());
    }

    static Set<Orchestrator> of(DriverKind driver) {
        return switch (driver) {
            case KUBERNETES -> EnumSet.of(Orchestrator.KUBERNETES);
            case SLURM -> EnumSet.of(Orchestrator.SLURM);
            case FAKE -> EnumSet.allOf(Orchestrator.class);
            case NONE -> EnumSet.noneOf(Orchestrator.class);
        };
    }
}
