package dev.allot.provisioning.driver.kubernetes;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;

/**
 * Plays Kubernetes' token controller, which the mock server lacks: fills every service-account-token Secret
 * with a token and a CA certificate, as a real API server does shortly after the Secret is created. Polls
 * rather than watches: a watcher that writes back from its callback can stall the mock server.
 */
final class TokenController implements AutoCloseable {

    static final String CA = Base64.getEncoder().encodeToString("-----BEGIN CERTIFICATE-----test".getBytes());

    private final KubernetesClient client;

    private final Thread thread;

    private volatile boolean running = true;

    TokenController(KubernetesClient client) {
        this.client = client;
        this.thread = Thread.ofVirtual().name("token-controller").start(this::loop);
    }

    private void loop() {
        while (running) {
            client.secrets().inAnyNamespace().list().getItems().stream()
                    .filter(TokenController::awaitsToken)
                    .forEach(this::issue);
            try {
                Thread.sleep(20);
            } catch (InterruptedException ex) {
                return;
            }
        }
    }

    private static boolean awaitsToken(Secret secret) {
        return "kubernetes.io/service-account-token".equals(secret.getType())
                && (secret.getData() == null || !secret.getData().containsKey("token"));
    }

    private void issue(Secret secret) {
        String token = "token-of-" + secret.getMetadata().getNamespace();
        client.secrets()
                .inNamespace(secret.getMetadata().getNamespace())
                .withName(secret.getMetadata().getName())
                .edit(s -> {
                    s.setData(new HashMap<>());
                    s.getData()
                            .put("token", Base64.getEncoder().encodeToString(token.getBytes(StandardCharsets.UTF_8)));
                    s.getData().put("ca.crt", CA);
                    return s;
                });
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join();
    }
}
