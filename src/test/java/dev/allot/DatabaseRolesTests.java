package dev.allot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.allot.support.IntegrationTest;
import dev.allot.support.TestDatabase;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessException;

/**
 * The application's database role reads and writes rows, nothing more: with its credentials the audit trail
 * cannot be switched off, emptied or dropped, and no table can be altered.
 */
class DatabaseRolesTests extends IntegrationTest {

    @Test
    void theApplicationConnectsAsARoleThatIsNeitherOwnerNorSuperuser() {
        assertThat(jdbc.sql("SELECT current_user").query(String.class).single())
                .isEqualTo(TestDatabase.Connection.APPLICATION_ROLE);
        assertThat(jdbc.sql(
                                "SELECT rolsuper OR rolcreaterole OR rolcreatedb FROM pg_roles WHERE rolname = current_user")
                        .query(Boolean.class)
                        .single())
                .isFalse();
        assertThat(jdbc.sql(
                                "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema() AND tableowner = current_user")
                        .query(Long.class)
                        .single())
                .isZero();
    }

    @Test
    void itCannotDisableTheAuditTriggersNorTruncateAlterOrDropTables() {
        newTenant();
        long audit =
                jdbc.sql("SELECT count(*) FROM audit_event").query(Long.class).single();
        for (String sql : List.of(
                "ALTER TABLE audit_event DISABLE TRIGGER audit_event_append_only",
                "ALTER TABLE audit_event DISABLE TRIGGER ALL",
                "SET session_replication_role = replica",
                "TRUNCATE audit_event",
                "DROP TABLE audit_event",
                "ALTER TABLE ledger_transaction ADD COLUMN x int",
                "DROP TRIGGER audit_event_append_only ON audit_event",
                "CREATE TABLE smuggled (x int)",
                "CREATE OR REPLACE FUNCTION audit_event_is_append_only() RETURNS trigger LANGUAGE plpgsql AS "
                        + "$$ BEGIN RETURN NEW; END $$")) {
            assertThatThrownBy(() -> jdbc.sql(sql).update())
                    .as(sql)
                    .isInstanceOf(DataAccessException.class)
                    .rootCause()
                    .hasMessageMatching("(?s).*(must be owner|permission denied).*");
        }
        assertThatThrownBy(() -> jdbc.sql("DELETE FROM audit_event").update()).isInstanceOf(DataAccessException.class);
        assertThat(jdbc.sql("SELECT count(*) FROM audit_event")
                        .query(Long.class)
                        .single())
                .isEqualTo(audit);
    }
}
