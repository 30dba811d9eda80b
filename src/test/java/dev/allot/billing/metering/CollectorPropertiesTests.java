package dev.allot.billing.metering;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** {@code allot.billing.collector.*} binds as docs/health.md shows it, with the defaults filled in. */
class CollectorPropertiesTests {

    @Test
    void anExporterNeedsOnlyItsUrlAndNoneAreConfiguredByDefault() {
        CollectorProperties bound = bind(Map.of(
                "allot.billing.collector.exporters.h100-us.url",
                "http://dcgm-exporter.gpu-operator:9400/metrics",
                "allot.billing.collector.exporters.a100-hpc.url",
                "https://dcgm.a100.example/metrics",
                "allot.billing.collector.exporters.a100-hpc.node-label",
                "node",
                "allot.billing.collector.max-size",
                "1MB"));

        assertThat(bound.every()).isEqualTo(Duration.ofMinutes(1));
        assertThat(bound.maxSize().toBytes()).isEqualTo(1024 * 1024);
        assertThat(bound.exporters().get("h100-us"))
                .isEqualTo(new CollectorProperties.Exporter(
                        "http://dcgm-exporter.gpu-operator:9400/metrics", "DCGM_FI_DEV_GPU_UTIL", "Hostname", "gpu"));
        assertThat(bound.exporters().get("a100-hpc").nodeLabel()).isEqualTo("node");
        assertThat(bind(Map.of("allot.billing.collector.every", "PT2M")).exporters())
                .isEmpty();
    }

    private static CollectorProperties bind(Map<String, String> properties) {
        return new Binder(new MapConfigurationPropertySource(properties))
                .bindOrCreate("allot.billing.collector", CollectorProperties.class);
    }
}
