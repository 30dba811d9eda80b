package dev.allot.provisioning.health;

import static dev.allot.provisioning.health.Remediation.shorten;

import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditRecord;
import dev.allot.provisioning.checks.Verdict;
import dev.allot.provisioning.health.Remediation.Action;
import dev.allot.provisioning.lifecycle.Cluster;
import dev.allot.provisioning.lifecycle.ClusterRepository;
import dev.allot.provisioning.lifecycle.Timeline;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Each remediation step a node went through ({@code node_remediation}), on the cluster's timeline and in the audit
 * trail; and whether a node was remediated within the cooldown.
 */
@Component
class RemediationRecord {

    private final JdbcClient jdbc;

    private final ClusterRepository clusters;

    private final Timeline timeline;

    private final AuditLog audit;

    private final TransactionTemplate transactions;

    private final Clock clock;

    RemediationRecord(
            JdbcClient jdbc,
            ClusterRepository clusters,
            Timeline timeline,
            AuditLog audit,
            TransactionTemplate transactions,
            Clock clock) {
        this.jdbc = jdbc;
        this.clusters = clusters;
        this.timeline = timeline;
        this.audit = audit;
        this.transactions = transactions;
        this.clock = clock;
    }

    boolean remediatedSince(String node, Instant since) {
        return jdbc.sql("SELECT count(*) FROM node_remediation WHERE hostname = ? AND at >= ? AND action <> 'NONE'")
                        .params(node, Timestamp.from(since))
                        .query(Long.class)
                        .single()
                > 0;
    }

    /** Records the step; {@code rebootMark} is what the driver read of the node before a reboot ({@link RebootRechecks}). */
    void note(
            @Nullable UUID reservationId,
            String node,
            Action action,
            Verdict.Fault fault,
            String detail,
            @Nullable String rebootMark) {
        transactions.executeWithoutResult(status -> {
            Instant now = clock.instant();
            jdbc.sql("""
					INSERT INTO node_remediation (hostname, reservation_id, action, fault, reason, at, reboot_mark)
					VALUES (?, ?, ?, ?, ?, ?, ?)""")
                    .params(
                            node,
                            reservationId,
                            action.name(),
                            fault.name(),
                            shorten(detail, 4000),
                            Timestamp.from(now),
                            rebootMark == null ? null : shorten(rebootMark, 200))
                    .update();
            Cluster cluster =
                    reservationId == null ? null : clusters.find(reservationId).orElse(null);
            if (cluster != null && reservationId != null) {
                timeline.record(
                        reservationId, Timeline.REMEDIATION, "ACTED", cluster.state(), null, shorten(detail, 4000));
            }
            audit.record(new AuditRecord(
                    cluster == null ? null : cluster.tenant(),
                    "node.remediation." + action.name().toLowerCase(Locale.ROOT),
                    "node",
                    node,
                    null,
                    Map.of(
                            "reservation",
                            String.valueOf(reservationId),
                            "fault",
                            fault.name(),
                            "detail",
                            shorten(detail, 1000))));
        });
    }
}
