package dev.allot.provisioning;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.provisioning.driver.ClusterDriver;
import dev.allot.provisioning.driver.ClusterDrivers;
import dev.allot.provisioning.driver.DriverIsolationHealth;
import dev.allot.provisioning.driver.DriverProperties.SlurmPool;
import dev.allot.provisioning.driver.TimeBoundedDriver;
import dev.allot.provisioning.driver.fake.FakeDriver;
import dev.allot.provisioning.driver.slurm.SlurmDriver;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/** The controller's configuration is stood in for by a command prefix that prints it, whatever is asked. */
class DriverIsolationHealthTests {

    @Test
    void aSlurmPoolWhoseControllerLeaksIsReportedNotIsolatedWithTheReasons() {
        Health health = healthOf(Map.of(
                "leaky",
                slurmPrinting("PrivateData = jobs,usage\\nEnforcePartLimits = NO"),
                "tight",
                slurmPrinting("PrivateData = accounts,jobs,reservations,usage,users\\nEnforcePartLimits = ALL"),
                "demo",
                new FakeDriver(Duration.ZERO)));

        assertThat(health.getStatus()).isEqualTo(DriverIsolationHealth.NOT_ISOLATED);
        @SuppressWarnings("unchecked")
        Map<String, List<String>> pools =
                (Map<String, List<String>>) health.getDetails().get("slurmPools");
        assertThat(pools).containsOnlyKeys("leaky", "tight");
        assertThat(pools.get("tight")).isEmpty();
        assertThat(pools.get("leaky"))
                .containsExactlyInAnyOrder(
                        "PrivateData does not hide users: tenants see each other's users",
                        "PrivateData does not hide accounts: tenants see each other's accounts",
                        "PrivateData does not hide reservations: tenants see each other's reservations",
                        "EnforcePartLimits is NO: jobs of other accounts are accepted into tenant partitions");
    }

    @Test
    void isolatedSlurmPoolsAreUp() {
        Health health = healthOf(Map.of(
                "tight",
                slurmPrinting("PrivateData = accounts,jobs,reservations,usage,users\\nEnforcePartLimits = ANY")));

        assertThat(health.getStatus()).isEqualTo(Status.UP);
    }

    @Test
    void anUnreachableControllerIsUnknown() {
        SlurmDriver unreachable = SlurmDriver.create(
                "down",
                new SlurmPool(
                        List.of("bash", "-c", "echo 'Unable to contact slurm controller' >&2; exit 1", "x"),
                        null,
                        "login",
                        ZoneOffset.UTC,
                        Duration.ofSeconds(5)));

        assertThat(healthOf(Map.of("down", unreachable)).getStatus()).isEqualTo(Status.UNKNOWN);
    }

    private static Health healthOf(Map<String, ClusterDriver> drivers) {
        Map<String, ClusterDriver> bounded = new HashMap<>();
        drivers.forEach((pool, driver) -> bounded.put(pool, new TimeBoundedDriver(driver, Duration.ofSeconds(10))));
        return new DriverIsolationHealth(new ClusterDrivers(bounded, null)).health();
    }

    private static SlurmDriver slurmPrinting(String config) {
        return SlurmDriver.create(
                "x",
                new SlurmPool(
                        List.of("bash", "-c", "printf '" + config + "\\n'", "x"),
                        null,
                        "login",
                        ZoneOffset.UTC,
                        Duration.ofSeconds(5)));
    }
}
