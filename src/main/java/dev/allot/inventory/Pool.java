package dev.allot.inventory;

import dev.allot.shared.security.Caller;
import java.util.List;
import java.util.UUID;

/**
 * Nodes of one GPU type in one region, booked as whole nodes of {@code gpusPerNode} GPUs; {@code spareNodes} of
 * its healthy free nodes are held out of bookable capacity as hot spares for replacements. A pool
 * {@code dedicatedTo} some tenants (their slugs) is theirs alone: no other tenant sees or books it; empty, every
 * tenant shares it.
 */
public record Pool(
        UUID id,
        String name,
        GpuType gpuType,
        int gpusPerNode,
        String region,
        int spareNodes,
        List<String> dedicatedTo) {

    public Pool {
        dedicatedTo = List.copyOf(dedicatedTo);
    }

    /** Whether the tenant may see and book it. */
    public boolean openTo(String tenant) {
        return dedicatedTo.isEmpty() || dedicatedTo.contains(tenant);
    }

    /** Whether the caller may see it: those who read everything, and members of a tenant it is open to. */
    public boolean visibleTo(Caller caller) {
        return dedicatedTo.isEmpty()
                || caller.readsEverything()
                || dedicatedTo.stream().anyMatch(caller::canReadSomeOf);
    }

    /** The same pool with other spare nodes or tenants. */
    public Pool with(int spareNodes, List<String> dedicatedTo) {
        return new Pool(id, name, gpuType, gpusPerNode, region, spareNodes, dedicatedTo);
    }

    /** The version of what can change (its spare count and tenants), for {@code ETag} and {@code If-Match}. */
    public String etag() {
        return "\"spares-" + spareNodes
                + (dedicatedTo.isEmpty() ? "" : "-" + Integer.toHexString(dedicatedTo.hashCode())) + "\"";
    }
}
