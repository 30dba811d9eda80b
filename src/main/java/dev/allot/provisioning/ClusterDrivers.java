package dev.allot.provisioning;

import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The driver serving each pool, as configured in {@link DriverProperties}, every one bounded by its pool's
 * timeout. A pool that is not configured gets the default driver ({@code fake} unless configured otherwise).
 */
public final class ClusterDrivers implements AutoCloseable {

	private final Map<String, ClusterDriver> byPool;

	private final @Nullable ClusterDriver fallback;

	ClusterDrivers(Map<String, ClusterDriver> byPool, @Nullable ClusterDriver fallback) {
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

	@Override
	public void close() throws Exception {
		for (ClusterDriver driver : byPool.values()) {
			ClusterDriver inner = driver instanceof TimeBoundedDriver bounded ? bounded.delegate() : driver;
			if (inner instanceof AutoCloseable closeable) {
				closeable.close();
			}
		}
	}

}
