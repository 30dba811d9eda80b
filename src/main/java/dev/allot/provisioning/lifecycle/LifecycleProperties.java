package dev.allot.provisioning.lifecycle;

import java.time.Duration;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code allot.provisioning.lifecycle}: when clusters are built and how hard the lifecycle tries.
 *
 * @param leadTime how long before a reservation's start its cluster is built
 * @param provisionRetry attempts and backoff of building a cluster; when they are used up the reservation fails
 * @param teardownRetry attempts and backoff of removing a cluster; when they are used up an admin must clean up
 * @param watchdogInterval how often the watchdog looks for reservations the lifecycle left behind
 * @param stuckAfter how long building may take, all attempts included, before the watchdog gives up on it
 * @param defaultCudaDriver the CUDA driver of a booking that named none
 * @param defaultSharedMemoryGi the {@code /dev/shm} size of a booking that named none
 * @param startGrace how long past its start a cluster may wait for nodes another cluster still holds (a preempted
 * reservation's, during its notice) before its reservation fails
 * @param reconcileInterval how often the reconciler compares every serving cluster's nodes, as the driver reports
 * them, with what its reservation holds, and converges them
 * @param wakeOnChanges whether the reconciler also acts as soon as holdings change (notified by PostgreSQL on every
 * replica), rather than only on its timer; on by default
 */
@ConfigurationProperties("allot.provisioning.lifecycle")
public record LifecycleProperties(
        Duration leadTime,
        Retry provisionRetry,
        Retry teardownRetry,
        Duration watchdogInterval,
        Duration stuckAfter,
        String defaultCudaDriver,
        int defaultSharedMemoryGi,
        Duration startGrace,
        Duration reconcileInterval,
        Boolean wakeOnChanges) {

    private static final Pattern DRIVER_VERSION = Pattern.compile("^\\d{2,4}(\\.\\d{1,3}){0,2}$");

    public LifecycleProperties {
        leadTime = leadTime == null ? Duration.ofMinutes(15) : notNegative(leadTime, "lead-time");
        provisionRetry = provisionRetry == null
                ? new Retry(5, Retry.DEFAULT_INITIAL_DELAY, Retry.DEFAULT_MAX_DELAY)
                : provisionRetry;
        teardownRetry = teardownRetry == null
                ? new Retry(8, Retry.DEFAULT_INITIAL_DELAY, Retry.DEFAULT_MAX_DELAY)
                : teardownRetry;
        watchdogInterval =
                positive(watchdogInterval == null ? Duration.ofMinutes(1) : watchdogInterval, "watchdog-interval");
        stuckAfter = positive(stuckAfter == null ? Duration.ofMinutes(45) : stuckAfter, "stuck-after");
        defaultCudaDriver = defaultCudaDriver == null ? "550.54.15" : defaultCudaDriver;
        if (!DRIVER_VERSION.matcher(defaultCudaDriver).matches()) {
            throw new IllegalArgumentException(
                    "allot.provisioning.lifecycle.default-cuda-driver must be a driver " + "version such as 550.54.15");
        }
        defaultSharedMemoryGi = defaultSharedMemoryGi <= 0 ? 64 : defaultSharedMemoryGi;
        startGrace = startGrace == null ? Duration.ofMinutes(10) : notNegative(startGrace, "start-grace");
        reconcileInterval =
                positive(reconcileInterval == null ? Duration.ofMinutes(2) : reconcileInterval, "reconcile-interval");
        wakeOnChanges = wakeOnChanges == null || wakeOnChanges;
    }

    /**
     * Bounded retries with exponential backoff: attempt {@code n} failed, the next one runs
     * {@code initialDelay * 2^(n-1)} later, never more than {@code maxDelay}.
     */
    public record Retry(int attempts, Duration initialDelay, Duration maxDelay) {

        public static final Duration DEFAULT_INITIAL_DELAY = Duration.ofSeconds(30);
        public static final Duration DEFAULT_MAX_DELAY = Duration.ofMinutes(10);

        public Retry {
            if (attempts < 1) {
                throw new IllegalArgumentException("allot.provisioning.lifecycle: retry attempts must be at least 1");
            }
            initialDelay = positive(initialDelay == null ? DEFAULT_INITIAL_DELAY : initialDelay, "initial-delay");
            maxDelay = positive(maxDelay == null ? DEFAULT_MAX_DELAY : maxDelay, "max-delay");
        }

        public Duration delayAfter(int failedAttempt) {
            int doublings = Math.min(Math.max(failedAttempt - 1, 0), 30);
            Duration delay = initialDelay.multipliedBy(1L << doublings);
            return delay.compareTo(maxDelay) > 0 ? maxDelay : delay;
        }
    }

    private static Duration positive(Duration value, String name) {
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException("allot.provisioning.lifecycle." + name + " must be positive");
        }
        return value;
    }

    private static Duration notNegative(Duration value, String name) {
        if (value.isNegative()) {
            throw new IllegalArgumentException("allot.provisioning.lifecycle." + name + " must not be negative");
        }
        return value;
    }
}
