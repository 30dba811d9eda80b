package dev.allot.provisioning;

import java.time.Instant;
import java.util.UUID;

/**
 * A node of a reservation's serving cluster failed a health check or reported a fault, at {@code since}: the
 * tenant is not charged for it from then until {@link NodeDegradationEnded} (replaced, or healthy again).
 */
public record NodeDegraded(UUID reservationId, String tenant, String hostname, Instant since, String reason) {}
