package dev.allot.provisioning.kubernetes;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;

/**
 * Plays Kubernetes' token controller, which the mock server lacks: fills every service-account-token Secret
 * with a token and a CA certificate, as a real API server does shortly after the Secret is created.
 */
final class TokenController implements AutoCloseable {

	static final String CA = Base64.getEncoder().encodeToString("-----BEGIN CERTIFICATE-----test".getBytes());

	private final Watch watch;

	TokenController(KubernetesClient client) {
		this.watch = client.secrets().inAnyNamespace().watch(new Watcher<>() {

			@Override
			public void eventReceived(Action action, Secret secret) {
				if (action == Action.ADDED && "kubernetes.io/service-account-token".equals(secret.getType())
						&& (secret.getData() == null || !secret.getData().containsKey("token"))) {
					String token = "token-of-" + secret.getMetadata().getNamespace();
					client.secrets()
						.inNamespace(secret.getMetadata().getNamespace())
						.withName(secret.getMetadata().getName())
						.edit(s -> {
							s.setData(new java.util.HashMap<>());
							s.getData().put("token",
									Base64.getEncoder().encodeToString(token.getBytes(StandardCharsets.UTF_8)));
							s.getData().put("ca.crt", CA);
							return s;
						});
				}
			}

			@Override
			public void onClose(WatcherException cause) {
			}

		});
	}

	@Override
	public void close() {
		watch.close();
	}

}
