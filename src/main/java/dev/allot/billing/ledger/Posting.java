package dev.allot.billing.ledger;

import java.time.YearMonth;
import java.util.List;
import java.util.UUID;

/**
 * A ledger transaction to post. {@code key} makes it exactly-once (a second posting with the same key is a
 * no-op); {@code month} is the statement month it belongs to, or the next open one if that has closed.
 */
public record Posting(UUID tenantId, Kind kind, String key, YearMonth month, String description, List<Charge> charges) {

    public enum Kind {
        USAGE,
        CANCELLATION_FEE,
        REVERSAL,
        STORAGE
    }

    public Posting {
        charges = List.copyOf(charges);
    }
}
