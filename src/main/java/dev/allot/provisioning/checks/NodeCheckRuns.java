package dev.allot.provisioning.checks;

import dev.allot.provisioning.driver.HealthCheckKind;
import java.sql.Timestamp;
import java.time.Clock;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * The acceptance checks run on each node, recorded as each starts and again as it finishes, each in a transaction of
 * its own: a node's history ({@code health.NodeHistory}) shows a check still running while it runs.
 */
@Component
@Transactional(propagation = Propagation.REQUIRES_NEW)
class NodeCheckRuns {

    private static final int SUMMARY = 2000;

    private static final int OUTPUT = 100_000;

    private final JdbcClient jdbc;

    private final Clock clock;

    NodeCheckRuns(JdbcClient jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /** A check begins on the node; its run's id. */
    long started(String hostname, UUID reservationId, HealthCheckKind kind) {
        return jdbc.sql("""
				INSERT INTO node_check_run (hostname, reservation_id, purpose, kind, started_at)
				VALUES (?, ?, 'ACCEPTANCE', ?, ?) RETURNING id""")
                .params(hostname, reservationId, kind.name(), Timestamp.from(clock.instant()))
                .query(Long.class)
                .single();
    }

    /** The check finished with this verdict. */
    void finished(long run, Verdict verdict, String output) {
        finish(run, verdict.passed(), verdict.fault().name(), verdict.summary(), output);
    }

    /** The check could not run: the driver failed. */
    void failed(long run, String why) {
        finish(run, false, null, "the driver could not run the check: " + why, "");
    }

    private void finish(long run, boolean passed, @Nullable String fault, String summary, String output) {
        jdbc.sql("UPDATE node_check_run SET finished_at = ?, passed = ?, fault = ?, summary = ?, output = ? "
                        + "WHERE id = ? AND finished_at IS NULL")
                .params(Timestamp.from(clock.instant()), passed, fault, cut(summary, SUMMARY), cut(output, OUTPUT), run)
                .update();
    }

    private static String cut(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max - 1) + "…";
    }
}
