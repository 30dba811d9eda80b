package dev.allot.provisioning.driver.kubernetes;

import static dev.allot.provisioning.driver.kubernetes.Names.SERVICE_ACCOUNT;
import static dev.allot.provisioning.driver.kubernetes.Names.TOKEN_SECRET;

import dev.allot.provisioning.driver.ClusterAccess;
import dev.allot.provisioning.driver.DriverFailedException;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Builds the tenant's kubeconfig from the token Kubernetes issues for the namespace's service account. The
 * token lives only in that Secret; Allot reads it when the tenant asks and never keeps it.
 */
final class TenantKubeconfigs {

    private static final Duration POLL = Duration.ofMillis(200);

    private final KubernetesClient client;

    private final String server;

    private final Duration tokenWait;

    TenantKubeconfigs(KubernetesClient client, String server, Duration tokenWait) {
        this.client = client;
        this.server = server;
        this.tokenWait = tokenWait;
    }

    /** Waits (up to the configured bound) for the token controller to fill the Secret in. */
    ClusterAccess.Kubernetes forNamespace(String namespace) {
        long deadline = System.nanoTime() + tokenWait.toNanos();
        while (true) {
            Secret secret = client.secrets()
                    .inNamespace(namespace)
                    .withName(TOKEN_SECRET)
                    .get();
            Map<String, String> data = secret == null || secret.getData() == null ? Map.of() : secret.getData();
            if (data.containsKey("token")) {
                return new ClusterAccess.Kubernetes(
                        namespace, server, kubeconfig(namespace, decode(data.get("token")), data.get("ca.crt")));
            }
            if (System.nanoTime() > deadline) {
                throw new DriverFailedException(
                        "Kubernetes has not issued the token of " + namespace + "/" + SERVICE_ACCOUNT + " within "
                                + tokenWait,
                        true);
            }
            try {
                Thread.sleep(POLL);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new DriverFailedException("interrupted while waiting for a token", true, ex);
            }
        }
    }

    private String kubeconfig(String namespace, String token, @Nullable String caBase64) {
        String cluster = caBase64 == null ? "" : "    certificate-authority-data: " + caBase64 + "\n";
        return """
				apiVersion: v1
				kind: Config
				clusters:
				- name: %1$s
				  cluster:
				    server: "%2$s"
				%3$scontexts:
				- name: %1$s
				  context:
				    cluster: %1$s
				    namespace: %1$s
				    user: %1$s
				current-context: %1$s
				users:
				- name: %1$s
				  user:
				    token: "%4$s"
				""".formatted(namespace, server, cluster, token);
    }

    private static String decode(String base64) {
        return new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8).trim();
    }
}
