package dev.allot.provisioning.driver.kubernetes;

/** Label keys and object names the adapter owns; everything it adds to shared objects sits under {@code allot.dev/}. */
final class Names {

    static final String TENANT = "allot.dev/tenant";

    static final String PROJECT = "allot.dev/project";

    static final String RESERVATION = "allot.dev/reservation";

    static final String CUDA_DRIVER = "allot.dev/cuda-driver";

    static final String SHARED_MEMORY = "allot.dev/shared-memory";

    static final String GPUS_PER_NODE = "allot.dev/gpus-per-node";

    static final String VOLUMES = "allot.dev/volumes";

    static final String WINDOW = "allot.dev/window";

    static final String MANAGED_BY = "app.kubernetes.io/managed-by";

    /** Set by NVIDIA GPU feature discovery on every GPU node; pods select the booked driver with it. */
    static final String DRIVER_MAJOR_NODE_LABEL = "nvidia.com/cuda.driver.major";

    static final String GPU_RESOURCE = "nvidia.com/gpu";

    static final String QUOTA = "allot-gpu-quota";

    static final String LIMITS = "allot-limits";

    static final String NETWORK_POLICY = "allot-default-deny";

    static final String ROLE = "allot-tenant";

    static final String ROLE_BINDING = "allot-tenant";

    static final String SERVICE_ACCOUNT = "allot-tenant";

    static final String TOKEN_SECRET = "allot-tenant-token";

    static final String DEFAULTS = "allot-defaults";

    private Names() {}

    /** The group an external OIDC issuer puts the tenant's users in, bound to the tenant role as well. */
    static String tenantGroup(String tenant) {
        return "allot:tenant:" + tenant;
    }
}
