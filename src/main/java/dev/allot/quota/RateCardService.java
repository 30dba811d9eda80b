package dev.allot.quota;

import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditRecord;
import dev.allot.inventory.GpuType;
import dev.allot.inventory.Inventory;
import dev.allot.quota.pricing.RateCard;
import dev.allot.shared.AllotException;
import dev.allot.shared.security.Caller;
import java.util.List;
import org.springframework.stereotype.Service;

/** Rate cards per GPU type: read by anyone, changed by a platform admin (audited). Runs in the caller's transaction. */
@Service
class RateCardService {

    private final RateCardRepository repository;

    private final Inventory inventory;

    private final AuditLog audit;

    RateCardService(RateCardRepository repository, Inventory inventory, AuditLog audit) {
        this.repository = repository;
        this.inventory = inventory;
        this.audit = audit;
    }

    List<RateCard> rateCards(String gpuTypeCode) {
        GpuType type = gpuType(gpuTypeCode);
        return repository.rateCards(type.id(), type.code());
    }

    List<RateCard> putRateCard(Caller caller, RateCard card) {
        caller.requirePlatformAdmin();
        GpuType type = gpuType(card.gpuType());
        repository.upsert(type.id(), card);
        audit.record(AuditRecord.changed(null, "rate-card", type.code() + "@" + card.effectiveFrom(), card, card));
        return repository.rateCards(type.id(), type.code());
    }

    private GpuType gpuType(String code) {
        return inventory.gpuType(code).orElseThrow(() -> AllotException.notFound("GPU type " + code));
    }
}
