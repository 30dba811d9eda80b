package dev.allot.inventory;

import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditRecord;
import dev.allot.inventory.events.NodeAdded;
import dev.allot.inventory.events.NodeStateChanged;
import dev.allot.shared.AllotException;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.PageQuery;
import dev.allot.shared.PageResponse;
import dev.allot.shared.SearchQuery;
import dev.allot.shared.changes.ReadCache;
import dev.allot.shared.changes.TableChanges;
import dev.allot.shared.security.Caller;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/** The fleet's facade: platform admins change it, everyone signed in reads GPU types and pools. */
@Service
@Transactional
public class Inventory {

    public record NewGpuType(
            String code, int memoryGb, @Nullable String interconnect) {}

    public record NewPool(
            String name, String gpuType, int gpusPerNode, String region, int spareNodes, List<String> dedicatedTo) {

        public NewPool(String name, String gpuType, int gpusPerNode, String region) {
            this(name, gpuType, gpusPerNode, region, 0, List.of());
        }
    }

    /** A pool's healthy GPUs (less its hot spares) and the tenants it is dedicated to (none: shared). */
    public record PoolCapacity(String pool, List<String> dedicatedTo, int healthyGpus) {}

    /** A dedication changed, and the live reservations of tenants it no longer names, which keep their nodes. */
    public record Dedicated(Pool pool, List<NodeCommitments.Commitment> leftInPlace) {}

    public record NewNode(String hostname, String rack, String ibBlock, List<String> cudaDrivers) {}

    /** A state change and the reservations holding the node from then on. */
    public record StateChange(Node node, List<NodeCommitments.Commitment> affected) {}

    /** Nodes of a pool out of service for a fault (quarantined or in repair) for one reason. */
    public record OutOfService(
            String pool, NodeState state, @Nullable String reason, int nodes) {}

    /**
     * A pool's nodes counted now, for the capacity calendar: in service or not (retired ones left out), out of
     * service for a fault, available, and held as hot spares (available, never booked).
     */
    public record PoolSize(int nodes, int unhealthyNodes, int bookableNodes, int spareNodes) {

        static PoolSize of(List<InventoryRepository.StateCount> counts) {
            int all = 0;
            int unhealthy = 0;
            int bookable = 0;
            int spares = 0;
            for (InventoryRepository.StateCount count : counts) {
                if (count.state() != NodeState.RETIRED) {
                    all += count.nodes();
                }
                if (count.state().isUnhealthy()) {
                    unhealthy += count.nodes();
                }
                if (count.state() == NodeState.AVAILABLE) {
                    bookable += count.nodes() - count.spares();
                    spares += count.spares();
                }
            }
            return new PoolSize(all, unhealthy, bookable, spares);
        }

        /** The nodes bookings see: every node but the spares. */
        public int withoutSpares() {
            return nodes - spareNodes;
        }
    }

    /** A pool on the admin console's list: the pool and its nodes counted now. */
    public record PoolListing(Pool pool, PoolSize size) {}

    /** Which nodes a search looks at: one pool's, one state's, one GPU type's; null for any. */
    public record NodeFilter(
            @Nullable String pool,
            @Nullable NodeState state,
            @Nullable String gpuType) {

        public static NodeFilter ofPool(String pool) {
            return new NodeFilter(pool, null, null);
        }
    }

    private final InventoryRepository repository;

    private final AuditLog audit;

    private final ApplicationEventPublisher events;

    private final ObjectProvider<NodeCommitments> commitments;

    private final Clock clock;

    /** Read by every booking and quote; kept until their tables change. */
    private final ReadCache<String, Pool> pools;

    private final ReadCache<UUID, PoolSize> sizes;

    private final ReadCache<UUID, List<String>> drivers;

    private final PoolAdministration administration;

    Inventory(
            InventoryRepository repository,
            AuditLog audit,
            ApplicationEventPublisher events,
            ObjectProvider<NodeCommitments> commitments,
            Clock clock,
            TableChanges changes,
            PoolAdministration administration) {
        this.repository = repository;
        this.administration = administration;
        this.audit = audit;
        this.events = events;
        this.commitments = commitments;
        this.clock = clock;
        this.pools = changes.cache("pools by name", "pool", "gpu_type");
        this.sizes = changes.cache("pool sizes", "node");
        this.drivers = changes.cache("pools' CUDA drivers", "node");
    }

    // Lookups for other modules

    @Transactional(readOnly = true)
    public Optional<GpuType> gpuType(String code) {
        return repository.gpuType(code);
    }

    /** A node by hostname, for other modules (no caller: they check their own); empty when there is none. */
    @Transactional(readOnly = true)
    public Optional<Node> findNode(String hostname) {
        return repository.node(hostname);
    }

    @Transactional(propagation = Propagation.SUPPORTS)
    public Optional<Pool> pool(String name) {
        return pools.find(name, repository::pool);
    }

