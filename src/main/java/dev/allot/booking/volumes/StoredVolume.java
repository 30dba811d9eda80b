package dev.allot.booking.volumes;

import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A volume a reservation booked, as stored: where the driver made it and, for a monitored limit, how much it
 * holds. {@code status}: {@code BOOKED} (not made yet), {@code CREATED} (in the reservation), {@code RETAINED}
 * (outlived its reservation), {@code DELETING} (the tenant deleted it; the driver removes it), {@code DELETED}.
 */
public record StoredVolume(
        UUID id,
        UUID reservationId,
        UUID tenantId,
        String tenant,
        String pool,
        String gpuType,
        String name,
        int sizeGi,
        boolean retain,
        String status,
        @Nullable String location,
        @Nullable Instant createdAt,
        @Nullable Instant deletedAt,
        @Nullable Long usedBytes,
        @Nullable Instant measuredAt,
        @Nullable Instant overLimitSince) {

    public static final long GIB = 1L << 30;

    public long limitBytes() {
        return sizeGi * GIB;
    }

    public boolean overLimit() {
        return overLimitSince != null;
    }
}
