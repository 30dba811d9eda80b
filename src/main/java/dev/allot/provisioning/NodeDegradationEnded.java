package dev.allot.provisioning;

import java.time.Instant;
import java.util.UUID;

/** A degraded node of the reservation's cluster passed a check again, or was replaced, at {@code at}. */
public record NodeDegradationEnded(UUID reservationId, String hostname, Instant at, String how) {}
