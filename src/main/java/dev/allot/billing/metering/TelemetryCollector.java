package dev.allot.billing.metering;

import dev.allot.shared.outbound.OutboundHttp;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Scrapes each pool's DCGM exporter (Prometheus text) and stores its GPU-utilisation readings as samples,
 * through the same checks as the API: a reading that the API would refuse is dropped and counted, the rest
 * are kept. One exporter failing (unreachable, slow, too large, not 2xx) is logged and tried again the next
 * round; the others go on.
 */
@Component
public class TelemetryCollector {

    /** What one scrape of one pool's exporter gave. */
    public record Outcome(
            String pool,
            int stored,
            int badLines,
            int refused,
            @Nullable String error) {}

    private static final Logger log = LoggerFactory.getLogger(TelemetryCollector.class);

    private final OutboundHttp http;

    private final Telemetry telemetry;

    private final CollectorProperties properties;

    private final Clock clock;

    TelemetryCollector(OutboundHttp http, Telemetry telemetry, CollectorProperties properties, Clock clock) {
        this.http = http;
        this.telemetry = telemetry;
        this.properties = properties;
        this.clock = clock;
    }

    /** One round over the configured exporters. */
    public List<Outcome> collect() {
        return collect(properties.exporters());
    }

    /** One round over these exporters, by pool. */
    public List<Outcome> collect(Map<String, CollectorProperties.Exporter> exporters) {
        List<Outcome> outcomes = new ArrayList<>();
        exporters.forEach((pool, exporter) -> {
            Outcome outcome;
            try {
                outcome = scrape(pool, exporter);
            } catch (RuntimeException ex) {
                outcome = new Outcome(pool, 0, 0, 0, ex.toString());
            }
            if (outcome.error() != null) {
                log.warn(
                        "GPU telemetry of pool {} not collected from {}: {} (tried again next round)",
                        pool,
                        exporter.url(),
                        outcome.error());
            } else {
                log.debug(
                        "GPU telemetry of pool {}: {} samples stored, {} refused, {} bad lines",
                        pool,
                        outcome.stored(),
                        outcome.refused(),
                        outcome.badLines());
            }
            outcomes.add(outcome);
        });
        return outcomes;
    }

    private Outcome scrape(String pool, CollectorProperties.Exporter exporter) {
        Instant at = clock.instant();
        OutboundHttp.Fetched fetched = http.get(
                exporter.url(),
                properties.timeout(),
                (int) properties.maxSize().toBytes(),
                "GPU telemetry of pool " + pool);
        if (!fetched.response().successful()) {
            return new Outcome(pool, 0, 0, 0, fetched.response().error());
        }
        PrometheusText.Parsed parsed =
                PrometheusText.parse(new String(fetched.body(), StandardCharsets.UTF_8), exporter.metric());
        int bad = parsed.badLines();
        List<GpuSample> samples = new ArrayList<>();
        for (PrometheusText.Series s : parsed.series()) {
            String node = s.labels().get(exporter.nodeLabel());
            Integer gpu = index(s.labels().get(exporter.gpuLabel()));
            if (node == null || gpu == null || !Double.isFinite(s.value())) {
                bad++;
                continue;
            }
            samples.add(new GpuSample(
                    node,
                    gpu,
                    BigDecimal.valueOf(s.value()),
                    s.timestampMillis() == null ? at : Instant.ofEpochMilli(s.timestampMillis())));
        }
        Telemetry.Collected collected = telemetry.collect(pool, samples);
        return new Outcome(pool, collected.stored(), bad, collected.refused(), null);
    }

    private static @Nullable Integer index(@Nullable String label) {
        if (label == null || !label.matches("^[0-9]{1,3}$")) {
            return null;
        }
        return Integer.valueOf(label);
    }
}
