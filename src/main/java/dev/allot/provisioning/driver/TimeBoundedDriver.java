package dev.allot.provisioning.driver;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Bounds every operation of a driver by a timeout, whatever the adapter does inside, and measures it
 * ({@code allot.driver.operations}: pool, operation, outcome). The call runs on its own virtual thread, which
 * is interrupted when time is up; since operations are idempotent, work that still completes afterwards is
 * harmless and the next attempt finds it.
 */
public final class TimeBoundedDriver implements ClusterDriver {

    private final ClusterDriver delegate;

    private final Duration timeout;

    private final String pool;

    private final MeterRegistry meters;

    public TimeBoundedDriver(ClusterDriver delegate, Duration timeout) {
        this(delegate, timeout, "default", Metrics.globalRegistry);
    }

    public TimeBoundedDriver(ClusterDriver delegate, Duration timeout, String pool, MeterRegistry meters) {
        this.delegate = delegate;
        this.timeout = timeout;
        this.pool = pool;
        this.meters = meters;
    }

    ClusterDriver delegate() {
        return delegate;
    }

    @Override
    public ProvisionedCluster provision(ClusterBlueprint spec) {
        return bounded("provision", spec.ref().name(), () -> delegate.provision(spec));
    }

    @Override
    public ClusterStatus status(ClusterRef ref) {
        return bounded("status", ref.name(), () -> delegate.status(ref));
    }

    @Override
    public ClusterAccess access(ClusterRef ref) {
        return bounded("access", ref.name(), () -> delegate.access(ref));
    }

    @Override
    public ClusterStatus addNodes(ClusterRef ref, List<String> nodes) {
        return bounded("addNodes", ref.name(), () -> delegate.addNodes(ref, nodes));
    }

    @Override
    public ClusterStatus removeNodes(ClusterRef ref, List<String> nodes) {
        return bounded("removeNodes", ref.name(), () -> delegate.removeNodes(ref, nodes));
    }

    @Override
    public boolean supportsHealthChecks() {
        return delegate.supportsHealthChecks();
    }

    @Override
    public HealthCheckResult runHealthCheck(HealthCheckJob job) {
        // the job's own timeout bounds the check; the driver's covers submitting it and cancelling it
        return bounded(
                "healthCheck",
                job.kind() + " on " + job.node(),
                job.timeout().plus(timeout),
                () -> delegate.runHealthCheck(job));
    }

    @Override
    public boolean supportsMultiNodeChecks() {
        return delegate.supportsMultiNodeChecks();
    }

    @Override
    public HealthCheckResult runMultiNodeCheck(MultiNodeCheckJob job) {
        return bounded(
                "healthCheck",
                job.kind() + " on " + String.join(",", job.nodes()),
                job.timeout().plus(timeout),
                () -> delegate.runMultiNodeCheck(job));
    }

    @Override
    public Reboot reboot(ClusterRef ref, String node) {
        return bounded("reboot", node, timeout, () -> delegate.reboot(ref, node));
    }

    @Override
    public boolean backFromReboot(ClusterRef ref, String node, @Nullable String mark) {
        return bounded("backFromReboot", node, timeout, () -> delegate.backFromReboot(ref, node, mark));
    }

    @Override
    public void teardown(ClusterRef ref) {
        bounded("teardown", ref.name(), () -> {
            delegate.teardown(ref);
            return null;
        });
    }

    @Override
    public void removeVolumes(ClusterRef ref, List<String> names) {
        bounded("removeVolumes", ref.name(), () -> {
            delegate.removeVolumes(ref, names);
            return null;
        });
    }

    @Override
    public OptionalLong volumeUsage(ClusterRef ref, String name) {
        return bounded("volumeUsage", ref.name() + "/" + name, () -> delegate.volumeUsage(ref, name));
    }

    private <T> T bounded(String name, String subject, Supplier<T> call) {
        return bounded(name, subject, timeout, call);
    }

    private <T> T bounded(String name, String subject, Duration timeout, Supplier<T> call) {
        String operation = name + " " + subject;
        long started = System.nanoTime();
        String outcome = "error";
        FutureTask<T> task = new FutureTask<>(call::get);
        Thread.ofVirtual().name("driver: " + operation).start(task);
        try {
            T result = task.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            outcome = "success";
            return result;
        } catch (TimeoutException ex) {
            task.cancel(true);
            outcome = "timeout";
            throw new DriverTimeoutException(operation, timeout);
        } catch (InterruptedException ex) {
            task.cancel(true);
            Thread.currentThread().interrupt();
            throw new DriverFailedException(operation + " was interrupted", true, ex);
        } catch (CancellationException ex) {
            throw new DriverFailedException(operation + " was cancelled", true, ex);
        } catch (ExecutionException ex) {
            throw rethrow(operation, ex.getCause());
        } finally {
            Timer.builder("allot.driver.operations")
                    .description("Cluster driver operations by pool, operation and outcome")
                    .tags("pool", pool, "operation", name, "outcome", outcome)
                    .register(meters)
                    .record(Duration.ofNanos(System.nanoTime() - started));
        }
    }

    private static RuntimeException rethrow(String operation, @Nullable Throwable cause) {
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
