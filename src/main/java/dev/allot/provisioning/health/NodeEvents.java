package dev.allot.provisioning.health;

import dev.allot.provisioning.checks.DcgmDiagOutput;
import dev.allot.provisioning.checks.NvidiaSmiOutput;
import dev.allot.provisioning.checks.Verdict;
import dev.allot.provisioning.driver.HealthCheckKind;
import dev.allot.provisioning.lifecycle.Cluster;
import dev.allot.provisioning.lifecycle.ClusterRepository;
import dev.allot.shared.AllotException;
import dev.allot.shared.security.Caller;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.Locale;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.modulith.NamedInterface;
import org.springframework.stereotype.Service;

/**
 * Passive health signals from an exporter or a webhook (an Xid, ECC errors, a DCGM health event), fed into the
 * same remediation as a failed check: on a node under a serving cluster through that cluster, on an idle node a
 * hardware fault quarantines it (and moves the reservations that hold it later).
 */
@Service
@NamedInterface("node-events") // the demo reports its node incident as an exporter would
public class NodeEvents {

    public enum Type {
        XID,
        ECC,
        DCGM
    }

    /**
     * @param xid the Xid number of an {@code XID} event
     * @param uncorrectedErrors uncorrected ECC errors of an {@code ECC} event (corrected ones alone ask for nothing)
     * @param errorCategory the {@code dcgm_errors.h} category of a {@code DCGM} event
     */
    public record Event(
            Type type,
            @Nullable Integer xid,
            @Nullable Integer uncorrectedErrors,
            @Nullable Integer errorCategory,
            @Nullable String message) {}

    /** What the event caused: its class of fault, the remediation, and the cluster it concerned. */
    public record NodeEventOutcome(
            String hostname,
            Verdict.Fault fault,
            Remediation.Action action,
            @Nullable UUID reservationId) {}

    private final ClusterRepository clusters;

    private final Remediation remediation;

    private final JdbcClient jdbc;

    private final Clock clock;

    NodeEvents(ClusterRepository clusters, Remediation remediation, JdbcClient jdbc, Clock clock) {
        this.clusters = clusters;
        this.remediation = remediation;
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /** Classifies and remediates the event, and keeps it for the node's history with what it caused. */
    public NodeEventOutcome report(Caller caller, String hostname, Event event) {
        caller.requirePlatformAdmin();
        Instant at = clock.instant();
        NodeEventOutcome outcome = remediate(hostname, event);
        jdbc.sql("""
				INSERT INTO node_event (hostname, type, detail, fault, action, reported_by, at)
				VALUES (?, ?, ?, ?, ?, ?, ?)""")
                .params(
                        hostname,
                        event.type().name(),
                        Remediation.shorten(describe(event), 2000),
                        outcome.fault().name(),
                        outcome.action().name(),
                        caller.subject(),
                        Timestamp.from(at))
                .update();
        return outcome;
    }

    private NodeEventOutcome remediate(String hostname, Event event) {
        Verdict.Fault fault = classify(event);
        String why = describe(event);
        Cluster cluster = clusters.servingOn(hostname).orElse(null);
        if (fault == Verdict.Fault.NONE) {
            return new NodeEventOutcome(
                    hostname, fault, Remediation.Action.NONE, cluster == null ? null : cluster.reservationId());
        }
        if (cluster != null) {
            HealthCheckKind recheck =
                    event.type() == Type.DCGM ? HealthCheckKind.DCGM_DIAG : HealthCheckKind.NVIDIA_SMI;
            return new NodeEventOutcome(
                    hostname,
                    fault,
                    remediation.remediate(cluster, hostname, fault, why, recheck),
                    cluster.reservationId());
        }
        if (fault == Verdict.Fault.HARDWARE) {
            remediation.quarantineAndReplace(null, hostname, fault, "hardware fault: " + why);
            return new NodeEventOutcome(hostname, fault, Remediation.Action.QUARANTINE, null);
        }
        return new NodeEventOutcome(hostname, fault, Remediation.Action.NONE, null);
    }

    static Verdict.Fault classify(Event event) {
        return switch (event.type()) {
            case XID -> NvidiaSmiOutput.faultOfXid(require(event.xid(), "xid", 1, 1000));
            case ECC ->
                require(event.uncorrectedErrors(), "uncorrectedErrors", 0, 1_000_000) > 0
                        ? Verdict.Fault.HARDWARE
                        : Verdict.Fault.NONE;
            case DCGM ->
                DcgmDiagOutput.isHardware(require(event.errorCategory(), "errorCategory", 0, 16))
                        ? Verdict.Fault.HARDWARE
                        : Verdict.Fault.SOFTWARE;
        };
    }

    private static String describe(Event event) {
        String what = switch (event.type()) {
            case XID -> "Xid " + event.xid();
            case ECC -> event.uncorrectedErrors() + " uncorrected ECC errors";
            case DCGM -> "DCGM health event, error category " + event.errorCategory();
        };
        return what
                + (event.message() == null || event.message().isBlank()
                        ? ""
                        : " (" + event.message().strip() + ")") + " reported by an exporter";
    }

    private static int require(@Nullable Integer value, String field, int min, int max) {
        if (value == null || value < min || value > max) {
            throw new AllotException(
                    400,
                    "invalid_request",
                    "Invalid request",
                    "A " + field.toUpperCase(Locale.ROOT) + " event needs " + field + " between " + min + " and "
                            + max);
        }
        return value;
    }
}
