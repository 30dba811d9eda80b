package dev.allot.shared;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A domain refusal that becomes an RFC 9457 problem. The {@code code} is stable and part of the API:
 * the problem's {@code type} is {@link #TYPE_BASE} followed by it.
 */
public class AllotException extends RuntimeException {

    public static final String TYPE_BASE = "https://allot.dev/problems/";

    private static final Set<String> RESERVED = Set.of("type", "title", "status", "detail", "instance", "code");

    private final int status;

    private final String code;

    private final String title;

    private final Map<String, Object> properties = new LinkedHashMap<>();

    public AllotException(int status, String code, String title, String detail) {
        super(detail);
        this.status = status;
        this.code = code;
        this.title = title;
    }

    /**
     * Never null: an error is made with its detail; one passed a null detail from unannotated code says its title
     * instead (and answering it cannot fail on its own message).
     */
    @Override
    public String getMessage() {
        return Objects.requireNonNullElse(super.getMessage(), title);
    }

    /**
     * An extra member of the problem. RFC 9457's own members ({@code type}, {@code title}, {@code status},
     * {@code detail}, {@code instance}) and {@code code} are not extras: a {@code status} here would replace the
     * HTTP status clients read from the body.
     */
    public AllotException with(String property, Object value) {
        if (RESERVED.contains(property)) {
            throw new IllegalArgumentException("'" + property + "' is a member of every problem, not an extra");
        }
        this.properties.put(property, value);
        return this;
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    public URI type() {
        return URI.create(TYPE_BASE + code);
    }

    public String title() {
        return title;
    }

    public Map<String, Object> properties() {
        return properties;
    }

    public static AllotException notFound(String what) {
        return new AllotException(404, "not_found", "Not found", what + " was not found");
    }

    public static AllotException forbidden(String detail) {
        return new AllotException(403, "forbidden", "Forbidden", detail);
    }

    public static AllotException conflict(String code, String detail) {
        return new AllotException(409, code, "Conflict", detail);
    }

    public static AllotException preconditionRequired(String detail) {
        return new AllotException(428, "precondition_required", "Precondition required", detail);
    }

    public static AllotException preconditionFailed(String detail) {
        return new AllotException(412, "precondition_failed", "Precondition failed", detail);
    }

    public static AllotException unprocessable(String code, String detail) {
        return new AllotException(422, code, "Unprocessable request", detail);
    }

    public static AllotException tenantSuspended(String tenant) {
        return new AllotException(
                403,
                "tenant_suspended",
                "Tenant suspended",
                "Tenant " + tenant + " is suspended: it can read but not change anything");
    }
}
