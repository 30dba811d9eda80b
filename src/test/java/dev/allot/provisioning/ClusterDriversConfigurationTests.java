package dev.allot.provisioning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.allot.provisioning.driver.ClusterBlueprint;
import dev.allot.provisioning.driver.ClusterDriver;
import dev.allot.provisioning.driver.ClusterDrivers;
import dev.allot.provisioning.driver.DriverFailedException;
import dev.allot.provisioning.driver.DriverProperties;
import dev.allot.provisioning.driver.DriverTimeoutException;
import dev.allot.provisioning.driver.ProvisioningConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

class ClusterDriversConfigurationTests {

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(DriverProperties.class)
    @Import(ProvisioningConfiguration.class)
    static class Drivers {}

    private final ApplicationContextRunner context =
            new ApplicationContextRunner().withUserConfiguration(Drivers.class);

    @Test
    void withNothingConfiguredEveryPoolGetsTheFakeDriver() {
        context.run(app -> assertThat(
                        app.getBean(ClusterDrivers.class).forPool("h100-east").toString())
                .isEqualTo("fake driver (timeout PT2M)"));
    }

    @Test
    void eachPoolGetsItsConfiguredDriverAndTimeout(@TempDir Path dir) throws IOException {
        Path kubeconfig = dir.resolve("a100.kubeconfig");
        Files.writeString(kubeconfig, """
				apiVersion: v1
				kind: Config
				clusters: [{name: a100, cluster: {server: "https://10.0.0.1:6443"}}]
				users: [{name: allot, user: {token: "s3cr3t-token"}}]
				contexts: [{name: a100, context: {cluster: a100, user: allot}}]
				current-context: a100
				""");
        context.withPropertyValues(
                        "allot.provisioning.pools.h100.driver=slurm",
                        "allot.provisioning.pools.h100.timeout=5m",
                        "allot.provisioning.pools.h100.slurm.command-prefix=ssh,-o,BatchMode=yes,slurm-ctl",
                        "allot.provisioning.pools.h100.slurm.slurm-conf=/etc/slurm/slurm.conf",
                        "allot.provisioning.pools.a100.driver=kubernetes",
                        "allot.provisioning.pools.a100.kubernetes.kubeconfig=" + kubeconfig)
                .run(app -> {
                    ClusterDrivers drivers = app.getBean(ClusterDrivers.class);
                    assertThat(drivers.forPool("h100").toString())
                            .isEqualTo(
                                    "slurm driver (ssh -o BatchMode=yes slurm-ctl /etc/slurm/slurm.conf) (timeout PT5M)");
                    assertThat(drivers.forPool("a100").toString())
                            .isEqualTo("kubernetes driver (https://10.0.0.1:6443/) (timeout PT2M)");
                    assertThat(app.getBean(DriverProperties.class).toString()).doesNotContain("s3cr3t");
                });
    }

    @Test
    void aPoolWithoutADriverIsRefusedWhenTheDefaultIsNone() {
        context.withPropertyValues("allot.provisioning.default-driver=none").run(app -> {
            assertThatThrownBy(() -> app.getBean(ClusterDrivers.class).forPool("h100"))
                    .isInstanceOf(DriverFailedException.class)
                    .hasMessageContaining("No cluster driver is configured for pool h100");
        });
    }

    @Test
    void everyOperationIsMeasuredPerPoolAndOutcome() {
        context.withBean(SimpleMeterRegistry.class)
                .withPropertyValues("allot.provisioning.pools.demo.driver=fake")
                .run(app -> {
                    ClusterDriver demo = app.getBean(ClusterDrivers.class).forPool("demo");
                    ClusterBlueprint spec = Specs.kubernetes(List.of("n1"));
                    demo.provision(spec);
                    demo.teardown(spec.ref());
                    MeterRegistry meters = app.getBean(MeterRegistry.class);
                    assertThat(meters.get("allot.driver.operations")
                                    .tags("pool", "demo", "operation", "provision", "outcome", "success")
                                    .timer()
                                    .count())
                            .isEqualTo(1);
                    assertThat(meters.get("allot.driver.operations")
                                    .tags("operation", "teardown")
                                    .timer()
                                    .count())
                            .isEqualTo(1);
                });
    }

    @Test
    void aSlowPoolIsCutOffAtItsTimeout() {
        context.withPropertyValues(
                        "allot.provisioning.pools.demo.driver=fake",
                        "allot.provisioning.pools.demo.fake.latency=10s",
                        "allot.provisioning.pools.demo.timeout=100ms")
                .run(app -> assertThatThrownBy(() -> app.getBean(ClusterDrivers.class)
                                .forPool("demo")
                                .provision(Specs.kubernetes(List.of("n1"))))
                        .isInstanceOf(DriverTimeoutException.class));
    }

    @Test
    void invalidConfigurationStopsTheStart() {
        context.withPropertyValues("allot.provisioning.pools.Bad_Pool.driver=fake")
                .run(app -> assertThat(app).hasFailed());
        context.withPropertyValues("allot.provisioning.pools.h100.timeout=5m")
                .run(app -> assertThat(app).hasFailed());
        context.withPropertyValues("allot.provisioning.timeout=0s")
                .run(app -> assertThat(app).hasFailed());
    }
}
