package dev.allot.provisioning.driver;

import org.jspecify.annotations.Nullable;

/** A driver operation did not reach its goal. {@link #retryable()} tells the lifecycle whether to try again. */
public abstract class ClusterDriverException extends RuntimeException {

    private final boolean retryable;

    protected ClusterDriverException(String message, boolean retryable, @Nullable Throwable cause) {
        super(message, cause);
        this.retryable = retryable;
    }

    public boolean retryable() {
        return retryable;
    }
}
