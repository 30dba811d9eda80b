package dev.allot.quota;

import dev.allot.shared.AllotException;

/** A booking the tenant's quota refuses: names the limit, what it allows, and by how much the request exceeds it. */
public class QuotaExceededException extends AllotException {

    private final String limit;

    QuotaExceededException(String limit, String detail) {
        this("quota_exceeded", limit, detail);
    }

    /** {@code code}: {@code quota_exceeded} for the tenant's quota, {@code project_quota_exceeded} for a project's. */
    QuotaExceededException(String code, String limit, String detail) {
        super(422, code, code.equals("quota_exceeded") ? "Quota exceeded" : "Project quota exceeded", detail);
        this.limit = limit;
        with("limit", limit);
    }

    public String limit() {
        return limit;
    }

    static QuotaExceededException noPolicy(String gpuType) {
        return (QuotaExceededException)
                new QuotaExceededException("policy", "The tenant has no quota for GPU type " + gpuType)
                        .with("gpuType", gpuType);
    }
}
