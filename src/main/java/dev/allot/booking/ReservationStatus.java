package dev.allot.booking;

import dev.allot.booking.queue.BookingQueue;
import dev.allot.booking.store.ReservationStages;

/**
 * Where a reservation is in its lifecycle (docs/architecture.md): {@code CONFIRMED} → {@code PROVISIONING} (a lead
 * time before its start) → {@code ACTIVE} (its cluster is ready) → {@code ENDING} (being torn down) →
 * {@code COMPLETED}; side exits {@code CANCELLED} (by the tenant), {@code FAILED} (provisioning gave up; its nodes
 * released, nothing charged) and {@code PREEMPTED} (a preemptible reservation reclaimed for another tenant's
 * guarantee; final). The reservation row stores only booking's own facts ({@code CANCELLED}, {@code FAILED},
 * {@code PREEMPTED} and the approval and queue states below); {@code PROVISIONING}, {@code ACTIVE}, {@code ENDING}
 * and {@code COMPLETED} are read from its cluster ({@link ReservationStages}); a reservation provisioning never
 * touched is {@code CONFIRMED}, then {@code COMPLETED} once its window has passed.
 */
public enum ReservationStatus {
    CONFIRMED,
    PROVISIONING,
    ACTIVE,
    ENDING,
    COMPLETED,
    CANCELLED,
    FAILED,
    PREEMPTED,

    /** Booked under a policy that asks for approval: holds its nodes, not provisioned or charged, until decided. */
    PENDING_APPROVAL,

    /** A tenant admin or platform admin denied it: its nodes and quota freed, nothing charged (final). */
    DENIED,

    /** Its approval hold ran out, or its start came, undecided; or, queued, its latest start passed unbooked: as
     * {@code DENIED} (final). */
    EXPIRED,

    /**
     * Asked with {@code whenUnavailable: QUEUE} and did not fit: waits in its pool's queue, holding nothing, until
     * capacity frees within its start window ({@code CONFIRMED}, the same reservation) or the window passes
     * ({@code EXPIRED}). See {@link BookingQueue}.
     */
    QUEUED
}
