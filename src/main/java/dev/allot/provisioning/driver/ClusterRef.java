package dev.allot.provisioning.driver;

import dev.allot.shared.Slugs;
import java.util.Objects;
import java.util.UUID;

/**
 * Identifies a reservation's cluster on its pool. Every name an adapter creates derives from it, so that a
 * repeated call finds what an earlier one built.
 */
public record ClusterRef(UUID reservationId, String tenant) {

    public ClusterRef {
        Objects.requireNonNull(reservationId, "reservationId");
        if (tenant == null || !Slugs.isValid(tenant)) {
            throw new IllegalArgumentException("tenant " + Slugs.MESSAGE);
        }
    }

    /** {@code allot-<reservation id>}: a DNS label (42 characters) and a valid Slurm name. */
    public String name() {
        return "allot-" + reservationId;
    }
}
