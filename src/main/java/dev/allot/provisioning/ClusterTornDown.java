package dev.allot.provisioning;

import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A reservation's cluster is gone (window over, cancelled, or cleaned up after a failure): metering stops.
 *
 * @param readyAt when it had been handed over ({@code null}: it never was, so there is nothing to meter)
 * @param complete whether the driver confirmed that nothing is left; {@code false} when teardown gave up and an
 * admin must remove what remains
 */
public record ClusterTornDown(
        UUID reservationId,
        String tenant,
        String pool,
        @Nullable Instant readyAt,
        Instant tornDownAt,
        boolean complete) {}
