package dev.allot;

import static dev.allot.ApiOperations.op;

import java.util.LinkedHashMap;
import java.util.Map;

/** The names of the operations on the capacity calendar, quotes, reservations and their queue, clusters, health checks and volumes (a part of {@link ApiOperations}). */
final class BookingApiOperations {

    static final Map<String, ApiOperations.Named> NAMED = new LinkedHashMap<>();

    private BookingApiOperations() {}

    static {
        op(
                NAMED,
                "GET",
                "/capacity",
                "getCapacity",
                "capacity",
                "Read the capacity calendar",
                "Free, allocated and unhealthy GPUs of a pool per step; counts only, never who.");
        op(
                NAMED,
                "GET",
                "/capacity/earliest",
                "findEarliestWindows",
                "capacity",
                "Find the earliest windows",
                "The earliest windows where the request fits, within the tenant's quota, each with its quote.");
        op(
                NAMED,
                "POST",
                "/capacity/rebuild",
                "rebuildCapacity",
                "capacity",
                "Rebuild a pool's calendar",
                "Recomputes the calendar from the allocations; a repair, normally never needed (platform admin).");

        op(
                NAMED,
                "POST",
                "/tenants/{tenant}/quotes",
                "createQuote",
                "reservations",
                "Quote a booking",
                "Whether it fits, the rate-class split and the price, without booking.");
        op(
                NAMED,
                "GET",
                "/tenants/{tenant}/reservations",
                "listReservations",
                "reservations",
                "List reservations",
                "The tenant's reservations, filtered by status and window.");
        op(
                NAMED,
                "POST",
                "/tenants/{tenant}/reservations",
                "createReservation",
                "reservations",
                "Book nodes",
                "Books whole nodes for a window. Nothing is written unless it answers 201 (or 202: with "
                        + "whenUnavailable QUEUE, a booking that does not fit waits in its pool's queue as QUEUED); 409 "
                        + "capacity_not_available names earliestStart and alternatives when any exist.");
        op(
                NAMED,
                "GET",
                "/pools/{pool}/queue",
                "getPoolQueue",
                "pools",
                "Read a pool's queue",
                "Platform admin: the queued bookings of the pool in the order they are booked when capacity frees "
                        + "(priority class, then time queued, no tenant holding more than half of the head while "
                        + "others wait).");
        op(
                NAMED,
                "GET",
                "/tenants/{tenant}/reservations/{id}",
                "getReservation",
                "reservations",
                "Get a reservation",
                "The reservation; the ETag header carries its version, for If-Match.");
        op(
                NAMED,
                "PATCH",
                "/tenants/{tenant}/reservations/{id}",
                "extendReservation",
                "reservations",
                "Extend a reservation",
                "Moves endsAt later on the same nodes; needs If-Match (428 without it).");
        op(
                NAMED,
                "POST",
                "/tenants/{tenant}/reservations/{id}/approve",
                "approveReservation",
                "reservations",
                "Approve a booking",
                "A booking its tenant's policy asks approval for waits as PENDING_APPROVAL, "
                        + "holding its nodes; approved (by a tenant admin or a project admin of its project other than "
                        + "its requester, or a platform admin) it is CONFIRMED at the price quoted, and provisioned and billed from then on.");
        op(
                NAMED,
                "POST",
                "/tenants/{tenant}/reservations/{id}/deny",
                "denyReservation",
                "reservations",
                "Deny a booking",
                "DENIED, with the reason: its nodes and quota are freed and nothing is charged.");
        op(
                NAMED,
                "POST",
                "/tenants/{tenant}/reservations/{id}/cancel",
                "cancelReservation",
                "reservations",
                "Cancel a reservation",
                "Frees its nodes; the cluster is torn down.");

        op(
                NAMED,
                "GET",
                "/tenants/{tenant}/reservations/{id}/cluster",
                "getClusterStatus",
                "clusters",
                "Get a reservation's cluster",
                "State, endpoints, nodes and timeline; with waitFor it long-polls until that state (or one that "
                        + "ends the wait) or the timeout.");
        op(
                NAMED,
                "GET",
                "/tenants/{tenant}/reservations/{id}/cluster/kubeconfig",
                "getKubeconfig",
                "clusters",
                "Download the kubeconfig",
                "The namespace-scoped kubeconfig of a ready Kubernetes cluster (YAML).");
        op(
                NAMED,
                "POST",
                "/tenants/{tenant}/reservations/{id}/health-checks",
                "createHealthCheck",
                "health-checks",
                "Run a health check",
                "Queues an on-demand check of the reservation's nodes (202): on each node alone, "
                        + "or with acrossNodes an NCCL all-reduce as one job across all of them.");
        op(
                NAMED,
                "GET",
                "/tenants/{tenant}/reservations/{id}/health-checks/{check}",
                "getHealthCheck",
                "health-checks",
                "Get a health check",
                "Its status and the result per node.");
        op(
                NAMED,
                "GET",
                "/tenants/{tenant}/volumes",
                "listVolumes",
                "volumes",
                "List volumes",
                "The tenant's volumes not deleted: those of its reservations and those retained after them.");
        op(
                NAMED,
                "GET",
                "/tenants/{tenant}/volumes/{id}",
                "getVolume",
                "volumes",
                "Get a volume",
                "Where it lives, its status and, for a monitored limit, what it holds.");
        op(
                NAMED,
                "DELETE",
                "/tenants/{tenant}/volumes/{id}",
                "deleteVolume",
                "volumes",
                "Delete a retained volume",
                "It stops counting against storageGi and being billed at once; the pool removes its data.");
    }
}
