package dev.allot.provisioning.driver;

import dev.allot.shared.Slugs;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;

/**
 * {@code allot.provisioning}: which driver serves each pool, and how to reach its infrastructure.
 * <p>
 * Credentials never appear here: a Kubernetes pool names a kubeconfig <em>file</em> (or uses the in-cluster
 * service account), a Slurm pool runs {@code scontrol}/{@code sacctmgr} as the local user or through a command
 * prefix such as {@code ssh slurm-ctl} whose keys live in the host's SSH configuration. So nothing secret
 * reaches the database, the logs or {@code /actuator/configprops}.
 *
 * @param timeout default bound of one driver operation
 * @param defaultDriver the driver of a pool not listed in {@code pools}: {@code fake} (the embedded default)
 * or {@code none} (refuse, for production)
 * @param pools per pool slug
 */
@ConfigurationProperties("allot.provisioning")
public record DriverProperties(Duration timeout, DriverKind defaultDriver, Map<String, Pool> pools) {

    public DriverProperties {
        timeout = positive(timeout == null ? Duration.ofMinutes(2) : timeout, "allot.provisioning.timeout");
        defaultDriver = defaultDriver == null ? DriverKind.FAKE : defaultDriver;
        pools = pools == null ? Map.of() : Map.copyOf(pools);
        pools.keySet().forEach(pool -> {
            if (!Slugs.isValid(pool)) {
                throw new IllegalArgumentException("allot.provisioning.pools: pool '" + pool + "' " + Slugs.MESSAGE);
            }
        });
    }

    public Duration timeoutOf(String pool) {
        Pool config = pools.get(pool);
        return config != null && config.timeout() != null ? config.timeout() : timeout;
    }

    public enum DriverKind {
        FAKE,
        KUBERNETES,
        SLURM,
        NONE
    }

    /** One pool's driver; only the block of the chosen driver is read. */
    public record Pool(
            DriverKind driver,
            @Nullable Duration timeout,
            @Nullable KubernetesPool kubernetes,
            @Nullable SlurmPool slurm,
            @Nullable FakePool fake) {

        public Pool {
            if (driver == null) {
                throw new IllegalArgumentException("a pool needs a driver: fake, kubernetes, slurm or none");
            }
            if (timeout != null) {
                positive(timeout, "pool timeout");
            }
            kubernetes = driver == DriverKind.KUBERNETES && kubernetes == null
                    ? new KubernetesPool(null, null, null, null, KubernetesPool.DEFAULT_TOKEN_WAIT)
                    : kubernetes;
            slurm = driver == DriverKind.SLURM && slurm == null
                    ? new SlurmPool(
                            List.of(),
                            null,
                            "localhost",
                            ZoneId.systemDefault(),
                            SlurmPool.DEFAULT_COMMAND_TIMEOUT,
                            null,
                            null,
                            null,
                            null)
                    : slurm;
            fake = driver == DriverKind.FAKE && fake == null ? new FakePool(Duration.ZERO) : fake;
        }
    }

