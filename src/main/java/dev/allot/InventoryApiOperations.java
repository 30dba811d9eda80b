package dev.allot;

import static dev.allot.ApiOperations.op;

import java.util.LinkedHashMap;
import java.util.Map;

/** The names of the operations on GPU types, pools and nodes (a part of {@link ApiOperations}). */
final class InventoryApiOperations {

    static final Map<String, ApiOperations.Named> NAMED = new LinkedHashMap<>();

    private InventoryApiOperations() {}

    static {
        op(NAMED, "GET", "/gpu-types", "listGpuTypes", "gpu-types", "List GPU types", "Every GPU type of the fleet.");
        op(NAMED, "POST", "/gpu-types", "createGpuType", "gpu-types", "Create a GPU type", "Platform admin.");
        op(NAMED, "GET", "/gpu-types/{code}", "getGpuType", "gpu-types", "Get a GPU type", "One GPU type.");

        op(
                NAMED,
                "GET",
                "/pools",
                "listPools",
                "pools",
                "List pools",
                "Every pool the caller may see, with its GPU type and size: a pool dedicated to other tenants is "
                        + "left out.");
        op(
                NAMED,
                "POST",
                "/pools",
                "createPool",
                "pools",
                "Create a pool",
                "Platform admin. dedicatedTo (tenant slugs) makes it theirs alone: other tenants neither see nor book "
                        + "it, and its capacity counts only for its tenants' guarantees.");
        op(
                NAMED,
                "GET",
                "/pools/{pool}",
                "getPool",
                "pools",
                "Get a pool",
                "One pool with its GPU type and size; 404 for a pool dedicated to other tenants.");
        op(
                NAMED,
                "PATCH",
                "/pools/{pool}",
                "changePool",
                "pools",
                "Change a pool",
                "Platform admin: sets spareNodes, the healthy free nodes held out of bookable capacity as hot spares "
                        + "for replacements (at most the pool's nodes; 422 invalid_spare_nodes otherwise), and "
                        + "dedicatedTo (an empty list shares the pool with all). A new dedication leaves other tenants' "
                        + "live reservations in place and names them in leftInPlace. If-Match with the pool's ETag "
                        + "guards against a concurrent change (412).");

        op(
                NAMED,
                "GET",
                "/pools/{pool}/nodes",
                "listNodes",
                "nodes",
                "List a pool's nodes",
                "Nodes with their topology and state.");
        op(
                NAMED,
                "POST",
                "/pools/{pool}/nodes",
                "addNode",
                "nodes",
                "Add a node",
                "A node with its rack, InfiniBand block and CUDA drivers (platform admin).");
        op(NAMED, "GET", "/nodes/{hostname}", "getNode", "nodes", "Get a node", "One node, its topology and state.");
        op(
                NAMED,
                "POST",
                "/nodes/{hostname}/quarantine",
                "quarantineNode",
                "nodes",
                "Quarantine a node",
                "Takes it out of service with a reason (platform admin).");
        op(
                NAMED,
                "POST",
                "/nodes/{hostname}/release",
                "releaseNode",
                "nodes",
                "Release a node",
                "Returns a quarantined node to service (platform admin).");
        op(
                NAMED,
                "POST",
                "/nodes/{hostname}/events",
                "reportNodeEvent",
                "nodes",
                "Report a node health event",
                "An Xid, ECC errors or a DCGM health event from an exporter; it feeds tiered remediation (reboot, or "
                        + "quarantine and replacement) and answers the fault class and what was done.");
        op(
                NAMED,
                "POST",
                "/nodes/{hostname}/state",
                "changeNodeState",
                "nodes",
                "Change a node's state",
                "Moves a node between its states, audited (platform admin).");
    }
}