    /** The pool as the caller may see it: a pool dedicated to tenants the caller is not in is not there. */
    @Transactional(propagation = Propagation.SUPPORTS)
    public Optional<Pool> pool(Caller caller, String name) {
        return pool(name).filter(pool -> pool.visibleTo(caller));
    }

    /** Per pool of the type, its healthy GPUs and dedication: whose guarantees its capacity may cover. */
    @Transactional(readOnly = true)
    public List<PoolCapacity> healthyGpusByPool(GpuType type) {
        return repository.healthyGpusByPool(type.id());
    }

    @Transactional(propagation = Propagation.SUPPORTS)
    public PoolSize size(Pool pool) {
        return sizes.get(pool.id(), this::countNodes);
    }

    private PoolSize countNodes(UUID poolId) {
        return PoolSize.of(repository.nodeCounts(poolId));
    }

    /**
     * The healthy capacity of a GPU type: the GPUs of its available nodes over all its pools, less each pool's hot
     * spares (a quarantined, draining, in-repair or retired node counts for nothing). What the tenants' guarantees of
     * the type may add up to.
     */
    @Transactional(propagation = Propagation.SUPPORTS)
    public int healthyGpus(GpuType type) {
        return repository.healthyGpus(type.id());
    }

    /** Every pool's nodes out of service for a fault, with the reasons given: for the capacity calendar. */
    @Transactional(readOnly = true)
    public List<OutOfService> outOfService() {
        return repository.outOfService();
    }

    /** The fleet's nodes by state and those out of service with why, at most {@code limit} of them listed. */
    @Transactional(readOnly = true)
    public FleetHealth fleetHealth(Caller caller, int limit) {
        caller.requireReadsEverything();
        return repository.fleetHealth(limit);
    }

    /** The CUDA driver versions the pool's nodes offer (its catalog), sorted. */
    @Transactional(propagation = Propagation.SUPPORTS)
    public List<String> cudaDrivers(Pool pool) {
        return drivers.get(pool.id(), repository::cudaDrivers);
    }

    // GPU types

    public GpuType createGpuType(Caller caller, NewGpuType request) {
        caller.requirePlatformAdmin();
        GpuType type = new GpuType(UUID.randomUUID(), request.code(), request.memoryGb(), request.interconnect());
        if (!repository.insert(type)) {
            throw AllotException.conflict("gpu_type_exists", "A GPU type " + request.code() + " exists");
        }
        audit.record(AuditRecord.created(null, "gpu-type", type.code(), type));
        return type;
    }

    @Transactional(readOnly = true)
    public PageResponse<GpuType> gpuTypes(PageQuery page) {
        return PageResponse.of(repository.gpuTypes(page), page, repository.countGpuTypes());
    }

    // Pools

    public Pool createPool(Caller caller, NewPool request) {
        caller.requirePlatformAdmin();
        GpuType type = repository
                .gpuType(request.gpuType())
                .orElseThrow(() -> InvalidInputException.of("gpuType", "no such GPU type"));
        if (request.spareNodes() != 0) {
            throw PoolAdministration.spareNodesInvalid(request.spareNodes(), 0);
        }
        List<String> dedicatedTo = administration.knownTenants(request.dedicatedTo());
        Pool pool = new Pool(
                UUID.randomUUID(), request.name(), type, request.gpusPerNode(), request.region(), 0, dedicatedTo);
        if (!repository.insert(pool)) {
            throw AllotException.conflict("pool_exists", "A pool " + request.name() + " exists");
        }
        audit.record(AuditRecord.created(null, "pool", pool.name(), pool));
        return pool;
    }

    @Transactional(readOnly = true)
    public PageResponse<Pool> pools(PageQuery page) {
        return PageResponse.of(repository.pools(page, null), page, repository.countPools(null));
    }

    /** The admin console's pools: those whose name, GPU type or region holds the search text, counted and sorted. */
    @Transactional(readOnly = true)
    public PageResponse<PoolListing> searchPools(Caller caller, SearchQuery query) {
        caller.requireReadsEverything();
        return PageResponse.of(repository.searchPools(query), query.page(), repository.countSearchedPools(query));
    }

    /** The pools the caller may see: all for those who read everything, else shared ones and their tenants'. */
    @Transactional(readOnly = true)
    public PageResponse<Pool> pools(Caller caller, PageQuery page) {
        String[] openTo = openTo(caller);
        return PageResponse.of(repository.pools(page, openTo), page, repository.countPools(openTo));
    }

    /**
     * Every pool the caller may see, by name, read a page at a time: the calendar and the booking form show them all
     * (grouped, and searched in the page), so none may fall past a first page.
     */
    @Transactional(readOnly = true)
    public List<Pool> allPools(Caller caller) {
        return allPools(openTo(caller));
    }

    /** The tenants whose dedicated pools the caller sees besides the shared ones; null: every pool. */
    private static String @Nullable [] openTo(Caller caller) {
        return caller.readsEverything() ? null : caller.tenantsSeen().toArray(String[]::new);
    }

