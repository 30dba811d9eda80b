package dev.allot.provisioning.driver;

import java.util.List;
import java.util.Map;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * {@code /actuator/health/clusterDrivers}: whether each Slurm pool's controller keeps tenants apart. A leaking
 * pool shows as {@code NOT_ISOLATED} with the reasons; that status ranks below {@code UP}, so it informs
 * admins without failing the application's probes. An unreachable controller is {@code UNKNOWN}, checked again
 * on the next call.
 */
public class DriverIsolationHealth implements HealthIndicator {

    public static final Status NOT_ISOLATED =
            new Status("NOT_ISOLATED", "A pool's controller lets tenants see each other");

    private final ClusterDrivers drivers;

    public DriverIsolationHealth(ClusterDrivers drivers) {
        this.drivers = drivers;
    }

    @Override
    public Health health() {
        Map<String, List<String>> problems;
        try {
            problems = drivers.isolationProblems();
        } catch (ClusterDriverException ex) {
            return Health.unknown().withDetail("error", ex.getMessage()).build();
        }
        boolean isolated = problems.values().stream().allMatch(List::isEmpty);
        return Health.status(isolated ? Status.UP : NOT_ISOLATED)
                .withDetail("slurmPools", problems)
                .build();
    }
}
