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

    private static void op(
            String method, String path, String operationId, String tag, String summary, String description) {
        if (ALL.put(method + " /api/v1" + path, new Named(operationId, tag, summary, description)) != null) {
            throw new IllegalStateException("Named twice: " + method + " " + path);
        }
    }

    static {
        op(
                "GET",
                "/me",
                "getMe",
                "me",
                "Who am I",
                "The caller behind the token or session: its kind, platform roles and tenant memberships.");

        op(
                "GET",
                "/tenants",
                "listTenants",
                "tenants",
                "List tenants",
                "Every tenant (platform admins and auditors), a page at a time.");
        op(
                "POST",
                "/tenants",
                "createTenant",
                "tenants",
                "Create a tenant",
                "A new team sharing the fleet; it can book once a platform admin gives it a quota.");
        op(
                "GET",
                "/tenants/{tenant}",
                "getTenant",
                "tenants",
                "Get a tenant",
                "The tenant with its status; the ETag header carries its version.");
        op(
                "PATCH",
                "/tenants/{tenant}",
                "updateTenant",
                "tenants",
                "Rename, suspend or reactivate a tenant",
                "Changes the display name or the status; with If-Match, only if the tenant is still at that version.");

        op(
                "GET",
                "/tenants/{tenant}/projects",
                "listProjects",
                "projects",
                "List a tenant's projects",
                "The projects bookings and budgets are charged to.");
        op(
                "POST",
                "/tenants/{tenant}/projects",
                "createProject",
                "projects",
                "Create a project",
                "A project of the tenant (tenant admin).");
        op(
                "GET",
                "/tenants/{tenant}/projects/{project}",
                "getProject",
                "projects",
                "Get a project",
                "One project of the tenant.");
        op(
                "GET",
                "/tenants/{tenant}/projects/{project}/members",
                "listProjectMembers",
                "projects",
                "List a project's members",
                "Users and their role in the project (PROJECT_ADMIN, PROJECT_MEMBER or "
                        + "PROJECT_VIEWER); readable by whoever sees the project.");
        op(
                "PUT",
                "/tenants/{tenant}/projects/{project}/members/{username}",
                "putProjectMember",
                "projects",
                "Give a user a role in a project",
                "A tenant admin or a PROJECT_ADMIN of the project: 201 when the "
                        + "user had no role in it, 200 when it is changed. A user with only project roles in a tenant "
                        + "sees and books only in those projects; an unknown user is 404 unknown_user.");
        op(
                "DELETE",
                "/tenants/{tenant}/projects/{project}/members/{username}",
                "removeProjectMember",
                "projects",
                "Remove a user from a project",
                "A tenant admin or a PROJECT_ADMIN of the project; takes effect on " + "the user's next request.");

        op(
                "GET",
                "/tenants/{tenant}/members",
                "listMembers",
                "members",
                "List a tenant's members",
                "Users and their tenant role.");
        op(
                "POST",
                "/tenants/{tenant}/members",
                "addMember",
                "members",
                "Add a member",
                "A platform admin adds the user at once (201, the member). A tenant admin invites them (202, the "
                        + "invitation): they become a member only when they accept it (POST /invitations/{id}/accept).");
        op(
                "GET",
                "/invitations",
                "listInvitations",
                "members",
                "List my invitations",
                "The signed-in user's invitations to join tenants that wait for an answer (expired ones say so).");
        op(
                "POST",
                "/invitations/{id}/accept",
                "acceptInvitation",
                "members",
                "Accept an invitation",
                "Only the invited user, once, before it expires: makes them a member with the invited role.");
        op(
                "POST",
                "/invitations/{id}/decline",
                "declineInvitation",
                "members",
                "Decline an invitation",
                "Only the invited user, once: nothing else changes.");
        op(
                "GET",
                "/tenants/{tenant}/members/{username}",
                "getMember",
                "members",
                "Get a member",
                "One member and its role.");
        op(
                "PUT",
                "/tenants/{tenant}/members/{username}",
                "changeMemberRole",
                "members",
                "Change a member's role",
                "Takes effect on the member's next request.");
        op(
                "DELETE",
                "/tenants/{tenant}/members/{username}",
                "removeMember",
                "members",
                "Remove a member",
                "Takes effect on the member's next request.");

        op(
                "GET",
                "/tenants/{tenant}/service-accounts",
                "listServiceAccounts",
                "service-accounts",
                "List service accounts",
                "The tenant's OAuth2 clients for CI, without their secrets.");
        op(
                "POST",
                "/tenants/{tenant}/service-accounts",
                "createServiceAccount",
                "service-accounts",
                "Create a service account",
                "An OAuth2 client for CI; the answer carries its secret, the only time it is shown. With a "
                        + "\"project\" it is scoped to that project: its tokens see and book only there (role MEMBER) "
                        + "or only read there (role VIEWER).");
        op(
                "GET",
                "/tenants/{tenant}/service-accounts/{id}",
                "getServiceAccount",
                "service-accounts",
                "Get a service account",
                "One service account, without its secret.");
        op(
                "DELETE",
                "/tenants/{tenant}/service-accounts/{id}",
                "revokeServiceAccount",
                "service-accounts",
                "Revoke a service account",
                "Its tokens stop working at once.");

        op("GET", "/users", "listUsers", "users", "List users", "Local users (platform admins and auditors).");
        op(
                "POST",
                "/users",
                "createUser",
                "users",
                "Create a user",
                "A local user; without a password one is generated and shown once.");
        op("GET", "/users/{username}", "getUser", "users", "Get a user", "One local user and its platform roles.");

        op(
                "GET",
                "/tenants/{tenant}/quota",
                "getQuota",
                "quota",
                "Get a tenant's quota",
                "Its policies per GPU type; tenant members may read their own. The ETag header carries its version.");
        op(
                "PUT",
                "/tenants/{tenant}/quota",
                "replaceQuota",
                "quota",
                "Set a tenant's quota",
                "Replaces every policy (platform admin); refused with 422 guarantees_exceed_capacity when the "
                        + "guarantees of a GPU type would exceed its healthy capacity.");

        op(
                "POST",
                "/tenants/{tenant}/quota-requests",
                "createQuotaRequest",
                "quota",
                "Ask for a quota",
                "A tenant admin asks for a policy list (as a quota's) with a reason; at most one request of a tenant "
                        + "waits (409 quota_request_pending).");
        op(
                "GET",
                "/tenants/{tenant}/quota-requests",
                "listTenantQuotaRequests",
                "quota",
                "List a tenant's quota requests",
                "Newest first; tenant members read them.");
        op(
                "GET",
                "/tenants/{tenant}/quota-requests/{id}",
                "getQuotaRequest",
                "quota",
                "Get a quota request",
                "Its policies, reason, status and decision.");
        op(
                "POST",
                "/tenants/{tenant}/quota-requests/{id}/withdraw",
                "withdrawQuotaRequest",
                "quota",
                "Withdraw a quota request",
                "The tenant's admin takes back a request still waiting.");
        op(
                "GET",
                "/quota-requests",
                "listQuotaRequests",
                "quota",
                "List every quota request",
                "Platform admins and auditors; status=PENDING for those waiting.");
        op(
                "POST",
                "/quota-requests/{id}/approve",
                "approveQuotaRequest",
                "quota",
                "Approve a quota request",
                "Platform admin: applies it with every check of a direct change (a refusal leaves it pending).");
        op(
                "POST",
                "/quota-requests/{id}/deny",
                "denyQuotaRequest",
                "quota",
                "Deny a quota request",
                "Platform admin, with a reason the tenant sees.");
        op(
                "GET",
                "/tenants/{tenant}/projects/{project}/quota",
                "getProjectQuota",
                "quota",
                "Get a project's quota",
                "Its caps per GPU type within the tenant's: maxGpus held at once and a monthlyBudget for what its "
                        + "bookings of the type cost in a month; tenant members may read it.");
        op(
                "PUT",
                "/tenants/{tenant}/projects/{project}/quota",
                "replaceProjectQuota",
                "quota",
                "Set a project's quota",
                "Replaces the project's caps (a tenant admin or a platform admin), each "
                        + "within the tenant's policy of the type. A booking over one answers 422 "
                        + "project_quota_exceeded.");

        op(
                "GET",
                "/tenants/{tenant}/quota/standing",
                "getQuotaStanding",
                "quota",
                "What is left of a tenant's quota",
                "Per step of the window (default: the next 7 days by the hour): the guarantee, the GPUs held as "
                        + "RESERVED, BORROWED and ON_DEMAND, the lendable part held, and what a new booking would get "
                        + "then; tenant members may read their own.");

        op(
                "GET",
                "/rate-cards/{gpuType}",
                "getRateCard",
                "rate-cards",
                "Get a GPU type's rates",
                "Hourly prices per rate class.");
        op(
                "PUT",
                "/rate-cards/{gpuType}",
                "replaceRateCard",
                "rate-cards",
                "Set a GPU type's rates",
                "Applies to bookings quoted from now on (platform admin).");

        op("GET", "/gpu-types", "listGpuTypes", "gpu-types", "List GPU types", "Every GPU type of the fleet.");
        op("POST", "/gpu-types", "createGpuType", "gpu-types", "Create a GPU type", "Platform admin.");
        op("GET", "/gpu-types/{code}", "getGpuType", "gpu-types", "Get a GPU type", "One GPU type.");

        op(
                "GET",
                "/pools",
                "listPools",
                "pools",
                "List pools",
                "Every pool the caller may see, with its GPU type and size: a pool dedicated to other tenants is "
                        + "left out.");
        op(
                "POST",
                "/pools",
                "createPool",
                "pools",
                "Create a pool",
                "Platform admin. dedicatedTo (tenant slugs) makes it theirs alone: other tenants neither see nor book "
                        + "it, and its capacity counts only for its tenants' guarantees.");
        op(
                "GET",
                "/pools/{pool}",
                "getPool",
                "pools",
                "Get a pool",
                "One pool with its GPU type and size; 404 for a pool dedicated to other tenants.");
        op(
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
                "GET",
                "/pools/{pool}/nodes",
                "listNodes",
                "nodes",
                "List a pool's nodes",
                "Nodes with their topology and state.");
        op(
                "POST",
                "/pools/{pool}/nodes",
                "addNode",
                "nodes",
                "Add a node",
                "A node with its rack, InfiniBand block and CUDA drivers (platform admin).");
        op("GET", "/nodes/{hostname}", "getNode", "nodes", "Get a node", "One node, its topology and state.");
        op(
                "POST",
                "/nodes/{hostname}/quarantine",
                "quarantineNode",
                "nodes",
                "Quarantine a node",
                "Takes it out of service with a reason (platform admin).");
        op(
                "POST",
                "/nodes/{hostname}/release",
                "releaseNode",
                "nodes",
                "Release a node",
                "Returns a quarantined node to service (platform admin).");
        op(
                "POST",
                "/nodes/{hostname}/events",
                "reportNodeEvent",
                "nodes",
                "Report a node health event",
                "An Xid, ECC errors or a DCGM health event from an exporter; it feeds tiered remediation (reboot, or "
                        + "quarantine and replacement) and answers the fault class and what was done.");
        op(
                "POST",
                "/nodes/{hostname}/state",
                "changeNodeState",
                "nodes",
                "Change a node's state",
                "Moves a node between its states, audited (platform admin).");

        op(
                "GET",
                "/capacity",
                "getCapacity",
                "capacity",
                "Read the capacity calendar",
                "Free, allocated and unhealthy GPUs of a pool per step; counts only, never who.");
        op(
                "GET",
                "/capacity/earliest",
                "findEarliestWindows",
                "capacity",
                "Find the earliest windows",
                "The earliest windows where the request fits, within the tenant's quota, each with its quote.");
        op(
                "POST",
                "/capacity/rebuild",
                "rebuildCapacity",
                "capacity",
                "Rebuild a pool's calendar",
                "Recomputes the calendar from the allocations; a repair, normally never needed (platform admin).");

        op(
                "POST",
                "/tenants/{tenant}/quotes",
                "createQuote",
                "reservations",
                "Quote a booking",
                "Whether it fits, the rate-class split and the price, without booking.");
        op(
                "GET",
                "/tenants/{tenant}/reservations",
                "listReservations",
                "reservations",
                "List reservations",
                "The tenant's reservations, filtered by status and window.");
        op(
                "POST",
                "/tenants/{tenant}/reservations",
                "createReservation",
                "reservations",
                "Book nodes",
                "Books whole nodes for a window. Nothing is written unless it answers 201 (or 202: with "
                        + "whenUnavailable QUEUE, a booking that does not fit waits in its pool's queue as QUEUED); 409 "
                        + "capacity_not_available names earliestStart and alternatives when any exist.");
        op(
                "GET",
                "/pools/{pool}/queue",
                "getPoolQueue",
                "pools",
                "Read a pool's queue",
                "Platform admin: the queued bookings of the pool in the order they are booked when capacity frees "
                        + "(priority class, then time queued, no tenant holding more than half of the head while "
                        + "others wait).");
        op(
                "GET",
                "/tenants/{tenant}/reservations/{id}",
                "getReservation",
                "reservations",
                "Get a reservation",
                "The reservation; the ETag header carries its version, for If-Match.");
        op(
                "PATCH",
                "/tenants/{tenant}/reservations/{id}",
                "extendReservation",
                "reservations",
                "Extend a reservation",
                "Moves endsAt later on the same nodes; needs If-Match (428 without it).");
        op(
                "POST",
                "/tenants/{tenant}/reservations/{id}/approve",
                "approveReservation",
                "reservations",
                "Approve a booking",
                "A booking its tenant's policy asks approval for waits as PENDING_APPROVAL, "
                        + "holding its nodes; approved (by a tenant admin or a project admin of its project other than "
                        + "its requester, or a platform admin) it is CONFIRMED at the price quoted, and provisioned and billed from then on.");
        op(
                "POST",
                "/tenants/{tenant}/reservations/{id}/deny",
                "denyReservation",
                "reservations",
                "Deny a booking",
                "DENIED, with the reason: its nodes and quota are freed and nothing is charged.");
        op(
                "POST",
                "/tenants/{tenant}/reservations/{id}/cancel",
                "cancelReservation",
                "reservations",
                "Cancel a reservation",
                "Frees its nodes; the cluster is torn down.");

        op(
                "GET",
                "/tenants/{tenant}/reservations/{id}/cluster",
                "getClusterStatus",
                "clusters",
                "Get a reservation's cluster",
                "State, endpoints, nodes and timeline; with waitFor it long-polls until that state (or one that "
                        + "ends the wait) or the timeout.");
        op(
                "GET",
                "/tenants/{tenant}/reservations/{id}/cluster/kubeconfig",
                "getKubeconfig",
                "clusters",
                "Download the kubeconfig",
                "The namespace-scoped kubeconfig of a ready Kubernetes cluster (YAML).");
        op(
                "POST",
                "/tenants/{tenant}/reservations/{id}/health-checks",
                "createHealthCheck",
                "health-checks",
                "Run a health check",
                "Queues an on-demand check of the reservation's nodes (202): on each node alone, "
                        + "or with acrossNodes an NCCL all-reduce as one job across all of them.");
        op(
                "GET",
                "/tenants/{tenant}/reservations/{id}/health-checks/{check}",
                "getHealthCheck",
                "health-checks",
                "Get a health check",
                "Its status and the result per node.");
        op(
                "GET",
                "/tenants/{tenant}/volumes",
                "listVolumes",
                "volumes",
                "List volumes",
                "The tenant's volumes not deleted: those of its reservations and those retained after them.");
        op(
                "GET",
                "/tenants/{tenant}/volumes/{id}",
                "getVolume",
                "volumes",
                "Get a volume",
                "Where it lives, its status and, for a monitored limit, what it holds.");
        op(
                "DELETE",
                "/tenants/{tenant}/volumes/{id}",
                "deleteVolume",
                "volumes",
                "Delete a retained volume",
                "It stops counting against storageGi and being billed at once; the pool removes its data.");

        op(
                "GET",
                "/tenants/{tenant}/usage",
                "getUsage",
                "usage",
                "Read usage",
                "GPU-hours and cost grouped as asked; JSON, or CSV with Accept: text/csv.");
        op(
                "GET",
                "/tenants/{tenant}/statements/{month}",
                "getStatement",
                "billing",
                "Get a monthly statement",
                "The statement of a month that has started; JSON, or CSV with Accept: text/csv.");
        op(
                "GET",
                "/tenants/{tenant}/ledger",
                "listLedgerTransactions",
                "billing",
                "Read the ledger",
                "The tenant's double-entry ledger transactions, newest first.");
        op(
                "POST",
                "/tenants/{tenant}/ledger/{transactionId}/reversal",
                "reverseLedgerTransaction",
                "billing",
                "Reverse a ledger transaction",
                "Books the opposite entries (platform admin).");
        op(
                "GET",
                "/tenants/{tenant}/budget",
                "getBudget",
                "budgets",
                "Get the tenant's budget",
                "The monthly budget, its alert thresholds and webhook.");
        op(
                "PUT",
                "/tenants/{tenant}/budget",
                "replaceBudget",
                "budgets",
                "Set the tenant's budget",
                "Monthly amount, thresholds and an optional signed webhook (tenant admin).");
        op(
                "GET",
                "/tenants/{tenant}/projects/{project}/budget",
                "getProjectBudget",
                "budgets",
                "Get a project's budget",
                "The project's monthly cap and thresholds.");
        op(
                "PUT",
                "/tenants/{tenant}/projects/{project}/budget",
                "replaceProjectBudget",
                "budgets",
                "Set a project's budget",
                "A monthly cap for the project (tenant admin).");
        op(
                "DELETE",
                "/tenants/{tenant}/projects/{project}/budget",
                "deleteProjectBudget",
                "budgets",
                "Remove a project's budget",
                "The project is then bounded by the tenant's budget only.");
        op(
                "GET",
                "/tenants/{tenant}/idle-reclaim",
                "getIdleReclaim",
                "notifications",
                "Get the idle reclaim policy",
                "What happens to the tenant's reservations whose GPUs stay idle: OFF (default), NOTIFY, or RELEASE "
                        + "after afterHours idle with noticeMinutes of notice; tenant members may read their own.");
        op(
                "PUT",
                "/tenants/{tenant}/idle-reclaim",
                "replaceIdleReclaim",
                "notifications",
                "Set the idle reclaim policy",
                "Platform admin; audited.");
        op(
                "GET",
                "/tenants/{tenant}/notifications",
                "listNotifications",
                "notifications",
                "List notifications",
                "Budget alerts, preemptions and other notices for the tenant.");
        op(
                "GET",
                "/tenants/{tenant}/webhooks",
                "listWebhooks",
                "webhooks",
                "List lifecycle webhooks",
                "The tenant's webhooks, the events each is sent and its last delivery; never their secrets.");
        op(
                "POST",
                "/tenants/{tenant}/webhooks",
                "createWebhook",
                "webhooks",
                "Register a lifecycle webhook",
                "A URL sent CONFIRMED, READY, COMPLETED or FAILED (all events unless some are named) for the "
                        + "tenant's reservations, signed X-Allot-Signature with the secret like budget webhooks "
                        + "(tenant admin).");
        op(
                "GET",
                "/tenants/{tenant}/webhooks/{id}",
                "getWebhook",
                "webhooks",
                "Get a lifecycle webhook",
                "The webhook, its events and its last delivery.");
        op(
                "DELETE",
                "/tenants/{tenant}/webhooks/{id}",
                "deleteWebhook",
                "webhooks",
                "Delete a lifecycle webhook",
                "Nothing more is sent to it, not even retries (tenant admin).");
        op(
                "GET",
                "/tenants/{tenant}/webhooks/{id}/deliveries",
                "listWebhookDeliveries",
                "webhooks",
                "List a webhook's deliveries",
                "Newest first: each delivery's event, status, attempts and the generic "
                        + "reason its last attempt failed.");

        op(
                "GET",
                "/reports/platform",
                "getPlatformReport",
                "reports",
                "Read the platform report",
                "Utilisation and revenue across tenants (platform admins and auditors).");
        op(
                "POST",
                "/telemetry/gpu-utilisation",
                "ingestGpuUtilisation",
                "telemetry",
                "Send GPU utilisation samples",
                "From an exporter; they feed idle detection and usage charts. A batch is stored whole or not at all: "
                        + "a sample stamped ahead of Allot's clock (beyond allot.billing.telemetry-clock-skew) or at "
                        + "an instant when no reservation held its node gets 422, naming each such sample.");
        op(
                "GET",
                "/audit-events",
                "listAuditEvents",
                "audit",
                "Read the audit trail",
                "Every change, who made it and when (platform admins and auditors).");
        op(
                "POST",
                "/signing-keys/rotate",
                "rotateSigningKey",
                "signing-keys",
                "Rotate the token signing key",
                "The new key signs; the old one verifies until the longest token lifetime has passed (platform admin).");
        op(
                "POST",
                "/signing-keys/{kid}/retire",
                "retireSigningKey",
                "signing-keys",
                "Retire a signing key at once",
                "For a key known to be compromised: it stops verifying now, and every token it signed is refused; "
                        + "when it is the signing key, a new one signs from now (platform admin).");

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
