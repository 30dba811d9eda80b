package dev.allot.provisioning.driver;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** A driver operation did not reach its goal. {@link #retryable()} tells the lifecycle whether to try again. */
public abstract class ClusterDriverException extends RuntimeException {

    private final boolean retryable;

    protected ClusterDriverException(String message, boolean retryable, @Nullable Throwable cause) {
        super(message, cause);
        this.retryable = retryable;
    }

    /** Never null: a driver failure is always made with a message. */
    @Override
    public String getMessage() {
        return Objects.requireNonNull(super.getMessage(), "a driver failure has a message");
    }

    public boolean retryable() {
        return retryable;
    }
}
