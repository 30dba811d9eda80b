package dev.allot.provisioning.driver;

import org.jspecify.annotations.Nullable;

/** A driver operation did not reach its goal. {@link #retryable()} tells the lifecycle whether to try again. */
public abstract class ClusterDriverException extends RuntimeException {

    private final boolean retryable;

    protected ClusterDriverException(String message, boolean retryable, @Nullable Throwable cause) {
        super(message, cause);
        this.retryable = retryable;
    }

    /**
     * Never null: a driver failure is made with a message; one a client library left without says "null", as the
     * failure reasons always read it.
     */
    @Override
    public String getMessage() {
        return String.valueOf(super.getMessage());
    }

    public boolean retryable() {
        return retryable;
    }
}
