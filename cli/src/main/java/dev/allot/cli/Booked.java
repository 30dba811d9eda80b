package dev.allot.cli;

import dev.allot.client.model.ClusterStatusBody;
import dev.allot.client.model.ReservationBody;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A booking under way or made, and what the CLI prints about it: exactly once, on every outcome after the request
 * was sent (the wait reached its state, timed out, ended elsewhere or broke off, the process was interrupted), so
 * that a pipeline reading {@code -o json} always learns the id of what it booked, or the key to ask again with.
 */
final class Booked {

    enum Outcome {
        BOOKED,
        REACHED,
        TIMED_OUT,
        ENDED,
        WAIT_FAILED,
        INTERRUPTED
    }

    private final Session session;

    private final String idempotencyKey;

    private volatile ReservationBody reservation;

    private volatile ClusterStatusBody cluster;

    private boolean cancelled;

    private boolean printed;

    private Thread hook;

    Booked(Session session, String idempotencyKey) {
        this.session = session;
        this.idempotencyKey = idempotencyKey;
    }

    /** The server's 201 (until then an interrupt prints only the idempotency key to retry with). */
    void answered(ReservationBody reservation) {
        this.reservation = reservation;
    }

    ReservationBody reservation() {
        return this.reservation;
    }

    void seen(ClusterStatusBody cluster) {
        this.cluster = cluster;
    }

    void cancelled(ReservationBody cancelled) {
        this.reservation = cancelled;
        this.cancelled = true;
    }

    /** Prints the booking (with -o json) unless printed already; returns {@code exitCode}. */
    synchronized int finish(Outcome outcome, String reason, int exitCode) {
        if (this.printed) {
            return exitCode;
        }
        this.printed = true;
        if (this.session.json()) {
            Map<String, Object> out = new LinkedHashMap<>();
            if (this.reservation != null) {
                out.put("reservation", this.reservation);
            }
            if (this.cluster != null) {
                out.put("cluster", this.cluster);
            }
            out.put("idempotencyKey", this.idempotencyKey);
            out.put("outcome", outcome.name());
            if (reason != null) {
                out.put("reason", reason);
            }
            if (this.cancelled) {
                out.put("cancelled", true);
            }
            out.put("exitCode", exitCode);
            this.session.printJson(out);
        }
        return exitCode;
    }

    /** A shutdown hook (SIGINT, SIGTERM) that still prints the booking and the cluster as last seen. */
    synchronized Thread onInterrupt() {
        this.hook = new Thread(
                () -> {
                    ReservationBody booked = this.reservation;
                    String why = booked == null
                            ? "interrupted before the server answered; run again with --idempotency-key "
                                    + this.idempotencyKey + " to get what it booked, if anything"
                            : "interrupted while waiting; reservation " + booked.getId()
                                    + " is still booked: cancel it with: allot cancel " + booked.getId();
                    this.session.err().println("allot: " + why);
                    this.session.err().flush();
                    finish(Outcome.INTERRUPTED, why, 130);
                },
                "allot-interrupted");
        return this.hook;
    }

    synchronized void removeHook() {
        if (this.hook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(this.hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs (or ran) and prints at most once
            }
            this.hook = null;
        }
    }
}
