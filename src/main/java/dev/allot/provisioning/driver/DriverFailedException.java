package dev.allot.provisioning.driver;

import org.jspecify.annotations.Nullable;

/** The infrastructure answered with an error, or could not be reached (then a retry may help). */
public class DriverFailedException extends ClusterDriverException {

    public DriverFailedException(String message, boolean retryable, @Nullable Throwable cause) {
        super(message, retryable, cause);
    }

    public DriverFailedException(String message, boolean retryable) {
        this(message, retryable, null);
    }
}