    /**
     * @param kubeconfig file with the credentials Allot uses on that cluster; none: in-cluster service account
     * or {@code ~/.kube/config}
     * @param context the kubeconfig context to use; none: its current context
     * @param tenantApiServer the API server URL written into tenants' kubeconfigs, when they reach it under
     * another name than Allot does
     * @param storageClass for tenants' volumes; none: the cluster's default
     * @param tokenWait how long to wait for Kubernetes to issue the tenant's service account token
     * @param checkImage the container image a health check's Job runs, for kinds not in {@code checkImages}
     * @param checkImages per check kind the image holding its tool ({@code dcgmi}, {@code gpu_burn},
     * {@code all_reduce_perf}, {@code nvbandwidth}); the command comes from {@code allot.provisioning.health.commands}
     * @param maintenanceNamespace where checks run before the reservation's window starts (acceptance)
     */
    public record KubernetesPool(
            @Nullable Path kubeconfig,
            @Nullable String context,
            @Nullable URI tenantApiServer,
            @Nullable String storageClass,
            Duration tokenWait,
            String checkImage,
            Map<HealthCheckKind, String> checkImages,
            String maintenanceNamespace) {

        static final Duration DEFAULT_TOKEN_WAIT = Duration.ofSeconds(30);

        static final String DEFAULT_MAINTENANCE_NAMESPACE = "allot-maintenance";

        static final String DEFAULT_CHECK_IMAGE = "nvcr.io/nvidia/cuda:12.8.1-base-ubuntu24.04";

        static final Map<HealthCheckKind, String> DEFAULT_CHECK_IMAGES =
                Map.of(HealthCheckKind.DCGM_DIAG, "nvcr.io/nvidia/cloud-native/dcgm:4.2.3-1-ubuntu22.04");

        @ConstructorBinding
        public KubernetesPool {
            tokenWait = positive(tokenWait == null ? DEFAULT_TOKEN_WAIT : tokenWait, "kubernetes.token-wait");
            checkImage = checkImage == null || checkImage.isBlank() ? DEFAULT_CHECK_IMAGE : checkImage;
            Map<HealthCheckKind, String> images = new EnumMap<>(HealthCheckKind.class);
            images.putAll(DEFAULT_CHECK_IMAGES);
            if (checkImages != null) {
                images.putAll(checkImages);
            }
            checkImages = Map.copyOf(images);
            maintenanceNamespace = maintenanceNamespace == null ? DEFAULT_MAINTENANCE_NAMESPACE : maintenanceNamespace;
            if (!maintenanceNamespace.matches("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?")) {
                throw new IllegalArgumentException("kubernetes.maintenance-namespace must be a DNS label");
            }
        }

        public KubernetesPool(
                @Nullable Path kubeconfig,
                @Nullable String context,
                @Nullable URI tenantApiServer,
                @Nullable String storageClass,
                Duration tokenWait) {
            this(
                    kubeconfig,
                    context,
                    tenantApiServer,
                    storageClass,
                    tokenWait,
                    DEFAULT_CHECK_IMAGE,
                    DEFAULT_CHECK_IMAGES,
                    DEFAULT_MAINTENANCE_NAMESPACE);
        }

        /** The image a check of this kind runs in. */
        public String checkImage(HealthCheckKind kind) {
            return checkImages.getOrDefault(kind, checkImage);
        }
    }

