package dev.allot.billing.metering;

import dev.allot.shared.InvalidInputException;
import java.time.Duration;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * {@code allot.billing.collector.*}: the GPU-utilisation collector, which scrapes a DCGM exporter per pool.
 *
 * @param every how often every exporter is scraped (one replica scrapes each round)
 * @param timeout time allowed to one scrape (connecting, sending and reading the whole answer)
 * @param maxSize an answer longer than this (counted on the bytes read) is dropped
 * @param exporters per pool: the exporter's URL and how to read it. The URL is checked by
 * {@code allot.security.outbound} like any outbound URL: an exporter inside the cluster network must be listed in
 * {@code allowed-hosts} (and {@code allow-http} set for a plain http endpoint)
 */
@ConfigurationProperties("allot.billing.collector")
public record CollectorProperties(
        @DefaultValue("PT1M") Duration every,
        @DefaultValue("PT10S") Duration timeout,
        @DefaultValue("8MB") DataSize maxSize,
        @DefaultValue Map<String, Exporter> exporters) {

    /**
     * One pool's exporter.
     *
     * @param url its Prometheus text endpoint ({@code http://dcgm-exporter.gpu:9400/metrics})
     * @param metric the utilisation metric, in percent
     * @param nodeLabel the label naming the node (its hostname in Allot)
     * @param gpuLabel the label giving the GPU index
     */
    public record Exporter(
            String url,
            @DefaultValue("DCGM_FI_DEV_GPU_UTIL") String metric,
            @DefaultValue("Hostname") String nodeLabel,
            @DefaultValue("gpu") String gpuLabel) {

        public Exporter {
            if (url == null || url.isBlank()) {
                throw InvalidInputException.of("allot.billing.collector.exporters.*.url", "is required");
            }
        }
    }

    public CollectorProperties {
        if (maxSize.toBytes() < 1 || maxSize.toBytes() > Integer.MAX_VALUE) {
            throw InvalidInputException.of("allot.billing.collector.max-size", "must be from 1 byte to 2 GB");
        }
        if (every.isNegative() || every.isZero()) {
            throw InvalidInputException.of("allot.billing.collector.every", "must be positive");
        }
    }
}
