package dev.allot.billing.ledger;

import dev.allot.quota.pricing.RateClass;
import java.util.Locale;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** A ledger account: what a tenant owes (receivable), revenue per class, and credits given (contra-revenue). */
public record Account(String code, Kind kind, @Nullable UUID tenantId) {

    enum Kind {
        RECEIVABLE,
        REVENUE,
        CONTRA_REVENUE
    }

    public static final Account OUTAGE_CREDITS = new Account("contra:outage-credits", Kind.CONTRA_REVENUE, null);

    public static final Account STORAGE = new Account("revenue:storage", Kind.REVENUE, null);

    public static final Account CANCELLATION_FEES = new Account("revenue:cancellation-fees", Kind.REVENUE, null);

    static Account receivable(UUID tenantId) {
        return new Account("receivable:" + tenantId, Kind.RECEIVABLE, tenantId);
    }

    public static Account revenue(RateClass rateClass) {
        return new Account(
                "revenue:" + rateClass.name().toLowerCase(Locale.ROOT).replace('_', '-'), Kind.REVENUE, null);
    }
}
