package dev.allot.tenancy;

import java.time.Instant;
import java.util.UUID;

/** A tenant's unit of accounting: bookings and usage are attributed to a project. */
public record Project(UUID id, String tenant, String slug, String displayName, Instant createdAt) {}
