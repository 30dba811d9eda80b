package dev.allot.quota;

import dev.allot.inventory.GpuType;
import dev.allot.inventory.Inventory;
import dev.allot.shared.AllotException;
import dev.allot.shared.TimeWindow;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.springframework.stereotype.Service;

/**
 * Guarantees as capacity: that the tenants' guarantees of a GPU type stay coverable by its healthy nodes, and what of
 * them is unused hour by hour (held back from borrowers, or headroom to keep). Runs in the caller's transaction.
 */
@Service
class GuaranteeCapacity {

    private final QuotaRepository repository;

    private final QuotaUsageRepository usageRepository;

    private final Inventory inventory;

    GuaranteeCapacity(QuotaRepository repository, QuotaUsageRepository usageRepository, Inventory inventory) {
        this.repository = repository;
        this.usageRepository = usageRepository;
        this.inventory = inventory;
    }

    /**
     * Guarantees are capacity: per GPU type, the tenants' guarantees may not add up to more than its healthy
     * capacity can cover, a dedicated pool counting only for its own tenants ({@link GuaranteeCover}). Checked for
     * each type whose guarantee grows, under a lock per GPU type (taken in code order, so two changes cannot
     * deadlock), so that two concurrent changes cannot both pass. Lowering a guarantee is always allowed, even while
     * capacity has dropped below the sum.
     */
    void requireWithinCapacity(String tenantSlug, UUID tenantId, List<QuotaPolicy> before, List<QuotaPolicy> after) {
        Map<String, Integer> old = new HashMap<>();
        before.forEach(policy -> old.put(policy.gpuType(), policy.guaranteedGpus()));
        List<QuotaPolicy> growing = after.stream()
                .filter(policy -> policy.guaranteedGpus() > old.getOrDefault(policy.gpuType(), 0))
                .sorted(Comparator.comparing(QuotaPolicy::gpuType))
                .toList();
        for (QuotaPolicy policy : growing) {
            GpuType type = gpuType(policy.gpuType());
            repository.lockGuarantees(type.id());
            List<Inventory.PoolCapacity> pools = inventory.healthyGpusByPool(type);
            Map<String, Integer> guarantees = repository.guaranteesByTenant(type.id(), tenantId);
            guarantees.put(tenantSlug, policy.guaranteedGpus());
            int sum = guarantees.values().stream().mapToInt(Integer::intValue).sum();
            int capacity = GuaranteeCover.coverable(guarantees, pools);
            if (sum > capacity) {
                boolean dedicated =
                        pools.stream().anyMatch(pool -> !pool.dedicatedTo().isEmpty());
                throw AllotException.unprocessable(
                                "guarantees_exceed_capacity",
                                "The guarantees of " + type.code() + " would add up to " + sum + " GPUs, "
                                        + (sum - capacity) + " more than its healthy capacity of " + capacity + " GPUs"
                                        + (dedicated
                                                ? " can cover (a dedicated pool counts only for its own tenants)"
                                                : ""))
                        .with("gpuType", type.code())
                        .with("capacity", capacity)
                        .with("guaranteed", sum)
                        .with("excess", sum - capacity);
            }
        }
    }

    /** The GPU types whose guarantees add up to more than their healthy capacity now: for the admin console. */
    List<Quotas.Overcommitted> overcommitted() {
        List<Quotas.Overcommitted> found = new ArrayList<>();
        repository.guaranteesByType().forEach((code, guaranteed) -> {
            int capacity = inventory.healthyGpus(gpuType(code));
            if (guaranteed > capacity) {
                found.add(new Quotas.Overcommitted(code, capacity, guaranteed));
            }
        });
        return found;
    }

    /**
     * Lending limits: per UTC hour of the window, the GPUs of the type that other tenants' guarantees hold back from
     * borrowers (what of {@code guaranteedGpus - lendableGpus} each does not use then, counted as the standing counts
     * it). Hours where nothing is held are absent. When some tenant holds some back, the GPU type's sharing lock is
     * taken first (the lock guarantee changes take), so that two borrowers of the type check one after the other.
     */
    Map<Instant, Integer> heldBackFromBorrowers(UUID borrower, GpuType type, TimeWindow window) {
        return unusedPerHour(repository.heldBack(type.id(), borrower), type, window);
    }

    /**
     * The guarantee headroom: per UTC hour of the window, the GPUs of the type that other tenants' guarantees do not
     * use then (counted as the standing counts it), which must stay coverable by free nodes and by the preemptible
     * holdings beyond their owners' guarantees. Hours where every guarantee is in use are absent. Takes the GPU type's
     * sharing lock when some other tenant has a guarantee, so that two bookings beyond their guarantees check one after
     * the other.
     */
    Map<Instant, Integer> unusedGuaranteesOfOthers(UUID tenantId, GpuType type, TimeWindow window) {
        return unusedPerHour(repository.guaranteesOfOthers(type.id(), tenantId), type, window);
    }

    /** Per hour, what the holders keep of their {@code heldBackGpus} and do not use (least use within the hour). */
    private Map<Instant, Integer> unusedPerHour(
            List<QuotaRepository.HeldBack> holders, GpuType type, TimeWindow window) {
        if (holders.isEmpty()) {
            return Map.of();
        }
        repository.lockGuarantees(type.id());
        Map<Instant, Integer> held = new TreeMap<>();
        for (QuotaRepository.HeldBack holder : holders) {
            UsageSteps usage = usageRepository.usage(holder.tenantId(), type.id(), window);
            for (Instant hour = UsageSteps.hourOf(window.start());
                    hour.isBefore(window.end());
                    hour = hour.plus(Duration.ofHours(1))) {
                Instant from = hour.isBefore(window.start()) ? window.start() : hour;
                Instant to = hour.plus(Duration.ofHours(1)).isBefore(window.end())
                        ? hour.plus(Duration.ofHours(1))
                        : window.end();
                int least = usage.levelAt(from);
                for (int level : usage.breaks().subMap(from, false, to, false).values()) {
                    least = Math.min(least, level);
                }
                int unused = holder.heldBackGpus() - Math.min(least, holder.guaranteedGpus());
                if (unused > 0) {
                    held.merge(hour, unused, Integer::sum);
                }
            }
        }
        return held;
    }

    private GpuType gpuType(String code) {
        return inventory.gpuType(code).orElseThrow(() -> AllotException.notFound("GPU type " + code));
    }
}
