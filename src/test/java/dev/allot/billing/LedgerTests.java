package dev.allot.billing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.dao.DataAccessException;
import org.springframework.transaction.support.TransactionTemplate;

/** What PostgreSQL itself refuses in the ledger, whoever writes to it. */
class LedgerTests extends BillingTest {

    @Autowired
    TransactionTemplate transactions;

    private record Accounts(UUID tenantId, long receivable, long revenue) {}

    private Accounts accounts() {
        String tenant = newTenant();
        UUID tenantId = jdbc.sql("SELECT id FROM tenant WHERE slug = ?")
                .param(tenant)
                .query(UUID.class)
                .single();
        long receivable = jdbc.sql("""
				INSERT INTO ledger_account (code, kind, tenant_id, currency) VALUES (?, 'RECEIVABLE', ?, 'USD') RETURNING id""")
                .params("receivable:" + tenantId, tenantId)
                .query(Long.class)
                .single();
        long revenue = jdbc.sql("""
				INSERT INTO ledger_account (code, kind, currency) VALUES ('revenue:reserved', 'REVENUE', 'USD')
				ON CONFLICT (code, currency) DO UPDATE SET kind = excluded.kind RETURNING id""").query(Long.class).single();
        return new Accounts(tenantId, receivable, revenue);
    }

    private long transaction(Accounts a, String key) {
        return jdbc.sql("""
				INSERT INTO ledger_transaction (tenant_id, kind, posting_key, month, posted_at, description)
				VALUES (?, 'USAGE', ?, ?, now(), 'test') RETURNING id""")
                .params(a.tenantId(), key, LocalDate.now().withDayOfMonth(1).plusYears(20))
                .query(Long.class)
                .single();
    }

    private void entry(long tx, long account, String amount) {
        jdbc.sql(
                        "INSERT INTO ledger_entry (transaction_id, account_id, currency, amount, line) VALUES (?, ?, 'USD', ?::numeric, 'USAGE')")
                .params(tx, account, amount)
                .update();
    }

    @Test
    void anUnbalancedTransactionIsRefusedAtCommit() {
        Accounts a = accounts();
        String key = "test:" + UUID.randomUUID();
        assertThatThrownBy(() -> transactions.executeWithoutResult(status -> {
                    long tx = transaction(a, key);
                    entry(tx, a.receivable(), "10.0000");
                    entry(tx, a.revenue(), "-9.9999");
                }))
                .isInstanceOf(DataAccessException.class)
                .rootCause()
                .hasMessageContaining("does not balance");
        assertThat(jdbc.sql("SELECT count(*) FROM ledger_transaction WHERE posting_key = ?")
                        .param(key)
                        .query(Long.class)
                        .single())
                .isZero();
    }

    @Test
    void aTransactionWithoutEntriesIsRefused() {
        Accounts a = accounts();
        assertThatThrownBy(
                        () -> transactions.executeWithoutResult(status -> transaction(a, "test:" + UUID.randomUUID())))
                .isInstanceOf(DataAccessException.class)
                .rootCause()
                .hasMessageContaining("has no entries");
    }

    @Test
    void postedEntriesAndTransactionsCannotBeChangedOrRemoved() {
        Accounts a = accounts();
        long tx = transactions.execute(status -> {
            long id = transaction(a, "test:" + UUID.randomUUID());
            entry(id, a.receivable(), "10.0000");
            entry(id, a.revenue(), "-10.0000");
            return id;
        });
        assertThatThrownBy(() -> jdbc.sql("UPDATE ledger_entry SET amount = 0 WHERE transaction_id = ?")
                        .param(tx)
                        .update())
                .rootCause()
                .hasMessageContaining("append-only");
        assertThatThrownBy(() -> jdbc.sql("DELETE FROM ledger_entry WHERE transaction_id = ?")
                        .param(tx)
                        .update())
                .rootCause()
                .hasMessageContaining("append-only");
        assertThatThrownBy(() -> jdbc.sql("UPDATE ledger_transaction SET description = 'x' WHERE id = ?")
                        .param(tx)
                        .update())
                .rootCause()
                .hasMessageContaining("append-only");
        assertThatThrownBy(() -> jdbc.sql("DELETE FROM ledger_transaction WHERE id = ?")
                        .param(tx)
                        .update())
                .rootCause()
                .hasMessageContaining("append-only");
        assertThat(jdbc.sql("SELECT sum(amount) FROM ledger_entry WHERE transaction_id = ?")
                        .param(tx)
                        .query(BigDecimal.class)
                        .single())
                .isZero();
    }

    @Test
    void anEntryInAnotherCurrencyThanItsAccountIsRefused() {
        Accounts a = accounts();
        assertThatThrownBy(() -> transactions.executeWithoutResult(status -> {
                    long tx = transaction(a, "test:" + UUID.randomUUID());
                    jdbc.sql(
                                    "INSERT INTO ledger_entry (transaction_id, account_id, currency, amount, line) VALUES (?, ?, 'EUR', 1, 'USAGE')")
                            .params(tx, a.receivable())
                            .update();
                }))
                .isInstanceOf(DataAccessException.class);
    }

    @Test
    void aClosedMonthTakesNoPostingAndStaysClosed() {
        Accounts a = accounts();
        LocalDate month =
                LocalDate.of(2001, 1, 1).plusMonths(Math.floorMod(a.tenantId().hashCode(), 1200));
        jdbc.sql("INSERT INTO ledger_month (month, closed_at) VALUES (?, now()) ON CONFLICT (month) DO NOTHING")
                .param(month)
                .update();
        assertThatThrownBy(() -> transactions.executeWithoutResult(status -> {
                    long tx = jdbc.sql("""
					INSERT INTO ledger_transaction (tenant_id, kind, posting_key, month, posted_at, description)
					VALUES (?, 'USAGE', ?, ?, now(), 'late') RETURNING id""")
                            .params(a.tenantId(), "test:" + UUID.randomUUID(), month)
                            .query(Long.class)
                            .single();
                    entry(tx, a.receivable(), "1");
                    entry(tx, a.revenue(), "-1");
                }))
                .rootCause()
                .hasMessageContaining("is closed");
        assertThatThrownBy(() -> jdbc.sql("UPDATE ledger_month SET closed_at = NULL WHERE month = ?")
                        .param(month)
                        .update())
                .rootCause()
                .hasMessageContaining("closed for good");
    }
}
