package dev.allot.quota.ui;

import dev.allot.inventory.GpuType;
import dev.allot.inventory.Inventory;
import dev.allot.quota.QuotaPolicy;
import dev.allot.quota.Quotas;
import dev.allot.quota.pricing.RateCard;
import dev.allot.shared.AllotException;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * What the admin's quota pages show of a tenant's GPU type: its standing against a policy (saved or proposed), read
 * from the priced usage, and the currency of its rate card. Each read in its own transaction, as the pages ask them.
 */
@Component
class QuotaStandingLookup {

    private final Quotas quotas;

    private final Inventory inventory;

    private final QuotaUsageReads usage;

    QuotaStandingLookup(Quotas quotas, Inventory inventory, QuotaUsageReads usage) {
        this.quotas = quotas;
        this.inventory = inventory;
        this.usage = usage;
    }

    QuotaStanding standing(UUID tenantId, String gpuTypeCode, @Nullable QuotaPolicy policy, Instant now) {
        GpuType type = gpuType(gpuTypeCode);
        return QuotaStanding.of(
                policy, usage.bookedFrom(tenantId, type.id(), now), usage.spendFrom(tenantId, type.id(), now), now);
    }

    String currency(String gpuType) {
        List<RateCard> cards = quotas.rateCards(gpuType);
        return cards.isEmpty() ? "" : cards.getLast().currency();
    }

    GpuType gpuType(@Nullable String code) {
        return inventory
                .gpuType(code == null ? "" : code.strip())
                .orElseThrow(() -> AllotException.notFound("GPU type " + code));
    }
}
