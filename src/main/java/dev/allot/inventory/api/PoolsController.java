package dev.allot.inventory.api;

import dev.allot.inventory.Inventory;
import dev.allot.inventory.NodeCommitments;
import dev.allot.inventory.NodeMemory;
import dev.allot.inventory.Pool;
import dev.allot.shared.AllotException;
import dev.allot.shared.PageQuery;
import dev.allot.shared.PageResponse;
import dev.allot.shared.Slugs;
import dev.allot.shared.security.Caller;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.net.URI;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/v1/pools")
class PoolsController {

    record CreatePool(
            @NotNull @Pattern(regexp = Slugs.PATTERN, message = Slugs.MESSAGE)
            String name,

            @NotBlank String gpuType,
            @NotNull @Min(1) @Max(64) Integer gpusPerNode,
            @NotBlank @Size(max = 50) String region,
            @Nullable @Min(0) Integer spareNodes,

            @Nullable @Size(max = 50)
            List<@NotNull @Pattern(regexp = Slugs.PATTERN, message = Slugs.MESSAGE) String> dedicatedTo) {}

    /**
     * The pool's changeable settings; absent fields are left as they are. {@code dedicatedTo}: the tenants the pool
     * is theirs alone (an empty list shares it with all).
     */
    record ChangePool(
            @Nullable @Min(0) @Max(100_000) Integer spareNodes,
            @Nullable @Min(1) @Max(1_048_576) Integer nodeMemoryGi,

            @Nullable @Size(max = 50)
            List<@NotNull @Pattern(regexp = Slugs.PATTERN, message = Slugs.MESSAGE) String> dedicatedTo) {}

    /**
     * {@code nodeMemoryGi}: memory of each node, the ceiling of a booking's {@code cluster.sharedMemoryGi};
     * {@code dedicatedTo}: the tenants the pool is theirs alone, empty when every tenant shares it.
     */
    record PoolBody(
            String name,
            String gpuType,
            int gpusPerNode,
            String region,
            int spareNodes,
            int nodeMemoryGi,
            List<String> dedicatedTo) {}

    /**
     * A changed pool, and {@code leftInPlace}: the live reservations of tenants a new dedication no longer names,
     * which keep their nodes to their end (the pool takes no new bookings of theirs).
     */
    record ChangedPoolBody(
            String name,
            String gpuType,
            int gpusPerNode,
            String region,
            int spareNodes,
            int nodeMemoryGi,
            List<String> dedicatedTo,
            List<NodeCommitments.Commitment> leftInPlace) {}

    private final Inventory inventory;

    private final NodeMemory memory;

    PoolsController(Inventory inventory, NodeMemory memory) {
        this.inventory = inventory;
        this.memory = memory;
    }

    private PoolBody body(Pool pool) {
        return new PoolBody(
                pool.name(),
                pool.gpuType().code(),
                pool.gpusPerNode(),
                pool.region(),
                pool.spareNodes(),
                memory.of(pool),
                pool.dedicatedTo());
    }

    @ResponseStatus(HttpStatus.CREATED)
    @PostMapping
    ResponseEntity<PoolBody> create(Caller caller, @Valid @RequestBody CreatePool body) {
        Pool pool = inventory.createPool(
                caller,
                new Inventory.NewPool(
                        body.name(),
                        body.gpuType(),
                        body.gpusPerNode(),
                        body.region().strip(),
                        body.spareNodes() == null ? 0 : body.spareNodes(),
                        body.dedicatedTo() == null ? List.of() : body.dedicatedTo()));
        return ResponseEntity.created(URI.create("/api/v1/pools/" + pool.name()))
                .body(body(pool));
    }

    @GetMapping
    PageResponse<PoolBody> list(
            Caller caller,
            @RequestParam(required = false) @Nullable Integer page,
            @RequestParam(required = false) @Nullable Integer size) {
        return inventory.pools(caller, PageQuery.of(page, size)).map(this::body);
    }

    @GetMapping("/{pool}")
    ResponseEntity<PoolBody> get(Caller caller, @PathVariable String pool) {
        Pool found = inventory.pool(caller, pool).orElseThrow(() -> AllotException.notFound("Pool " + pool));
        return ResponseEntity.ok().eTag(found.etag()).body(body(found));
    }

    @PatchMapping("/{pool}")
    ResponseEntity<ChangedPoolBody> change(
            Caller caller,
            @PathVariable String pool,
            @RequestHeader(name = "If-Match", required = false) @Nullable String ifMatch,
            @Valid @RequestBody ChangePool body) {
        caller.requirePlatformAdmin();
        Pool changed = body.spareNodes() == null
                ? inventory.existingPool(pool)
                : inventory.changeSpareNodes(caller, pool, body.spareNodes(), ifMatch);
        List<NodeCommitments.Commitment> leftInPlace = List.of();
        if (body.dedicatedTo() != null) {
            // the If-Match was checked against the version before this request's own change of spares
            Inventory.Dedicated dedicated = inventory.dedicate(
                    caller, pool, body.dedicatedTo(), body.spareNodes() == null ? ifMatch : changed.etag());
            changed = dedicated.pool();
            leftInPlace = dedicated.leftInPlace();
        }
        if (body.nodeMemoryGi() != null) {
            memory.set(caller, changed, body.nodeMemoryGi());
        }
        PoolBody after = body(changed);
        return ResponseEntity.ok()
                .eTag(changed.etag())
                .body(new ChangedPoolBody(
                        after.name(),
                        after.gpuType(),
                        after.gpusPerNode(),
                        after.region(),
                        after.spareNodes(),
                        after.nodeMemoryGi(),
                        after.dedicatedTo(),
                        leftInPlace));
    }
}
