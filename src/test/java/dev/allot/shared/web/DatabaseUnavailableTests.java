package dev.allot.shared.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.postgresql.util.PSQLException;
import org.postgresql.util.PSQLState;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.UncategorizedSQLException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;

/**
 * Which failures are the database going away (503 with Retry-After) and which are ours or the request's. The HTTP
 * answers during a real failover are checked by {@code PatroniFailoverTests}.
 */
class DatabaseUnavailableTests {

    @Test
    void aLostConnectionAShutdownOrAStandbyRefusingAWriteIsTheDatabaseGoingAway() {
        assertThat(DatabaseUnavailable.causedBy(new CannotGetJdbcConnectionException(
                        "pool timed out",
                        new SQLException("Connection is not available, request timed out after 30000ms."))))
                .isTrue();
        assertThat(DatabaseUnavailable.causedBy(new CannotCreateTransactionException("no connection")))
                .isTrue();
        assertThat(DatabaseUnavailable.causedBy(new UncategorizedSQLException(
                        "commit",
                        "COMMIT",
                        new PSQLException(
                                "An I/O error occurred while sending to the backend.", PSQLState.CONNECTION_FAILURE))))
                .isTrue();
        assertThat(DatabaseUnavailable.causedBy(new RuntimeException(
                        "wrapped",
                        new UncategorizedSQLException(
                                "insert",
                                "INSERT",
                                new SQLException("terminating connection due to administrator command", "57P01")))))
                .isTrue();
        assertThat(DatabaseUnavailable.causedBy(new UncategorizedSQLException(
                        "insert",
                        "INSERT",
                        new SQLException("cannot execute INSERT in a read-only transaction", "25006"))))
                .isTrue();
        TransactionSystemException rollbackFailed =
                new TransactionSystemException("JDBC rollback failed", new SQLException("Connection is closed"));
        rollbackFailed.initApplicationException(new UncategorizedSQLException(
                "insert",
                "INSERT",
                new PSQLException(
                        "An I/O error occurred while sending to the backend.", PSQLState.CONNECTION_FAILURE)));
        assertThat(DatabaseUnavailable.causedBy(rollbackFailed)).isTrue();
        // the rate limiter's bucket library reports only the failed rollback on the connection Hikari evicted
        assertThat(DatabaseUnavailable.causedBy(new RuntimeException(new SQLException("Connection is closed"))))
                .isTrue();
    }

    @Test
    void aConstraintViolationOrAPlainBugIsNot() {
        assertThat(DatabaseUnavailable.causedBy(new DataIntegrityViolationException(
                        "duplicate key", new SQLException("duplicate key value violates unique constraint", "23505"))))
                .isFalse();
        assertThat(DatabaseUnavailable.causedBy(new IllegalStateException("a bug")))
                .isFalse();
        assertThat(DatabaseUnavailable.causedBy(
                        new UncategorizedSQLException("select", "SELECT", new SQLException("no state"))))
                .isFalse();
    }

    @Test
    void theProblemSaysWhenToRetry() {
        assertThat(DatabaseUnavailable.problem().status()).isEqualTo(503);
        assertThat(DatabaseUnavailable.problem().code()).isEqualTo("database_unavailable");
        assertThat(DatabaseUnavailable.problem().properties())
                .containsEntry("retryAfterSeconds", DatabaseUnavailable.RETRY_AFTER_SECONDS);
    }
}
