package dev.allot.provisioning.driver;

import dev.allot.provisioning.driver.slurm.SlurmDriver;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The driver serving each pool, as configured in {@link DriverProperties}, every one bounded by its pool's
 * timeout. A pool that is not configured gets the default driver ({@code fake} unless configured otherwise).
 */
public final class ClusterDrivers implements AutoCloseable {

    private final Map<String, ClusterDriver> byPool;

    private final @Nullable ClusterDriver fallback;

    private final Map<String, List<String>> isolation = new ConcurrentHashMap<>();

    public ClusterDrivers(Map<String, ClusterDriver> byPool, @Nullable ClusterDriver fallback) {
        this.byPool = Map.copyOf(byPool);
        this.fallback = fallback;
    }

    /** The driver for a pool; refuses (not retryable) a pool with no driver when the default is {@code none}. */
    public ClusterDriver forPool(String pool) {
        ClusterDriver driver = byPool.getOrDefault(pool, fallback);
        if (driver == null) {
            throw new DriverFailedException("No cluster driver is configured for pool " + pool, false);
        }
        return driver;
    }

    /**
     * Per Slurm pool, why its controller would let tenants see each other (empty: isolated). Asked once per pool
     * and remembered, since a controller's configuration changes only with a restart of Allot's view of it.
     */
    public Map<String, List<String>> isolationProblems() {
        Map<String, List<String>> problems = new TreeMap<>();
        byPool.forEach((pool, driver) -> {
            if (inner(driver) instanceof SlurmDriver slurm) {
                problems.put(pool, isolation.computeIfAbsent(pool, p -> slurm.isolationProblems()));
            }
        });
        return problems;
    }

    private static ClusterDriver inner(ClusterDriver driver) {
        return driver instanceof TimeBoundedDriver bounded ? bounded.delegate() : driver;
    }

    @Override
    public void close() throws Exception {
        for (ClusterDriver driver : byPool.values()) {
            if (inner(driver) instanceof AutoCloseable closeable) {
                closeable.close();
            }
        }
    }
}
