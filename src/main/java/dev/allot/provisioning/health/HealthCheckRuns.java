package dev.allot.provisioning.health;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.allot.booking.Reservation;
import dev.allot.booking.ReservationLifecycle;
import dev.allot.provisioning.NodeDegradationEnded;
import dev.allot.provisioning.driver.ClusterDriver;
import dev.allot.provisioning.driver.ClusterDriverException;
import dev.allot.provisioning.driver.ClusterDrivers;
import dev.allot.provisioning.health.checks.Verdict;
import dev.allot.provisioning.lifecycle.Cluster;
import dev.allot.provisioning.lifecycle.ClusterState;
import dev.allot.provisioning.lifecycle.Clusters;
import dev.allot.provisioning.lifecycle.Timeline;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Runs a queued health check on every node of the cluster. A node that fails makes a {@code READY} cluster
 * {@code DEGRADED} (it stays usable; remediation belongs to the health module); a check that passes on every node
 * makes a cluster degraded by an earlier check {@code READY} again.
 */
@Component
public class HealthCheckRuns {

	public static final String DEGRADED_BY_CHECK = "A health check failed on ";

	private final HealthCheckStore store;

	private final Clusters clusters;

	private final ClusterDrivers drivers;

	private final Timeline timeline;

	private final TransactionTemplate transactions;

	private final Clock clock;

	private final ReservationLifecycle reservations;

	private final NodeChecks nodeChecks;

	private final Remediation remediation;

	private final ApplicationEventPublisher events;

	HealthCheckRuns(HealthCheckStore store, Clusters clusters, ClusterDrivers drivers, Timeline timeline,
			TransactionTemplate transactions, Clock clock, ReservationLifecycle reservations, NodeChecks nodeChecks,
			Remediation remediation, ApplicationEventPublisher events) {
		this.events = events;
		this.remediation = remediation;
		this.reservations = reservations;
		this.nodeChecks = nodeChecks;
		this.store = store;
		this.clusters = clusters;
		this.drivers = drivers;
		this.timeline = timeline;
		this.transactions = transactions;
		this.clock = clock;
	}

	public void run(UUID checkId, UUID reservationId, int attempt) {
		HealthCheck check = store.find(reservationId, checkId).orElse(null);
		Cluster cluster = clusters.find(reservationId).orElse(null);
		if (check == null || cluster == null || check.finishedAt() != null) {
			return;
		}
		if (!cluster.open() || !cluster.state().isServing()) {
			giveUp(checkId, reservationId, "The cluster is " + cluster.state() + ": there is nothing to check");
			return;
		}
		Reservation reservation = reservations.find(reservationId).orElse(null);
		if (reservation == null) {
			giveUp(checkId, reservationId, "The reservation is gone");
			return;
		}
		store.running(checkId);
		ClusterDriver driver = drivers.forPool(cluster.pool());
		NodeChecks.Target target = new NodeChecks.Target(cluster.ref(), reservation.gpuType(),
				reservation.gpus() / Math.max(reservation.nodes().size(), 1), cluster.nodes().size());
		List<HealthCheck.NodeResult> results = new ArrayList<>();
		try {
			for (NodeHealth node : cluster.nodes()) {
				NodeChecks.Outcome outcome = nodeChecks.run(driver, target, node.hostname(), check.kind(),
						check.levelOrDefault());
				results.add(new HealthCheck.NodeResult(node.hostname(), outcome.passed(), outcome.verdict().summary(),
						outcome.verdict().fault().name(), outcome.output(), outcome.took()));
			}
		}
		catch (ClusterDriverException ex) {
			if (ex.retryable()) {
				throw ex;
			}
			giveUp(checkId, reservationId, ex.getMessage());
			return;
		}
		if (!record(check, results, attempt)) {
			return; // a twin run recorded it, and remediated
		}
		Cluster checked = clusters.find(reservationId).orElseThrow();
		for (HealthCheck.NodeResult result : results) {
			if (!result.passed() && result.fault() != null) {
				try {
					remediation.remediate(checked, result.node(), Verdict.Fault.valueOf(result.fault()),
							check.kind() + ": " + result.summary());
				}
				catch (RuntimeException ex) {
					timeline.record(reservationId, Timeline.REMEDIATION, "FAILED", checked.state(), attempt,
							Remediation.shorten("Remediating " + result.node() + " failed: " + ex.getMessage(), 4000));
				}
			}
		}
	}

	private boolean record(HealthCheck check, List<HealthCheck.NodeResult> results, int attempt) {
		List<String> failed = results.stream().filter(r -> !r.passed()).map(HealthCheck.NodeResult::node).toList();
		String detail = failed.isEmpty() ? check.kind() + " passed on every node"
				: check.kind() + " failed on " + String.join(", ", failed);
		return Boolean.TRUE.equals(transactions.execute(status -> {
			Instant now = clock.instant();
			Cluster cluster = clusters.findForUpdate(check.reservationId()).orElseThrow();
			if (!store.finish(check.id(), failed.isEmpty() ? HealthCheck.Status.PASSED : HealthCheck.Status.FAILED,
					detail, results, now)) {
				return false;
			}
			Map<String, HealthCheck.NodeResult> byNode = results.stream()
				.collect(Collectors.toMap(HealthCheck.NodeResult::node, Function.identity()));
			// a node that passes is healthy again: billing ends its degraded span, if any (also one an exporter's
			// fault event opened, which left the node's health as it was)
			results.stream()
				.filter(HealthCheck.NodeResult::passed)
				.forEach(result -> events.publishEvent(new NodeDegradationEnded(check.reservationId(), result.node(),
						now, check.kind() + " passed")));
			List<NodeHealth> nodes = cluster.nodes().stream().map(node -> {
				HealthCheck.NodeResult result = byNode.get(node.hostname());
				return result == null ? node : new NodeHealth(node.hostname(), node.state(),
						result.passed() ? "PASSED" : "FAILED", check.kind() + ": " + result.summary());
			}).toList();
			clusters.built(check.reservationId(), cluster.endpoints(), nodes);
			ClusterState state = cluster.state();
			if (!failed.isEmpty() && state == ClusterState.READY) {
				clusters.moved(cluster, cluster.degrade(DEGRADED_BY_CHECK + String.join(", ", failed), now));
				state = ClusterState.DEGRADED;
			}
			else if (failed.isEmpty() && state == ClusterState.DEGRADED && cluster.stateReason() != null
					&& cluster.stateReason().startsWith(DEGRADED_BY_CHECK)) {
				clusters.moved(cluster, cluster.recover(now));
				state = ClusterState.READY;
			}
			timeline.record(check.reservationId(), Timeline.HEALTH_CHECK, failed.isEmpty() ? "SUCCEEDED" : "FAILED",
					state, attempt, detail + " (check " + check.id() + ").");
			return true;
		}));
	}

	/** The check could not run: it ends {@code ERROR} with the reason; the cluster is left as it is. */
	public void giveUp(UUID checkId, UUID reservationId, String reason) {
		transactions.executeWithoutResult(status -> {
			if (store.finish(checkId, HealthCheck.Status.ERROR, reason, List.of(), clock.instant())) {
				clusters.find(reservationId)
					.ifPresent(cluster -> timeline.record(reservationId, Timeline.HEALTH_CHECK, "FAILED",
							cluster.state(), null, "Check " + checkId + " could not run: " + reason));
			}
		});
	}

}
