package dev.allot.provisioning.health;

import dev.allot.booking.Reservation;
import dev.allot.booking.ReservationLifecycle;
import dev.allot.provisioning.checks.HealthProperties;
import dev.allot.provisioning.checks.NodeChecks;
import dev.allot.provisioning.checks.Verdict;
import dev.allot.provisioning.driver.ClusterDriver;
import dev.allot.provisioning.driver.ClusterDrivers;
import dev.allot.provisioning.driver.HealthCheckKind;
import dev.allot.provisioning.lifecycle.Cluster;
import dev.allot.provisioning.lifecycle.ClusterRepository;
import dev.allot.provisioning.lifecycle.Timeline;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The check after a reboot for a software fault (a db-scheduler step, {@code cluster-node-recheck}): it waits until
 * the driver says the node is back (restarted since the reboot was asked, and in service), then runs the check that failed on that node alone. Only a pass puts the node
 * back in service for the tenant (health {@code PASSED}, its credited span ended, the cluster {@code READY} when
 * nothing else is wrong); a failure is the node's second within the cooldown, which quarantines and replaces it; a
 * node not back within {@code reboot-timeout} is quarantined as a hardware fault.
 */
@Component
public class RebootRechecks {

    /** How often a node not yet back from its reboot is looked at again. */
    static final Duration POLL = Duration.ofMinutes(1);

    private final ClusterRepository clusters;

    private final ClusterDrivers drivers;

    private final ReservationLifecycle reservations;

    private final NodeChecks nodeChecks;

    private final Remediation remediation;

    private final Timeline timeline;

    private final HealthProperties properties;

    private final JdbcClient jdbc;

    private final Clock clock;

    private final ReturnToService returnToService;

    RebootRechecks(
            ClusterRepository clusters,
            ClusterDrivers drivers,
            ReservationLifecycle reservations,
            NodeChecks nodeChecks,
            Remediation remediation,
            Timeline timeline,
            HealthProperties properties,
            JdbcClient jdbc,
            Clock clock,
            ReturnToService returnToService) {
        this.clusters = clusters;
        this.drivers = drivers;
        this.reservations = reservations;
        this.nodeChecks = nodeChecks;
        this.remediation = remediation;
        this.timeline = timeline;
        this.properties = properties;
        this.jdbc = jdbc;
        this.clock = clock;
        this.returnToService = returnToService;
    }

    /** Checks the node if it is back; returns when to look again, or null when done. */
    public @Nullable Instant run(UUID reservationId, String node, HealthCheckKind kind) {
        Cluster cluster = clusters.find(reservationId).orElse(null);
        if (cluster == null
                || !cluster.open()
                || !cluster.state().isServing()
                || cluster.nodes().stream().noneMatch(n -> n.hostname().equals(node))) {
            return null; // torn down, or the node was replaced meanwhile
        }
        ClusterDriver driver = drivers.forPool(cluster.pool());
        Instant now = clock.instant();
        RebootAsked asked = lastReboot(node, reservationId);
        if (!driver.backFromReboot(cluster.ref(), node, asked == null ? null : asked.mark())) {
            if (asked == null || now.isBefore(asked.at().plus(properties.rebootTimeout()))) {
                return now.plus(POLL);
            }
            remediation.quarantineAndReplace(
                    reservationId,
                    node,
                    Verdict.Fault.HARDWARE,
                    "not back within " + properties.rebootTimeout() + " of its reboot");
            return null;
        }
        Reservation reservation = reservations.find(reservationId).orElseThrow();
        NodeChecks.Outcome outcome = nodeChecks.run(
                driver, NodeChecks.Target.of(cluster.ref(), reservation), node, kind, properties.acceptanceDcgmLevel());
        if (!outcome.passed()) {
            // the node's reboot is within the cooldown: this second failure quarantines and replaces it
            remediation.remediate(
                    cluster, node, outcome.verdict().fault(), "after its reboot, " + outcome.detail(), kind);
            return null;
        }
        returnToService.afterReboot(reservationId, node, kind, outcome.detail());
        return null;
    }

    /** The re-check could not run (the driver kept failing): the node stays as it is, and the tenant reads why. */
    public void giveUp(UUID reservationId, String node, String reason) {
        clusters.find(reservationId)
                .ifPresent(cluster -> timeline.record(
                        reservationId,
                        Timeline.REMEDIATION,
                        "GAVE_UP",
                        cluster.state(),
                        null,
                        Remediation.shorten(
                                "The check of " + node + " after its reboot " + reason
                                        + "; run a check to put it back in service.",
                                4000)));
    }

    /** When the node's last reboot for this reservation was asked, and the driver's mark of it. */
    private record RebootAsked(Instant at, @Nullable String mark) {}

    private @Nullable RebootAsked lastReboot(String node, UUID reservationId) {
        return jdbc.sql("""
				SELECT at, reboot_mark FROM node_remediation
				WHERE hostname = ? AND reservation_id = ? AND action = 'REBOOT'
				ORDER BY at DESC, id DESC LIMIT 1""")
                .params(node, reservationId)
                .query((rs, row) -> new RebootAsked(rs.getTimestamp("at").toInstant(), rs.getString("reboot_mark")))
                .optional()
                .orElse(null);
    }
}
