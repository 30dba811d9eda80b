package dev.allot;

import static dev.allot.ApiOperations.op;

import java.util.LinkedHashMap;
import java.util.Map;

/** The names of the operations on idle reclaim, notifications, webhooks, reports, telemetry, the audit trail and signing keys (a part of {@link ApiOperations}). */
final class PlatformApiOperations {

    static final Map<String, ApiOperations.Named> NAMED = new LinkedHashMap<>();

    private PlatformApiOperations() {}

    static {
        op(
                NAMED,
                "GET",
                "/tenants/{tenant}/idle-reclaim",
                "getIdleReclaim",
                "notifications",
                "Get the idle reclaim policy",
                "What happens to the tenant's reservations whose GPUs stay idle: OFF (default), NOTIFY, or RELEASE "
                        + "after afterHours idle with noticeMinutes of notice; tenant members may read their own.");
        op(
                NAMED,
                "PUT",
                "/tenants/{tenant}/idle-reclaim",
                "replaceIdleReclaim",
                "notifications",
                "Set the idle reclaim policy",
                "Platform admin; audited.");
        op(
                NAMED,
                "GET",
                "/tenants/{tenant}/notifications",
                "listNotifications",
                "notifications",
                "List notifications",
                "Budget alerts, preemptions and other notices for the tenant.");
        op(
                NAMED,
                "GET",
                "/tenants/{tenant}/webhooks",
                "listWebhooks",
                "webhooks",
                "List lifecycle webhooks",
                "The tenant's webhooks, the events each is sent and its last delivery; never their secrets.");
        op(
                NAMED,
                "POST",
                "/tenants/{tenant}/webhooks",
                "createWebhook",
                "webhooks",
                "Register a lifecycle webhook",
                "A URL sent CONFIRMED, READY, COMPLETED or FAILED (all events unless some are named) for the "
                        + "tenant's reservations, signed X-Allot-Signature with the secret like budget webhooks "
                        + "(tenant admin).");
        op(
                NAMED,
                "GET",
                "/tenants/{tenant}/webhooks/{id}",
                "getWebhook",
                "webhooks",
                "Get a lifecycle webhook",
                "The webhook, its events and its last delivery.");
        op(
                NAMED,
                "DELETE",
                "/tenants/{tenant}/webhooks/{id}",
                "deleteWebhook",
                "webhooks",
                "Delete a lifecycle webhook",
                "Nothing more is sent to it, not even retries (tenant admin).");
        op(
                NAMED,
                "GET",
                "/tenants/{tenant}/webhooks/{id}/deliveries",
                "listWebhookDeliveries",
                "webhooks",
                "List a webhook's deliveries",
                "Newest first: each delivery's event, status, attempts and the generic "
                        + "reason its last attempt failed.");

        op(
                NAMED,
                "GET",
                "/reports/platform",
                "getPlatformReport",
                "reports",
                "Read the platform report",
                "Utilisation and revenue across tenants (platform admins and auditors).");
        op(
                NAMED,
                "POST",
                "/telemetry/gpu-utilisation",
                "ingestGpuUtilisation",
                "telemetry",
                "Send GPU utilisation samples",
                "From an exporter; they feed idle detection and usage charts. A batch is stored whole or not at all: "
                        + "a sample stamped ahead of Allot's clock (beyond allot.billing.telemetry-clock-skew) or at "
                        + "an instant when no reservation held its node gets 422, naming each such sample.");
        op(
                NAMED,
                "GET",
                "/audit-events",
                "listAuditEvents",
                "audit",
                "Read the audit trail",
                "Every change, who made it and when (platform admins and auditors).");
        op(
                NAMED,
                "POST",
                "/signing-keys/rotate",
                "rotateSigningKey",
                "signing-keys",
                "Rotate the token signing key",
                "The new key signs; the old one verifies until the longest token lifetime has passed (platform admin).");
        op(
                NAMED,
                "POST",
                "/signing-keys/{kid}/retire",
                "retireSigningKey",
                "signing-keys",
                "Retire a signing key at once",
                "For a key known to be compromised: it stops verifying now, and every token it signed is refused; "
                        + "when it is the signing key, a new one signs from now (platform admin).");
    }
}
