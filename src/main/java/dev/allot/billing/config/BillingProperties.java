package dev.allot.billing.config;

import dev.allot.shared.InvalidInputException;
import java.math.BigDecimal;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code allot.billing.*}.
 *
 * @param meterEvery how often the metering task runs
 * @param settle how long after a period ends it is metered, so that events about it (a cancellation, a node
 * going out of service) have arrived first
 * @param awaitClusterReady when provisioning publishes {@code ClusterReady}: meter a reservation only once its
 * cluster is ready (or it failed or was cancelled), and bill from max(window start, ready)
 * @param cancellationFeeShare share (0 to 1) of the booked amount charged for a cancellation before the window
 * starts; 0, the default, makes such cancellations free
 * @param cancellationFeeWithin the fee applies only to cancellations made less than this long before the start
 * @param closeMonthAfter a month closes this long after it ends; later postings go to the next open month
 * @param webhookBackoff first retry delay of a failed webhook delivery (doubling after each failure)
 * @param webhookAttempts deliveries tried before a notification's webhook is given up
 * @param webhookTimeout time allowed to one delivery (connecting, TLS, sending and the answer's head together);
 * which addresses webhooks may reach is {@code allot.security.outbound}
 * @param idleThreshold GPU utilisation (percent) under which a GPU counts as idle
 * @param idleAfter how long all of a reservation's GPUs must stay idle before it is flagged
 * @param telemetryRetention how long GPU-utilisation samples are kept (a daily task purges older ones); the
 * Usage page's "used" GPU-hours can only be shown within it
 * @param telemetryClockSkew how far ahead of Allot's clock a sample may be stamped (the exporters' clocks drift);
 * a sample stamped later is refused
 */
@ConfigurationProperties("allot.billing")
public record BillingProperties(
        @DefaultValue("PT5M") Duration meterEvery,
        @DefaultValue("PT2M") Duration settle,
        @DefaultValue("true") boolean awaitClusterReady,
        @DefaultValue("0") BigDecimal cancellationFeeShare,
        @DefaultValue("P365D") Duration cancellationFeeWithin,
        @DefaultValue("PT6H") Duration closeMonthAfter,
        @DefaultValue("PT30S") Duration webhookBackoff,
        @DefaultValue("8") int webhookAttempts,
        @DefaultValue("PT10S") Duration webhookTimeout,
        @DefaultValue("5") BigDecimal idleThreshold,
        @DefaultValue("PT1H") Duration idleAfter,
        @DefaultValue("P90D") Duration telemetryRetention,
        @DefaultValue("PT30S") Duration telemetryClockSkew) {

    public BillingProperties {
        if (cancellationFeeShare.signum() < 0 || cancellationFeeShare.compareTo(BigDecimal.ONE) > 0) {
            throw InvalidInputException.of("allot.billing.cancellation-fee-share", "must be between 0 and 1");
        }
        if (telemetryRetention.compareTo(idleAfter) <= 0) {
            throw InvalidInputException.of("allot.billing.telemetry-retention", "must be longer than idle-after");
        }
        if (telemetryClockSkew.isNegative()) {
            throw InvalidInputException.of("allot.billing.telemetry-clock-skew", "must not be negative");
        }
        if (webhookAttempts < 1) {
            throw InvalidInputException.of("allot.billing.webhook-attempts", "must be 1 or more");
        }
    }
}
