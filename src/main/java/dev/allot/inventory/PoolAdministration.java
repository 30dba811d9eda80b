package dev.allot.inventory;

import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditRecord;
import dev.allot.inventory.events.PoolSparesChanged;
import dev.allot.shared.AllotException;
import dev.allot.shared.ETags;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.InvalidInputException.FieldError;
import dev.allot.shared.KnownTenants;
import dev.allot.shared.security.Caller;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;

/**
 * What a platform admin sets on a pool besides its nodes: whom it is dedicated to and how many hot spares it holds.
 * Called by {@link Inventory} within its transaction, under the pool's row lock.
 */
@Service
class PoolAdministration {

    private final InventoryRepository repository;

    private final AuditLog audit;

    private final ApplicationEventPublisher events;

    private final ObjectProvider<NodeCommitments> commitments;

    private final Clock clock;

    private final KnownTenants tenants;

    PoolAdministration(
            InventoryRepository repository,
            AuditLog audit,
            ApplicationEventPublisher events,
            ObjectProvider<NodeCommitments> commitments,
            Clock clock,
            KnownTenants tenants) {
        this.repository = repository;
        this.audit = audit;
        this.events = events;
        this.commitments = commitments;
        this.clock = clock;
        this.tenants = tenants;
    }

    /**
     * Dedicates the pool to these tenants (none: shares it with all). Never strands a booking: the live
     * reservations of tenants it no longer names keep their nodes to their end, and are named in the answer and the
     * audit row; the pool takes no new bookings of theirs.
     */
    Inventory.Dedicated dedicate(Caller caller, String name, List<String> tenants, @Nullable String ifMatch) {
        caller.requirePlatformAdmin();
        Pool before = repository.poolForUpdate(name).orElseThrow(() -> AllotException.notFound("Pool " + name));
        if (!ETags.matches(ifMatch, before.etag())) {
            throw AllotException.preconditionFailed("Pool " + name + " has changed; its ETag is " + before.etag());
        }
        List<String> dedicatedTo = knownTenants(tenants);
        if (dedicatedTo.equals(before.dedicatedTo())) {
            return new Inventory.Dedicated(before, List.of());
        }
        repository.updateDedicatedTo(before.id(), dedicatedTo);
        Pool after = before.with(before.spareNodes(), dedicatedTo);
        List<NodeCommitments.Commitment> leftInPlace = dedicatedTo.isEmpty()
                ? List.of()
                : commitments.stream()
                        .flatMap(c -> c.inPoolFrom(before.id(), clock.instant()).stream())
                        .filter(held -> !after.openTo(held.tenant()))
                        .toList();
        audit.record(new AuditRecord(
                null, "pool.dedicated", "pool", name, before, Map.of("pool", after, "leftInPlace", leftInPlace)));
        return new Inventory.Dedicated(after, leftInPlace);
    }

    /** The tenant slugs, each one that exists (400 naming the first that does not), without repeats. */
    List<String> knownTenants(List<String> slugs) {
        List<String> distinct = slugs.stream().map(String::strip).distinct().toList();
        for (int i = 0; i < distinct.size(); i++) {
            if (!tenants.exists(distinct.get(i))) {
                throw InvalidInputException.of("dedicatedTo[" + i + "]", "no such tenant");
            }
        }
        return distinct;
    }

    /**
     * Sets how many of the pool's nodes are held as hot spares: at most its nodes in service (retired ones left
     * out). Audited; booking then picks (or gives back) the spare nodes in this transaction.
     *
     * @param ifMatch the pool's {@link Pool#etag()} as the caller last read it, or null
     */
    Pool changeSpareNodes(Caller caller, String name, int spareNodes, @Nullable String ifMatch) {
        caller.requirePlatformAdmin();
        Pool before = repository.poolForUpdate(name).orElseThrow(() -> AllotException.notFound("Pool " + name));
        if (!ETags.matches(ifMatch, before.etag())) {
            throw AllotException.preconditionFailed("Pool " + name + " has changed; its ETag is " + before.etag());
        }
        int nodes = Inventory.PoolSize.of(repository.nodeCounts(before.id())).nodes();
        if (spareNodes < 0 || spareNodes > nodes) {
            throw spareNodesInvalid(spareNodes, nodes);
        }
        if (spareNodes == before.spareNodes()) {
            return before;
        }
        repository.updateSpareNodes(before.id(), spareNodes);
        Pool after = before.with(spareNodes, before.dedicatedTo());
        audit.record(new AuditRecord(null, "pool.spare-nodes-changed", "pool", name, before, after));
        events.publishEvent(new PoolSparesChanged(after.id(), after.name(), before.spareNodes(), spareNodes));
        return after;
    }

    static AllotException spareNodesInvalid(int asked, int nodes) {
        return new AllotException(
                        422,
                        "invalid_spare_nodes",
                        "Invalid spare nodes",
                        "spareNodes: " + asked + " is not between 0 and the pool's " + nodes + " nodes")
                .with(
                        "errors",
                        List.of(new FieldError("spareNodes", "must be between 0 and the pool's " + nodes + " nodes")));
    }
}
