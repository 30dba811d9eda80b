package dev.allot.billing.budgets;

import java.math.BigDecimal;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.YearMonth;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

@Repository
class BudgetRepository {

    record Stored(
            BigDecimal amount,
            String currency,
            List<Integer> thresholds,
            @Nullable String webhookUrl,
            @Nullable String webhookSecret,
            long version) {}

    private final JdbcClient jdbc;

    BudgetRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    Optional<Stored> find(UUID tenantId, boolean forUpdate) {
        return jdbc.sql("SELECT * FROM tenant_budget WHERE tenant_id = ?" + (forUpdate ? " FOR UPDATE" : ""))
                .param(tenantId)
                .query((rs, n) -> new Stored(
                        rs.getBigDecimal("amount"),
                        rs.getString("currency"),
                        Arrays.asList((Integer[]) rs.getArray("thresholds").getArray()),
                        rs.getString("webhook_url"),
                        rs.getString("webhook_secret"),
                        rs.getLong("version")))
                .optional();
    }

    void upsert(UUID tenantId, BudgetRequest r, @Nullable String sealedSecret, long version, Instant now) {
        jdbc.sql("""
				INSERT INTO tenant_budget (tenant_id, amount, currency, thresholds, webhook_url, webhook_secret, version,
				    updated_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?)
				ON CONFLICT (tenant_id) DO UPDATE SET amount = excluded.amount, currency = excluded.currency,
				    thresholds = excluded.thresholds, webhook_url = excluded.webhook_url,
				    webhook_secret = excluded.webhook_secret, version = excluded.version, updated_at = excluded.updated_at""")
                .params(
                        tenantId,
                        r.amount(),
                        r.currency(),
                        r.thresholdsOrDefault().toArray(Integer[]::new),
                        r.webhookUrl(),
                        sealedSecret,
                        version,
                        Timestamp.from(now))
                .update();
    }

    /** What the tenant owes for a statement month in a currency: the sum of its receivable entries. */
    BigDecimal spent(UUID tenantId, YearMonth month, String currency) {
        return jdbc.sql("""
				SELECT coalesce(sum(e.amount), 0) FROM ledger_entry e
				JOIN ledger_transaction t ON t.id = e.transaction_id
				JOIN ledger_account a ON a.id = e.account_id
				WHERE t.tenant_id = ? AND t.month = ? AND a.kind = 'RECEIVABLE' AND e.currency = ?""")
                .params(tenantId, month.atDay(1), currency)
                .query(BigDecimal.class)
                .single();
    }
}
