package dev.allot.billing.webhooks;

import io.swagger.v3.oas.annotations.media.Schema;

/**
 * What a lifecycle webhook can be told. {@code PROVISIONING} and {@code DEGRADED} can be subscribed to,
 * but no module publishes an event for them yet, so nothing is sent for them today.
 */
@Schema(enumAsRef = true, description = "What a lifecycle webhook can be told")
public enum LifecycleEvent {

    /** A booking committed: the reservation holds its nodes for the window. */
    CONFIRMED,

    /** Reserved: the cluster is being built (not published yet). */
    PROVISIONING,

    /** The cluster passed its checks and was handed over. */
    READY,

    /** Reserved: the cluster is usable but something is wrong (not published yet). */
    DEGRADED,

    /** The reservation was preempted: reclaimed for another tenant's guarantee (who is never said). */
    PREEMPTED,

    /** The cluster was handed over and is now torn down (the window is over, or the reservation was cancelled). */
    COMPLETED,

    /** Provisioning gave up: the reservation is over and costs nothing. */
    FAILED,

    /** A booking waits for a tenant admin's approval, holding its nodes. */
    PENDING_APPROVAL,

    /** A booking that waited was approved: CONFIRMED follows. */
    APPROVED,

    /** A booking that waited was denied: its nodes are freed, nothing is charged. */
    DENIED,

    /** A booking that waited was not decided in time, or a queued one found no room before its latest start: it
     * held nothing at the end, nothing is charged. */
    EXPIRED,

    /** A booking did not fit and waits in its pool's queue, holding nothing. */
    QUEUED,

    /** A queued booking was booked: CONFIRMED follows. */
    DEQUEUED
}
