package dev.allot.provisioning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.allot.provisioning.driver.ClusterBlueprint;
import dev.allot.provisioning.driver.ClusterDriver;
import dev.allot.provisioning.driver.ClusterStatus;
import dev.allot.provisioning.driver.DriverTimeoutException;
import dev.allot.provisioning.driver.NodesUnavailableException;
import dev.allot.provisioning.driver.TimeBoundedDriver;
import dev.allot.provisioning.driver.fake.FakeDriver;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class TimeBoundedDriverTests {

    private final FakeDriver fake = new FakeDriver(Duration.ZERO);

    private final ClusterDriver driver = new TimeBoundedDriver(fake, Duration.ofMillis(200));

    private final ClusterBlueprint spec = Specs.kubernetes(List.of("gpu-001"));

    @Test
    void aCallLongerThanTheTimeoutFailsAsARetryableTimeout() {
        fake.delay(Duration.ofSeconds(30));

        assertThatThrownBy(() -> driver.provision(spec))
                .isInstanceOf(DriverTimeoutException.class)
                .hasMessageContaining("provision " + spec.ref().name())
                .hasMessageContaining("PT0.2S")
                .satisfies(ex ->
                        assertThat(((DriverTimeoutException) ex).retryable()).isTrue());
        // Interrupted, the slow call never did its work.
        assertThat(fake.clusters()).isEmpty();
    }

    @Test
    void driverErrorsPassThroughUnchanged() {
        fake.failNext(1, () -> new NodesUnavailableException(List.of("gpu-001"), "taken"));

        assertThatThrownBy(() -> driver.provision(spec)).isInstanceOf(NodesUnavailableException.class);
    }

    @Test
    void aCallWithinTheTimeoutAnswersNormally() {
        assertThat(driver.provision(spec).nodes()).containsExactly("gpu-001");
        driver.teardown(spec.ref());
        assertThat(driver.status(spec.ref()).phase()).isEqualTo(ClusterStatus.Phase.ABSENT);
    }
}
