package dev.allot.booking.events;

import java.util.UUID;

/** The tenant deleted a retained volume: it no longer counts or costs; provisioning removes what the driver made. */
public record RetainedVolumeDeleted(UUID volumeId, UUID reservationId, String tenant, String pool, String name) {}
