package dev.allot.provisioning;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Bounds every operation of a driver by a timeout, whatever the adapter does inside. The call runs on its own
 * virtual thread, which is interrupted when time is up; since operations are idempotent, work that still
 * completes afterwards is harmless and the next attempt finds it.
 */
final class TimeBoundedDriver implements ClusterDriver {

	private final ClusterDriver delegate;

	private final Duration timeout;

	TimeBoundedDriver(ClusterDriver delegate, Duration timeout) {
		this.delegate = delegate;
		this.timeout = timeout;
	}

	ClusterDriver delegate() {
		return delegate;
	}

	@Override
	public ProvisionedCluster provision(ClusterSpec spec) {
		return bounded("provision " + spec.ref().name(), () -> delegate.provision(spec));
	}

	@Override
	public ClusterStatus status(ClusterRef ref) {
		return bounded("status " + ref.name(), () -> delegate.status(ref));
	}

	@Override
	public ClusterAccess access(ClusterRef ref) {
		return bounded("access " + ref.name(), () -> delegate.access(ref));
	}

	@Override
	public ClusterStatus addNodes(ClusterRef ref, List<String> nodes) {
		return bounded("addNodes " + ref.name(), () -> delegate.addNodes(ref, nodes));
	}

	@Override
	public ClusterStatus removeNodes(ClusterRef ref, List<String> nodes) {
		return bounded("removeNodes " + ref.name(), () -> delegate.removeNodes(ref, nodes));
	}

	@Override
	public boolean supportsHealthChecks() {
		return delegate.supportsHealthChecks();
	}

	@Override
	public HealthCheckResult runHealthCheck(String node, HealthCheckKind kind) {
		return bounded("health check " + kind + " on " + node, () -> delegate.runHealthCheck(node, kind));
	}

	@Override
	public void teardown(ClusterRef ref) {
		bounded("teardown " + ref.name(), () -> {
			delegate.teardown(ref);
			return null;
		});
	}

	private <T> T bounded(String operation, Supplier<T> call) {
		FutureTask<T> task = new FutureTask<>(call::get);
		Thread.ofVirtual().name("driver: " + operation).start(task);
		try {
			return task.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (TimeoutException ex) {
			task.cancel(true);
			throw new DriverTimeoutException(operation, timeout);
		}
		catch (InterruptedException ex) {
			task.cancel(true);
			Thread.currentThread().interrupt();
			throw new DriverFailedException(operation + " was interrupted", true, ex);
		}
		catch (CancellationException ex) {
			throw new DriverFailedException(operation + " was cancelled", true, ex);
		}
		catch (ExecutionException ex) {
			throw rethrow(operation, ex.getCause());
		}
	}

	private static RuntimeException rethrow(String operation, Throwable cause) {
		if (cause instanceof RuntimeException runtime) {
			return runtime;
		}
		if (cause instanceof Error error) {
			throw error;
		}
		return new DriverFailedException(operation + " failed: " + cause, true, cause);
	}

	@Override
	public String toString() {
		return delegate + " (timeout " + timeout + ")";
	}

}
