package dev.allot.shared.outbound;

import java.util.Objects;

/**
 * A URL the outbound policy refuses. The message says why in words a tenant may read when saving the URL (it
 * names no address the host resolved to); {@link #detail()} adds what an admin needs, for the log only.
 */
public class OutboundRefusedException extends RuntimeException {

    private final String detail;

    private final boolean unresolved;

    OutboundRefusedException(String reason, String detail, boolean unresolved) {
        super(reason, null, false, false);
        this.detail = detail;
        this.unresolved = unresolved;
    }

    /** Never null: a refusal is always made with its reason. */
    @Override
    public String getMessage() {
        return Objects.requireNonNull(super.getMessage(), "a refusal is always made with its reason");
    }

    /** The host did not resolve (in time): at delivery a failure to connect more than a refusal. */
    public boolean unresolved() {
        return unresolved;
    }

    public String detail() {
        return detail;
    }
}
