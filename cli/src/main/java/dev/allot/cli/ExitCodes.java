package dev.allot.cli;

/**
 * What a pipeline can branch on. Stable: scripts depend on these numbers. 6, 7 and 8 mean a booking exists (its
 * JSON is on stdout with {@code -o json}): cancel it, or keep it, but never lose it.
 */
public final class ExitCodes {

    public static final int OK = 0;

    /** Anything else: a 5xx or a network failure (after the retries), a failure before anything was booked. */
    public static final int FAILED = 1;

    /** Bad input: an unknown option, an unparsable value, a 400 or 404 from the server. */
    public static final int BAD_INPUT = 2;

    /** The pool has no room for the window (409 capacity_not_available); the problem names alternatives. */
    public static final int NO_CAPACITY = 3;

    /** The tenant's quota or budget refuses the booking (422 quota_exceeded and every other 422 refusal). */
    public static final int QUOTA = 4;

    /** Not signed in, bad credentials (401) or not allowed (403). */
    public static final int AUTH = 5;

    /** Booked (or cancelled), but the cluster did not reach the awaited state within --wait-timeout. */
    public static final int WAIT_TIMED_OUT = 6;

    /**
     * Booked (or cancelled), but the cluster reached a state from which the awaited one will not come: FAILED,
     * DELETED, DEGRADED (for READY), or the reservation is over.
     */
    public static final int WAIT_ENDED = 7;

    /** Booked, but the wait itself broke off: the server or the network failed after the retries. */
    public static final int WAIT_FAILED = 8;

    private ExitCodes() {}
}
