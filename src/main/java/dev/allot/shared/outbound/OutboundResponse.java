package dev.allot.shared.outbound;

import org.jspecify.annotations.Nullable;

/**
 * How an outbound request ended, as a tenant may see it: the status the receiver answered, or a generic reason
 * ({@link #CONNECTION_FAILED}, {@link #TIMED_OUT}, {@link #REFUSED}). What exactly failed, and at which address,
 * is only logged (logger {@code allot.security}), since it would tell a tenant about Allot's network.
 */
public record OutboundResponse(int status, @Nullable String failure) {

    public static final String CONNECTION_FAILED = "connection failed";

    public static final String TIMED_OUT = "timed out";

    public static final String REFUSED = "refused: address not allowed";

    public static final String TOO_LARGE = "answer too large";

    static OutboundResponse answered(int status) {
        return new OutboundResponse(status, null);
    }

    static OutboundResponse failed(String failure) {
        return new OutboundResponse(0, failure);
    }

    public boolean successful() {
        return failure == null && status / 100 == 2;
    }

    /** What went wrong, for the tenant: null when the receiver answered 2xx, else a reason or "HTTP 500". */
    public @Nullable String error() {
        if (failure != null) {
            return failure;
        }
        return successful() ? null : "HTTP " + status;
    }
}