    /** Every pool a tenant may book, by name: shared ones and those dedicated to it. */
    @Transactional(readOnly = true)
    public List<Pool> poolsOpenTo(String tenant) {
        return allPools(new String[] {tenant});
    }

    private List<Pool> allPools(String @Nullable [] openTo) {
        List<Pool> all = new ArrayList<>();
        for (int page = 0; ; page++) {
            List<Pool> some = repository.pools(new PageQuery(page, PageQuery.MAX_SIZE), openTo);
            all.addAll(some);
            if (some.size() < PageQuery.MAX_SIZE) {
                return all;
            }
        }
    }

    /**
     * Dedicates the pool to these tenants (none: shares it with all). Never strands a booking: the live
     * reservations of tenants it no longer names keep their nodes to their end, and are named in the answer and the
     * audit row; the pool takes no new bookings of theirs.
     */
    public Dedicated dedicate(Caller caller, String name, List<String> tenants, @Nullable String ifMatch) {
        return administration.dedicate(caller, name, tenants, ifMatch);
    }

    /**
     * Sets how many of the pool's nodes are held as hot spares: at most its nodes in service (retired ones left
     * out). Audited; booking then picks (or gives back) the spare nodes in this transaction.
     *
     * @param ifMatch the pool's {@link Pool#etag()} as the caller last read it, or null
     */
    public Pool changeSpareNodes(Caller caller, String name, int spareNodes, @Nullable String ifMatch) {
        return administration.changeSpareNodes(caller, name, spareNodes, ifMatch);
    }

    @Transactional(readOnly = true)
    public Pool existingPool(String name) {
        return repository.pool(name).orElseThrow(() -> AllotException.notFound("Pool " + name));
    }

    // Nodes (platform admins and auditors read them; they name machines, not tenants)

    public Node addNode(Caller caller, String poolName, NewNode request) {
        caller.requirePlatformAdmin();
        Pool pool = existingPool(poolName);
        Instant now = clock.instant();
        long id = repository
                .insert(
                        pool.id(),
                        request.hostname(),
                        request.rack(),
                        request.ibBlock(),
                        request.cudaDrivers(),
                        Timestamp.from(now))
                .orElseThrow(() -> AllotException.conflict("node_exists", "A node " + request.hostname() + " exists"));
        Node node = Node.added(id, pool.name(), request, now);
        audit.record(AuditRecord.created(null, "node", node.hostname(), node));
        events.publishEvent(new NodeAdded(id, node.hostname(), pool.id()));
        return node;
    }

    @Transactional(readOnly = true)
    public PageResponse<Node> nodes(Caller caller, String poolName, PageQuery page) {
        caller.requireReadsEverything();
        Pool pool = existingPool(poolName);
        return PageResponse.of(repository.nodes(pool.id(), page), page, repository.countNodes(pool.id()));
    }

    /** The admin console's node search: hostnames holding the text, of the filter's pool, state and GPU type. */
    @Transactional(readOnly = true)
    public PageResponse<Node> searchNodes(Caller caller, NodeFilter filter, SearchQuery query) {
        caller.requireReadsEverything();
        return PageResponse.of(
                repository.searchNodes(filter, query), query.page(), repository.countNodes(filter, query));
    }

    @Transactional(readOnly = true)
    public Node node(Caller caller, String hostname) {
        caller.requireReadsEverything();
        return repository.node(hostname).orElseThrow(() -> AllotException.notFound("Node " + hostname));
    }

    public StateChange quarantine(Caller caller, String hostname, String reason) {
        return changeState(caller, hostname, NodeState.QUARANTINED, reason);
    }

    public StateChange release(Caller caller, String hostname, String reason) {
        return changeState(caller, hostname, NodeState.AVAILABLE, reason);
    }

    /** What holds the node from {@code from} on: the reservations a change of its state affects. */
    public List<NodeCommitments.Commitment> holding(String hostname, Instant from) {
        return repository
                .node(hostname)
                .map(node -> commitments.stream()
                        .flatMap(c -> c.onNodeFrom(node.id(), from).stream())
                        .toList())
                .orElse(List.of());
    }

    public StateChange changeState(Caller caller, String hostname, NodeState next, String reason) {
        caller.requirePlatformAdmin();
        // The row lock orders this change against bookings, which share-lock the nodes they allocate.
        Node before = repository.nodeForUpdate(hostname).orElseThrow(() -> AllotException.notFound("Node " + hostname));
        Node after = before.moveTo(next, reason, clock.instant());
        repository.updateState(after);
        audit.record(new AuditRecord(null, "node." + next.name().toLowerCase(), "node", hostname, before, after));
        events.publishEvent(
                new NodeStateChanged(hostname, after.pool(), before.state(), next, reason, after.stateChangedAt()));
        List<NodeCommitments.Commitment> affected = next == NodeState.AVAILABLE
                ? List.of()
                : commitments.stream()
                        .flatMap(c -> c.onNodeFrom(after.id(), after.stateChangedAt()).stream())
                        .toList();
        return new StateChange(after, affected);
    }
}
