package dev.allot.audit;

import org.jspecify.annotations.Nullable;

/** One change to record; {@code before} and {@code after} are serialized as JSON. */
public record AuditRecord(
        @Nullable String tenant,
        String action,
        String objectType,
        String objectId,
        @Nullable Object before,
        @Nullable Object after) {

    public static AuditRecord created(@Nullable String tenant, String objectType, String objectId, Object after) {
        return new AuditRecord(tenant, objectType + ".created", objectType, objectId, null, after);
    }

    public static AuditRecord changed(
            @Nullable String tenant, String objectType, String objectId, Object before, Object after) {
        return new AuditRecord(tenant, objectType + ".updated", objectType, objectId, before, after);
    }
}
