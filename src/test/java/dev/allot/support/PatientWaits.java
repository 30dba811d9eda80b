package dev.allot.support;

import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Gives every {@code await()} without an {@code atMost} a minute instead of Awaitility's 10 s. The tests wait on
 * conditions, not durations, so a longer bound costs nothing when they pass; it only keeps a loaded CI machine (a
 * Keycloak, a Patroni cluster and Slurm running beside the tests) from failing a condition that was merely slow.
 * Registered for every test class through {@code META-INF/services} and {@code junit-platform.properties}.
 */
public class PatientWaits implements BeforeAllCallback {

    static final Duration DEFAULT_WAIT = Duration.ofMinutes(1);

    @Override
    public void beforeAll(ExtensionContext context) {
        Awaitility.setDefaultTimeout(DEFAULT_WAIT);
    }
}
