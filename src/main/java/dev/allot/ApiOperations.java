package dev.allot;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The name, tag, summary and description of every operation, in one table: generated clients turn operationIds
 * into method names and tags into classes, and CLIs and docs show the summaries. {@code OpenApiConfiguration}
 * refuses to serve a contract with an operation missing here, so a new endpoint cannot ship unnamed.
 */
final class ApiOperations {

    record Named(String operationId, String tag, String summary, String description) {}

    /** A refusal an operation gives for a reason of its own: its status, its stable code, an example detail. */
    record Refusal(int status, String code, String detail) {}

    /** Each operation's own refusals, beyond those every operation can give (400, 401, 403, 404, 429). */
    static final Map<String, List<Refusal>> REFUSALS = new LinkedHashMap<>();

    private static void refuses(String operationId, Refusal... refusals) {
        REFUSALS.computeIfAbsent(operationId, id -> new ArrayList<>()).addAll(List.of(refusals));
    }

    private static Refusal refusal(int status, String code, String detail) {
        return new Refusal(status, code, detail);
    }

    static final Map<String, Named> ALL = new LinkedHashMap<>();

    /** What each tag groups, in the order a reader meets them. */
    static final Map<String, String> TAGS = new LinkedHashMap<>();

    static {
        TAGS.put("me", "The caller itself");
        TAGS.put("capacity", "The live capacity calendar and earliest-fit search");
        TAGS.put("reservations", "Quotes and bookings of whole nodes for a window");
        TAGS.put("clusters", "The isolated cluster built on a reservation's nodes");
        TAGS.put("health-checks", "On-demand checks of a reservation's nodes");
        TAGS.put("volumes", "A tenant's volumes, retained ones until it deletes them");
        TAGS.put("usage", "What a tenant used, grouped as asked");
        TAGS.put("billing", "Monthly statements and the double-entry ledger");
        TAGS.put("budgets", "Monthly budgets of tenants and projects, with alerts");
        TAGS.put("notifications", "Notices to a tenant");
        TAGS.put("webhooks", "Signed lifecycle events of a tenant's reservations and clusters, for CI");
        TAGS.put("tenants", "Teams sharing the fleet (platform admin)");
        TAGS.put("projects", "A tenant's projects, which bookings are charged to");
        TAGS.put("members", "Users of a tenant and their roles");
        TAGS.put("service-accounts", "OAuth2 clients of a tenant, for CI");
        TAGS.put("users", "Local users (platform admin)");
        TAGS.put("quota", "Guarantees and limits per tenant and GPU type");
        TAGS.put("rate-cards", "Hourly prices per GPU type and rate class");
        TAGS.put("gpu-types", "The GPU types of the fleet");
        TAGS.put("pools", "Pools of nodes of one GPU type");
        TAGS.put("nodes", "Nodes, their topology and their state");
        TAGS.put("reports", "Reports across tenants");
        TAGS.put("telemetry", "Samples sent by exporters");
        TAGS.put("audit", "The append-only record of every change");
        TAGS.put("signing-keys", "The keys Allot signs its tokens with");
    }

    private ApiOperations() {}

    /** Names an operation of {@code /api/v1} in {@code into}, once. */
    static void op(
            Map<String, Named> into,
            String method,
            String path,
            String operationId,
            String tag,
            String summary,
            String description) {
        if (into.put(method + " /api/v1" + path, new Named(operationId, tag, summary, description)) != null) {
            throw new IllegalStateException("Named twice: " + method + " " + path);
        }
    }

