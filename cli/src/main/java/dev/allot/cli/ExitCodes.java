package dev.allot.cli;

/**
 * What a pipeline can branch on. Stable: scripts depend on these numbers.
 */
public final class ExitCodes {

	public static final int OK = 0;

	/** Anything else: a 5xx, a network failure, a cluster that failed, a timeout. */
	public static final int FAILED = 1;

	/** Bad input: an unknown option, an unparsable value, a 400 or 404 from the server. */
	public static final int BAD_INPUT = 2;

	/** The pool has no room for the window (409 capacity_not_available); the problem names alternatives. */
	public static final int NO_CAPACITY = 3;

	/** The tenant's quota or budget refuses the booking (422 quota_exceeded and every other 422 refusal). */
	public static final int QUOTA = 4;

	/** Not signed in, bad credentials (401) or not allowed (403). */
	public static final int AUTH = 5;

	private ExitCodes() {
	}

}
