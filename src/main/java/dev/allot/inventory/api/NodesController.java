package dev.allot.inventory.api;

import dev.allot.inventory.Inventory;
import dev.allot.inventory.Node;
import dev.allot.inventory.NodeCommitments;
import dev.allot.inventory.NodeState;
import dev.allot.shared.PageQuery;
import dev.allot.shared.PageResponse;
import dev.allot.shared.security.Caller;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/v1")
class NodesController {

    record CreateNode(
            @NotNull
            @Pattern(regexp = "^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$", message = "must be a lower-case host name")
            String hostname,

            @NotBlank @Size(max = 50) String rack,
            @NotBlank @Size(max = 50) String ibBlock,
            @Nullable @Size(max = 50) List<@NotBlank @Size(max = 40) String> cudaDrivers) {}

    record StateReason(@NotBlank @Size(max = 500) String reason) {}

    record NodeBody(
            String hostname,
            String pool,
            String rack,
            String ibBlock,
            List<String> cudaDrivers,
            NodeState state,
            @Nullable String stateReason,
            Instant stateChangedAt,
            Instant createdAt,
            boolean spare) {
        static NodeBody of(Node node) {
            return new NodeBody(
                    node.hostname(),
                    node.pool(),
                    node.rack(),
                    node.ibBlock(),
                    node.cudaDrivers(),
                    node.state(),
                    node.stateReason(),
                    node.stateChangedAt(),
                    node.createdAt(),
                    node.spare());
        }
    }

    record AffectedReservation(UUID id, String tenant, Instant startsAt, Instant endsAt) {
        static AffectedReservation of(NodeCommitments.Commitment commitment) {
            return new AffectedReservation(
                    commitment.reservationId(), commitment.tenant(), commitment.startsAt(), commitment.endsAt());
        }
    }

    record StateChangeBody(
            String hostname,
            String pool,
            String rack,
            String ibBlock,
            List<String> cudaDrivers,
            NodeState state,
            @Nullable String stateReason,
            Instant stateChangedAt,
            List<AffectedReservation> affectedReservations) {
        static StateChangeBody of(Inventory.StateChange change) {
            Node node = change.node();
            return new StateChangeBody(
                    node.hostname(),
                    node.pool(),
                    node.rack(),
                    node.ibBlock(),
                    node.cudaDrivers(),
                    node.state(),
                    node.stateReason(),
                    node.stateChangedAt(),
                    change.affected().stream().map(AffectedReservation::of).toList());
        }
    }

    private final Inventory inventory;

    NodesController(Inventory inventory) {
        this.inventory = inventory;
    }

    @ResponseStatus(HttpStatus.CREATED)
    @PostMapping("/pools/{pool}/nodes")
    ResponseEntity<NodeBody> add(Caller caller, @PathVariable String pool, @Valid @RequestBody CreateNode body) {
        Node node = inventory.addNode(
                caller,
                pool,
                new Inventory.NewNode(
                        body.hostname(),
                        body.rack().strip(),
                        body.ibBlock().strip(),
                        body.cudaDrivers() == null ? List.of() : body.cudaDrivers()));
        return ResponseEntity.created(URI.create("/api/v1/nodes/" + node.hostname()))
                .body(NodeBody.of(node));
    }

    @GetMapping("/pools/{pool}/nodes")
    PageResponse<NodeBody> list(
            Caller caller,
            @PathVariable String pool,
            @RequestParam(required = false) @Nullable Integer page,
            @RequestParam(required = false) @Nullable Integer size) {
        return inventory.nodes(caller, pool, PageQuery.of(page, size)).map(NodeBody::of);
    }

    @GetMapping("/nodes/{hostname}")
    NodeBody get(Caller caller, @PathVariable String hostname) {
        return NodeBody.of(inventory.node(caller, hostname));
    }

    @PostMapping("/nodes/{hostname}/quarantine")
    StateChangeBody quarantine(Caller caller, @PathVariable String hostname, @Valid @RequestBody StateReason body) {
        return StateChangeBody.of(
                inventory.quarantine(caller, hostname, body.reason().strip()));
    }

    @PostMapping("/nodes/{hostname}/release")
    StateChangeBody release(Caller caller, @PathVariable String hostname, @Valid @RequestBody StateReason body) {
        return StateChangeBody.of(
                inventory.release(caller, hostname, body.reason().strip()));
    }

    /** Any other state change (drain before maintenance, send to repair, retire), each with a reason. */
    record ChangeState(
            @NotNull NodeState state,
            @NotBlank @Size(max = 500) String reason) {}

    @PostMapping("/nodes/{hostname}/state")
    StateChangeBody changeState(Caller caller, @PathVariable String hostname, @Valid @RequestBody ChangeState body) {
        return StateChangeBody.of(inventory.changeState(
                caller, hostname, body.state(), body.reason().strip()));
    }
}
