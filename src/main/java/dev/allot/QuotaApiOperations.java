package dev.allot;

import static dev.allot.ApiOperations.op;

import java.util.LinkedHashMap;
import java.util.Map;

/** The names of the operations on quotas, quota requests, projects' quotas, the standing and rate cards (a part of {@link ApiOperations}). */
final class QuotaApiOperations {

    static final Map<String, ApiOperations.Named> NAMED = new LinkedHashMap<>();

    private QuotaApiOperations() {}

    static {
        op(
                NAMED,
                "GET",
                "/tenants/{tenant}/quota",
                "getQuota",
                "quota",
                "Get a tenant's quota",
                "Its policies per GPU type; tenant members may read their own. The ETag header carries its version.");
        op(
                NAMED,
                "PUT",
                "/tenants/{tenant}/quota",
                "replaceQuota",
                "quota",
                "Set a tenant's quota",
                "Replaces every policy (platform admin); refused with 422 guarantees_exceed_capacity when the "
                        + "guarantees of a GPU type would exceed its healthy capacity.");

        op(
                NAMED,
                "POST",
                "/tenants/{tenant}/quota-requests",
                "createQuotaRequest",
                "quota",
                "Ask for a quota",
                "A tenant admin asks for a policy list (as a quota's) with a reason; at most one request of a tenant "
                        + "waits (409 quota_request_pending).");
        op(
                NAMED,
                "GET",
                "/tenants/{tenant}/quota-requests",
                "listTenantQuotaRequests",
                "quota",
                "List a tenant's quota requests",
                "Newest first; tenant members read them.");
        op(
                NAMED,
                "GET",
                "/tenants/{tenant}/quota-requests/{id}",
                "getQuotaRequest",
                "quota",
                "Get a quota request",
                "Its policies, reason, status and decision.");
        op(
                NAMED,
                "POST",
                "/tenants/{tenant}/quota-requests/{id}/withdraw",
                "withdrawQuotaRequest",
                "quota",
                "Withdraw a quota request",
                "The tenant's admin takes back a request still waiting.");
        op(
                NAMED,
                "GET",
                "/quota-requests",
                "listQuotaRequests",
                "quota",
                "List every quota request",
                "Platform admins and auditors; status=PENDING for those waiting.");
        op(
                NAMED,
                "POST",
                "/quota-requests/{id}/approve",
                "approveQuotaRequest",
                "quota",
                "Approve a quota request",
                "Platform admin: applies it with every check of a direct change (a refusal leaves it pending).");
        op(
                NAMED,
                "POST",
                "/quota-requests/{id}/deny",
                "denyQuotaRequest",
                "quota",
                "Deny a quota request",
                "Platform admin, with a reason the tenant sees.");
        op(
                NAMED,
                "GET",
                "/tenants/{tenant}/projects/{project}/quota",
                "getProjectQuota",
                "quota",
                "Get a project's quota",
                "Its caps per GPU type within the tenant's: maxGpus held at once and a monthlyBudget for what its "
                        + "bookings of the type cost in a month; tenant members may read it.");
        op(
                NAMED,
                "PUT",
                "/tenants/{tenant}/projects/{project}/quota",
                "replaceProjectQuota",
                "quota",
                "Set a project's quota",
                "Replaces the project's caps (a tenant admin or a platform admin), each "
                        + "within the tenant's policy of the type. A booking over one answers 422 "
                        + "project_quota_exceeded.");

        op(
                NAMED,
                "GET",
                "/tenants/{tenant}/quota/standing",
                "getQuotaStanding",
                "quota",
                "What is left of a tenant's quota",
                "Per step of the window (default: the next 7 days by the hour): the guarantee, the GPUs held as "
                        + "RESERVED, BORROWED and ON_DEMAND, the lendable part held, and what a new booking would get "
                        + "then; tenant members may read their own.");

        op(
                NAMED,
                "GET",
                "/rate-cards/{gpuType}",
                "getRateCard",
                "rate-cards",
                "Get a GPU type's rates",
                "Hourly prices per rate class.");
        op(
                NAMED,
                "PUT",
                "/rate-cards/{gpuType}",
                "replaceRateCard",
                "rate-cards",
                "Set a GPU type's rates",
                "Applies to bookings quoted from now on (platform admin).");
    }
}
