package dev.allot.billing.budgets;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.YearMonth;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

@Repository
class ProjectBudgetRepository {

    record Stored(
            String project, BigDecimal amount, String currency, List<Integer> thresholds, boolean hard, long version) {}

    private final JdbcClient jdbc;

    ProjectBudgetRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    Optional<Stored> find(UUID tenantId, String project, boolean forUpdate) {
        return jdbc.sql("SELECT * FROM project_budget WHERE tenant_id = ? AND project = ?"
                        + (forUpdate ? " FOR UPDATE" : ""))
                .params(tenantId, project)
                .query(ProjectBudgetRepository::stored)
                .optional();
    }

    /** The tenant's project budgets, locked in a fixed order (postings re-check them one at a time). */
    List<Stored> lockAll(UUID tenantId) {
        return jdbc.sql("SELECT * FROM project_budget WHERE tenant_id = ? ORDER BY project FOR UPDATE")
                .param(tenantId)
                .query(ProjectBudgetRepository::stored)
                .list();
    }

    void upsert(UUID tenantId, String project, ProjectBudgetRequest r, long version, Instant now) {
        jdbc.sql("""
				INSERT INTO project_budget (tenant_id, project, amount, currency, thresholds, hard, version, updated_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?)
				ON CONFLICT (tenant_id, project) DO UPDATE SET amount = excluded.amount, currency = excluded.currency,
				    thresholds = excluded.thresholds, hard = excluded.hard, version = excluded.version,
				    updated_at = excluded.updated_at""")
                .params(
                        tenantId,
                        project,
                        r.amount(),
                        r.currency(),
                        r.thresholdsOrDefault().toArray(Integer[]::new),
                        r.isHard(),
                        version,
                        Timestamp.from(now))
                .update();
    }

    void delete(UUID tenantId, String project) {
        jdbc.sql("DELETE FROM project_budget WHERE tenant_id = ? AND project = ?")
                .params(tenantId, project)
                .update();
    }

    /** What the ledger holds for the project in a statement month and currency (net of credits and reversals). */
    BigDecimal spent(UUID tenantId, String project, YearMonth month, String currency) {
        return jdbc.sql("""
				SELECT coalesce(sum(e.amount), 0) FROM ledger_entry e
				JOIN ledger_transaction t ON t.id = e.transaction_id
				JOIN ledger_account a ON a.id = e.account_id
				WHERE t.tenant_id = ? AND t.month = ? AND a.kind = 'RECEIVABLE' AND e.currency = ? AND e.project = ?""")
                .params(tenantId, month.atDay(1), currency, project)
                .query(BigDecimal.class)
                .single();
    }

    private static Stored stored(ResultSet rs, int n) throws SQLException {
        return new Stored(
                rs.getString("project"),
                rs.getBigDecimal("amount"),
                rs.getString("currency"),
                Arrays.asList((Integer[]) rs.getArray("thresholds").getArray()),
                rs.getBoolean("hard"),
                rs.getLong("version"));
    }
}
