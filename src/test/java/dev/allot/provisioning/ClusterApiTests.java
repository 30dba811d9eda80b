package dev.allot.provisioning;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.Api;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Who may see a cluster and its kubeconfig, and the problems that say why not. */
class ClusterApiTests extends LifecycleTest {

    @Test
    void anotherTenantsClusterAndKubeconfigAreNotFound() {
        Setup s = fleet(1);
        String id = bookAndAwaitSchedule(s, 8, hour(3), hour(4), "KUBERNETES");
        Setup stranger = fleet(1);

        for (String suffix : new String[] {"/cluster", "/cluster/kubeconfig"}) {
            Api.Response theirs = api.get(path(s, id) + suffix, stranger.token());
            assertThat(theirs.status()).as(suffix).isEqualTo(404);
            Api.Response viaOwnTenant = api.get(path(stranger, id) + suffix, stranger.token());
            assertThat(viaOwnTenant.status()).as(suffix).isEqualTo(404);
            assertThat(viaOwnTenant.contentType()).startsWith("application/problem+json");
        }
    }

    @Test
    void aViewerSeesTheClusterButGetsNoCredentials() {
        Setup s = fleet(1);
        String id = bookAndAwaitSchedule(s, 8, hour(3), hour(4), "KUBERNETES");
        String viewer = tenantToken(s.tenant(), "VIEWER");

        Api.Response view = api.get(path(s, id) + "/cluster", viewer);
        assertThat(view.status()).isEqualTo(200);
        assertThat(view.json().get("endpoints").get("kubeconfig").asString())
                .isEqualTo(path(s, id) + "/cluster/kubeconfig");
        assertThat(api.get(path(s, id) + "/cluster/kubeconfig", viewer).status())
                .isEqualTo(403);
    }

    @Test
    void aKubeconfigIsRefusedWhileTheClusterIsNotReadyAndForASlurmCluster() {
        Setup s = fleet(2);
        Instant start = hour(3);
        String kubernetes = bookAndAwaitSchedule(s, 8, start, hour(4), "KUBERNETES");
        String slurm = bookAndAwaitSchedule(s, 8, start, hour(4), "SLURM");

        Api.Response notReady = api.get(path(s, kubernetes) + "/cluster/kubeconfig", s.token());
        assertThat(notReady.status()).isEqualTo(409);
        assertThat(notReady.json().get("type").asString()).isEqualTo("https://allot.dev/problems/cluster_not_ready");
        assertThat(notReady.json().get("state").asString()).isEqualTo("PENDING");

        Api.Response notKubernetes = api.get(path(s, slurm) + "/cluster/kubeconfig", s.token());
        assertThat(notKubernetes.status()).isEqualTo(404);
        assertThat(notKubernetes.json().get("type").asString()).isEqualTo("https://allot.dev/problems/no_kubeconfig");
        assertThat(notKubernetes.json().get("detail").asString()).contains("SLURM cluster: there is no kubeconfig");
        assertThat(api.get(path(s, slurm) + "/cluster", s.token())
                        .json()
                        .get("endpoints")
                        .get("kubeconfig")
                        .isNull())
                .isTrue();

        // Ready, but on the fake driver, which has no Kubernetes API to issue a kubeconfig from.
        runDueAt(start.minus(Duration.ofMinutes(15)));
        Api.Response fake = api.get(path(s, kubernetes) + "/cluster/kubeconfig", s.token());
        assertThat(fake.status()).isEqualTo(404);
        assertThat(fake.json().get("detail").asString()).contains("stand-in driver");
    }
}
