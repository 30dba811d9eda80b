package dev.allot.audit;

import dev.allot.shared.InvalidInputException;
import dev.allot.shared.ListQuery;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** Filters of the audit trail; every one optional. */
public record AuditQuery(
        @Nullable String tenant,
        @Nullable String actor,
        @Nullable Instant from,
        @Nullable Instant to,
        ListQuery page) {

    public AuditQuery {
        if (from != null && to != null && !to.isAfter(from)) {
            throw InvalidInputException.of("to", "must be after from");
        }
    }
}
