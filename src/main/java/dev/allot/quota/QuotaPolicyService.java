package dev.allot.quota;

import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditRecord;
import dev.allot.inventory.Inventory;
import dev.allot.shared.AllotException;
import dev.allot.shared.ETags;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.security.Caller;
import dev.allot.tenancy.Tenancy;
import dev.allot.tenancy.Tenant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;

/**
 * A tenant's own quota: replacing its policies and storage quota (each GPU type's guarantees kept within capacity),
 * and refusing volumes past the storage quota. Runs in the caller's transaction.
 */
@Service
class QuotaPolicyService {

    private final QuotaRepository repository;

    private final GuaranteeCapacity guaranteeCapacity;

    private final Tenancy tenancy;

    private final Inventory inventory;

    private final AuditLog audit;

    QuotaPolicyService(
            QuotaRepository repository,
            GuaranteeCapacity guaranteeCapacity,
            Tenancy tenancy,
            Inventory inventory,
            AuditLog audit) {
        this.repository = repository;
        this.guaranteeCapacity = guaranteeCapacity;
        this.tenancy = tenancy;
        this.inventory = inventory;
        this.audit = audit;
    }

    /** Replaces the policies and the storage quota ({@code null}: unlimited). */
    Quotas.TenantQuota replace(
            Caller caller,
            String tenantSlug,
            List<QuotaPolicy> policies,
            @Nullable Integer storageGi,
            @Nullable String ifMatch) {
        Tenant tenant = tenancy.readable(caller, tenantSlug);
        if (storageGi != null && storageGi < 0) {
            throw InvalidInputException.of("storageGi", "must be 0 or more");
        }
        caller.requirePlatformAdmin();
        Map<String, UUID> ids = gpuTypeIds(policies);
        long version = repository.lockOrCreate(tenant.id());
        Quotas.TenantQuota before = new Quotas.TenantQuota(
                tenantSlug,
                repository.policies(tenant.id()),
                repository.storageGi(tenant.id()).orElse(null),
                version);
        if (!ETags.matches(ifMatch, before.etag())) {
            throw AllotException.preconditionFailed(
                    "The quota of " + tenantSlug + " has changed; its ETag is " + before.etag());
        }
        guaranteeCapacity.requireWithinCapacity(tenant.slug(), tenant.id(), before.policies(), policies);
        repository.replacePolicies(tenant.id(), policies, ids, version + 1);
        repository.setStorageGi(tenant.id(), storageGi);
        Quotas.TenantQuota after = new Quotas.TenantQuota(tenantSlug, List.copyOf(policies), storageGi, version + 1);
        audit.record(new AuditRecord(tenantSlug, "quota.updated", "quota", tenantSlug, before, after));
        return after;
    }

    /** Each policy's GPU type by code; 400 naming the first that is unknown or named twice. */
    Map<String, UUID> gpuTypeIds(List<QuotaPolicy> policies) {
        Map<String, UUID> ids = new HashMap<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < policies.size(); i++) {
            String code = policies.get(i).gpuType();
            if (!seen.add(code)) {
                throw InvalidInputException.of("policies[" + i + "].gpuType", "appears more than once");
            }
            int index = i;
            ids.put(
                    code,
                    inventory
                            .gpuType(code)
                            .orElseThrow(() ->
                                    InvalidInputException.of("policies[" + index + "].gpuType", "no such GPU type"))
                            .id());
        }
        return ids;
    }

    /** Refuses volumes that would take the tenant's storage over its {@code storageGi}. */
    void requireStorage(UUID tenantId, long heldGi, long requestedGi) {
        if (requestedGi == 0) {
            return;
        }
        Optional<Integer> limit = repository.storageGi(tenantId);
        if (limit.isPresent() && heldGi + requestedGi > limit.get()) {
            throw (QuotaExceededException) new QuotaExceededException(
                            "storageGi",
                            "The volumes would bring the tenant's storage to " + (heldGi + requestedGi) + " GiB ("
                                    + heldGi + " GiB held by other volumes then); the quota allows " + limit.get()
                                    + " GiB")
                    .with("field", "cluster.volumes")
                    .with("allowed", limit.get())
                    .with("held", heldGi)
                    .with("requested", requestedGi)
                    .with("exceededBy", heldGi + requestedGi - limit.get());
        }
    }
}