    /**
     * @param commandPrefix prepended to every Slurm command, e.g. {@code [ssh, -o, BatchMode=yes, slurm-ctl]};
     * empty runs the commands locally
     * @param slurmConf passed as {@code SLURM_CONF} to the commands; none: the Slurm default
     * @param loginHost where tenants log in, shown to them
     * @param timeZone the controller's time zone, in which Slurm reads reservation start times
     * @param commandTimeout bound of one Slurm command
     * @param loginNode where the tenant users' SSH keys are installed; none: keys are not installed (the users are
     * still associated with the tenant's account)
     * @param volumeRoot absolute path of a filesystem shared by the pool's nodes, under which each booked volume is
     * a directory {@code <volumeRoot>/allot-<reservation id>/<volume>}; none: the pool refuses volumes
     * @param volumeGroup the Unix group that owns a tenant's volume directories ({@code {tenant}} is replaced by
     * the tenant's slug), which then get mode {@code 2770}; none: mode {@code 0700} for the user running the commands
     * @param shmDir absolute path of a folder every node of the pool sees, where the driver writes each reservation's
     * booked {@code /dev/shm} size ({@code <shmDir>/allot-<reservation id>}, in GiB) for the nodes' Prolog
     * ({@code ops/slurm/allot-shm-prolog.sh}, under {@code job_container/tmpfs}); none: {@code /dev/shm} is only
     * checked against the nodes' memory
     */
    public record SlurmPool(
            List<String> commandPrefix,
            @Nullable String slurmConf,
            String loginHost,
            ZoneId timeZone,
            Duration commandTimeout,
            @Nullable LoginNode loginNode,
            @Nullable Path volumeRoot,
            @Nullable String volumeGroup,
            @Nullable Path shmDir) {

        static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(30);

        @ConstructorBinding
        public SlurmPool {
            commandPrefix = commandPrefix == null ? List.of() : List.copyOf(commandPrefix);
            loginHost = loginHost == null ? "localhost" : loginHost;
            timeZone = timeZone == null ? ZoneId.systemDefault() : timeZone;
            commandTimeout = positive(
                    commandTimeout == null ? DEFAULT_COMMAND_TIMEOUT : commandTimeout, "slurm.command-timeout");
            requirePlainPath(volumeRoot, "slurm.volume-root");
            requirePlainPath(shmDir, "slurm.shm-dir");
            if (volumeGroup != null && !volumeGroup.matches("[a-z_][a-z0-9_{}-]{0,40}")) {
                throw new IllegalArgumentException("slurm.volume-group must be a Unix group name, {tenant} allowed");
            }
        }

        public SlurmPool(
                List<String> commandPrefix,
                @Nullable String slurmConf,
                String loginHost,
                ZoneId timeZone,
                Duration commandTimeout) {
            this(commandPrefix, slurmConf, loginHost, timeZone, commandTimeout, null, null, null, null);
        }

        public SlurmPool(
                List<String> commandPrefix,
                @Nullable String slurmConf,
                String loginHost,
                ZoneId timeZone,
                Duration commandTimeout,
                @Nullable LoginNode loginNode) {
            this(commandPrefix, slurmConf, loginHost, timeZone, commandTimeout, loginNode, null, null, null);
        }

        public SlurmPool(
                List<String> commandPrefix,
                @Nullable String slurmConf,
                String loginHost,
                ZoneId timeZone,
                Duration commandTimeout,
                @Nullable Path volumeRoot,
                @Nullable String volumeGroup) {
            this(commandPrefix, slurmConf, loginHost, timeZone, commandTimeout, null, volumeRoot, volumeGroup, null);
        }

        /** The same pool, whose driver writes each reservation's /dev/shm size into {@code shmDir}. */
        public SlurmPool withShmDir(Path shmDir) {
            return new SlurmPool(
                    commandPrefix,
                    slurmConf,
                    loginHost,
                    timeZone,
                    commandTimeout,
                    loginNode,
                    volumeRoot,
                    volumeGroup,
                    shmDir);
        }

        /** A path the pool's commands take as one argument, which stays where it is said to be. */
        private static void requirePlainPath(@Nullable Path path, String name) {
            if (path != null
                    && (!path.isAbsolute()
                            || !path.normalize().equals(path)
                            || path.getNameCount() == 0
                            || path.toString().matches(".*[\\s'\"].*"))) {
                throw new IllegalArgumentException(
                        name + " must be an absolute, normalized path below / without spaces or quotes");
            }
        }
    }

    /**
     * The Slurm login node ({@code login-host}, what tenants {@code ssh} to) as Allot reaches it to install keys.
     *
     * @param commandPrefix prepended to the commands that edit the key files, e.g. {@code [ssh, -o, BatchMode=yes,
     * root@login1]}; empty runs them on this host
     * @param authorizedKeysDir a folder of one authorized_keys file per user, named as the user, that the login
     * node's sshd reads ({@code AuthorizedKeysFile .ssh/authorized_keys /etc/ssh/allot-keys/%u})
     */
    public record LoginNode(List<String> commandPrefix, String authorizedKeysDir) {

        public LoginNode {
            commandPrefix = commandPrefix == null ? List.of() : List.copyOf(commandPrefix);
            if (authorizedKeysDir == null
                    || !authorizedKeysDir.matches("/[A-Za-z0-9/._-]*")
                    || authorizedKeysDir.contains("..")) {
                throw new IllegalArgumentException("slurm.login-node.authorized-keys-dir must be an absolute path of "
                        + "letters, digits, '/', '.', '_' and '-'");
            }
            authorizedKeysDir = authorizedKeysDir.endsWith("/") && authorizedKeysDir.length() > 1
                    ? authorizedKeysDir.substring(0, authorizedKeysDir.length() - 1)
                    : authorizedKeysDir;
        }
    }

    /** @param latency added to every call, to make the demo look like real provisioning */
    public record FakePool(Duration latency) {

        public FakePool {
            latency = latency == null ? Duration.ZERO : latency;
            if (latency.isNegative()) {
                throw new IllegalArgumentException("fake.latency must not be negative");
            }
        }
    }

    private static Duration positive(Duration value, String name) {
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + " must be positive");
        }
        return value;
    }
}