    static {
        for (Map<String, Named> part : List.of(
                TenancyApiOperations.NAMED,
                QuotaApiOperations.NAMED,
                InventoryApiOperations.NAMED,
                BookingApiOperations.NAMED,
                BillingApiOperations.NAMED,
                PlatformApiOperations.NAMED)) {
            part.forEach((key, named) -> {
                if (ALL.put(key, named) != null) {
                    throw new IllegalStateException("Named twice: " + key);
                }
            });
        }
        Refusal quota = refusal(
                422,
                "quota_exceeded",
                "maxGpus allows 16 GPUs of H100 at once; this booking would hold 24 (limit, allowed, requested, exceededBy)");
        Refusal noCapacity = refusal(
                409,
                "capacity_not_available",
                "h100-us has 1 of the 2 nodes needed free for the whole window (earliestStart, alternatives)");
        Refusal stale = refusal(412, "precondition_failed", "Reservation 5d1c… has changed; its ETag is \"3\"");
        Refusal headroom = refusal(
                409,
                "guarantee_headroom",
                "From 2026-12-08 09:00 UTC, other teams' 16 guaranteed "
                        + "H100 GPUs they do not use then must stay available to them, and 16 are free: this booking beyond your "
                        + "guarantee is not preemptible, so it cannot take them (at, hours, freeGpus, unusedGuaranteedGpus, "
                        + "preemptiblePrice)");
        refuses(
                "createReservation",
                noCapacity,
                headroom,
                quota,
                refusal(422, "rate_card_missing", "No rate card for H100 is in effect at the window's start"));
        refuses("createQuote", quota, refusal(422, "rate_card_missing", "No rate card for H100 is in effect"));
        refuses(
                "extendReservation",
                noCapacity,
                quota,
                stale,
                refusal(428, "precondition_required", "Send the reservation's ETag in If-Match: GET it first"),
                refusal(409, "reservation_cancelled", "Reservation 5d1c… is CANCELLED and cannot change"));
        refuses(
                "cancelReservation",
                refusal(409, "reservation_cancelled", "Reservation 5d1c… is CANCELLED and cannot change"));
        refuses(
                "deleteVolume",
                refusal(
                        409,
                        "volume_in_use",
                        "Volume data belongs to reservation 5d1c…, which has not ended (CREATED): it can be deleted once it is "
                                + "retained"));
        refuses("findEarliestWindows", refusal(422, "quota_exceeded", "maxWindow allows P7D; the duration is P10D"));
        refuses(
                "replaceQuota",
                refusal(412, "precondition_failed", "The quota has changed; its ETag is \"4\""),
                refusal(
                        422,
                        "guarantees_exceed_capacity",
                        "The guarantees of H100 would add up to 136 GPUs, 8 more "
                                + "than its healthy capacity of 128 GPUs (capacity, guaranteed, excess)"));
        refuses(
                "updateTenant",
                refusal(412, "precondition_failed", "Tenant vision-lab has changed; its ETag is \"2\""));
        refuses("replaceProjectBudget", refusal(412, "precondition_failed", "The budget has changed"));
        refuses("deleteProjectBudget", refusal(412, "precondition_failed", "The budget has changed"));
        // with allot.api.require-if-match (docs/configuration.md): every update of a versioned resource needs If-Match
        for (String update : List.of(
                "replaceQuota",
                "updateTenant",
                "replaceProjectBudget",
                "deleteProjectBudget",
                "changePool",
                "replaceBudget")) {
            refuses(
                    update,
                    refusal(
                            428,
                            "precondition_required",
                            "Send the resource's ETag in If-Match (or * for any version): GET it first"));
        }
        Refusal projectQuota = refusal(
                422,
                "project_quota_exceeded",
                "Project nightly may hold 16 GPUs of H100 at "
                        + "once; it holds 8 during the window, and this booking would add 16 (limit, allowed, held, requested, "
                        + "exceededBy)");
        refuses("createReservation", projectQuota);
        refuses("createQuote", projectQuota);
        refuses("extendReservation", projectQuota);
        refuses(
                "replaceProjectQuota",
                refusal(
                        422,
                        "project_quota_exceeds_tenant",
                        "policies[0].maxGpus: may not be more than the tenant's maxGpus of 16 (errors)"));
        Refusal notPending =
                refusal(409, "reservation_not_pending", "Reservation 5d1c… is CONFIRMED, not waiting for approval");
        refuses("approveReservation", notPending);
        refuses(
                "extendReservation",
                refusal(409, "reservation_queued", "Reservation 5d1c… is QUEUED: it holds no nodes to extend yet"));
        refuses("denyReservation", notPending);
        Refusal decided = refusal(409, "quota_request_decided", "The quota request of vision-lab is APPROVED already");
        refuses(
                "createQuotaRequest",
                refusal(
                        409,
                        "quota_request_pending",
                        "Tenant vision-lab already has a quota request waiting for a decision: withdraw it first"));
        refuses(
                "approveQuotaRequest",
                decided,
                refusal(
                        422,
                        "guarantees_exceed_capacity",
                        "The guarantees of H100 would add up to 136 GPUs, 8 more than its healthy capacity of 128 GPUs"));
        refuses("denyQuotaRequest", decided);
        refuses("withdrawQuotaRequest", decided);
        refuses("createTenant", refusal(409, "tenant_exists", "Tenant vision-lab already exists"));
        refuses("createProject", refusal(409, "project_exists", "Project nightly already exists"));
        refuses(
                "addMember",
                refusal(409, "member_exists", "alice is already a member"),
                refusal(
                        409,
                        "invitation_exists",
                        "alice already has an invitation to vision-lab that waits for an answer"));
        refuses(
                "acceptInvitation",
                refusal(409, "invitation_expired", "The invitation to vision-lab expired"),
                refusal(409, "invitation_answered", "The invitation to vision-lab was already declined"));
        refuses(
                "declineInvitation",
                refusal(409, "invitation_answered", "The invitation to vision-lab was already accepted"));
        refuses("createUser", refusal(409, "user_exists", "User alice already exists"));
        refuses("createGpuType", refusal(409, "gpu_type_exists", "GPU type H100 already exists"));
        refuses(
                "createPool",
                refusal(409, "pool_exists", "Pool h100-us already exists"),
                refusal(422, "invalid_spare_nodes", "spareNodes: 2 is not between 0 and the pool's 0 nodes"));
        refuses(
                "ingestGpuUtilisation",
                refusal(
                        422,
                        "implausible_sample",
                        "samples[3].time: node h100-us-001 was under no reservation at 2026-12-03T09:00:00Z (errors)"));
        refuses("addNode", refusal(409, "node_exists", "Node h100-us-001 already exists"));
        refuses(
                "changePool",
                refusal(412, "precondition_failed", "Pool h100-us has changed; its ETag is \"spares-2\""),
                refusal(422, "invalid_spare_nodes", "spareNodes: 40 is not between 0 and the pool's 32 nodes"));
        refuses(
                "changeNodeState",
                refusal(409, "invalid_node_state", "h100-us-001 cannot go from ALLOCATED to REPAIR"));
        refuses("quarantineNode", refusal(409, "invalid_node_state", "Node h100-us-001 is QUARANTINED already"));
        refuses("releaseNode", refusal(409, "invalid_node_state", "Node h100-us-001 is AVAILABLE already"));
        refuses(
                "createWebhook",
                refusal(422, "too_many_webhooks", "Tenant vision-lab already has 10 webhooks"),
                refusal(
                        422,
                        "webhook_secret_key_missing",
                        "Webhooks need allot.billing.webhook-secret-key to be configured"));
        refuses("reverseLedgerTransaction", refusal(409, "already_reversed", "Transaction 81 was reversed already"));
        refuses(
                "replaceBudget",
                refusal(412, "precondition_failed", "The budget of vision-lab has changed"),
                refusal(
                        422,
                        "webhook_secret_key_missing",
                        "Webhooks need allot.billing.webhook-secret-key to be configured"));
        refuses(
                "getKubeconfig",
                refusal(404, "no_kubeconfig", "A Slurm cluster has no kubeconfig"),
                refusal(409, "cluster_not_ready", "The cluster is CREATING; its kubeconfig comes once it is READY"));
        refuses(
                "createHealthCheck",
                refusal(409, "cluster_not_ready", "The cluster is CREATING"),
                refusal(409, "health_checks_not_supported", "This pool's driver cannot run checks"),
                refusal(409, "single_node_cluster", "An all-reduce across nodes needs two nodes or more"),
                refusal(409, "multi_node_checks_not_supported", "This pool's driver runs no check across nodes"));
    }
}
