package dev.allot.billing.ledger;

import dev.allot.quota.pricing.RateClass;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

@Repository
public class LedgerRepository {

    private final JdbcClient jdbc;

    LedgerRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    long account(Account account, String currency) {
        jdbc.sql(
                        "INSERT INTO ledger_account (code, kind, tenant_id, currency) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING")
                .params(account.code(), account.kind().name(), account.tenantId(), currency)
                .update();
        return jdbc.sql("SELECT id FROM ledger_account WHERE code = ? AND currency = ?")
                .params(account.code(), currency)
                .query(Long.class)
                .single();
    }

    boolean isClosed(YearMonth month) {
        return jdbc.sql("SELECT closed_at IS NOT NULL FROM ledger_month WHERE month = ?")
                .param(month.atDay(1))
                .query(Boolean.class)
                .optional()
                .orElse(false);
    }

    /** {@code from}, or the first month after it that has not closed. */
    YearMonth firstOpenMonthFrom(YearMonth from) {
        LocalDate open = jdbc.sql("""
				SELECT min(m)::date FROM generate_series(?::date, ?::date + interval '1200 months', interval '1 month') g(m)
				WHERE NOT EXISTS (SELECT 1 FROM ledger_month l WHERE l.month = g.m::date AND l.closed_at IS NOT NULL)
				""")
                .params(from.atDay(1), from.atDay(1))
                .query(LocalDate.class)
                .single();
        return YearMonth.from(open);
    }

    /** Closes every open month starting before {@code before} (its row created closed if it had no posting). */
    int closeMonthsBefore(YearMonth before, Instant now) {
        int closed = jdbc.sql("UPDATE ledger_month SET closed_at = ? WHERE closed_at IS NULL AND month < ?")
                .params(ts(now), before.atDay(1))
                .update();
        closed += jdbc.sql("INSERT INTO ledger_month (month, closed_at) VALUES (?, ?) ON CONFLICT DO NOTHING")
                .params(before.minusMonths(1).atDay(1), ts(now))
                .update();
        return closed;
    }

    /** The new transaction's id, or empty when one with the same key exists (exactly once). */
    Optional<Long> insertTransaction(
            Posting posting,
            YearMonth month,
            String description,
            Instant now,
            @Nullable Long reverses,
            @Nullable String reason,
            @Nullable String actor) {
        return jdbc.sql("""
				INSERT INTO ledger_transaction (tenant_id, kind, posting_key, month, posted_at, description, reverses,
				    reason, actor)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (posting_key) DO NOTHING RETURNING id""")
                .params(
                        posting.tenantId(),
                        posting.kind().name(),
                        posting.key(),
                        month.atDay(1),
                        ts(now),
                        description,
                        reverses,
                        reason,
                        actor)
                .query(Long.class)
                .optional();
    }

    void insertEntry(long transactionId, long accountId, BigDecimal amount, Charge c) {
        jdbc.sql("""
				INSERT INTO ledger_entry (transaction_id, account_id, currency, amount, line, reservation_id, project,
				    gpu_type, rate_class, period_start, gpu_seconds, unit_price)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""")
                .params(
                        transactionId,
                        accountId,
                        c.currency(),
                        amount,
                        c.line().name(),
                        c.reservationId(),
                        c.project(),
                        c.gpuType(),
                        c.rateClass() == null ? null : c.rateClass().name(),
                        c.periodStart() == null ? null : ts(c.periodStart()),
                        c.gpuSeconds(),
                        c.unitPrice())
                .update();
    }

    /** Raw entries of a transaction, to be negated by a reversal. */
    List<RawEntry> entriesOf(long transactionId) {
        return jdbc.sql("""
				SELECT e.*, a.code, a.kind, a.tenant_id FROM ledger_entry e JOIN ledger_account a ON a.id = e.account_id
				WHERE e.transaction_id = ? ORDER BY e.id""")
                .param(transactionId)
                .query((rs, n) -> new RawEntry(rs.getLong("account_id"), rs.getBigDecimal("amount"), charge(rs)))
                .list();
    }

    record RawEntry(long accountId, BigDecimal amount, Charge dimensions) {}

    record Header(long id, UUID tenantId, String kind, YearMonth month, boolean reversed) {}

    Optional<Header> header(UUID tenantId, long id) {
        return jdbc.sql("""
				SELECT t.id, t.tenant_id, t.kind, t.month,
				       EXISTS (SELECT 1 FROM ledger_transaction r WHERE r.reverses = t.id) AS reversed
				FROM ledger_transaction t WHERE t.tenant_id = ? AND t.id = ?""")
                .params(tenantId, id)
                .query((rs, n) -> new Header(
                        rs.getLong("id"),
                        rs.getObject("tenant_id", UUID.class),
                        rs.getString("kind"),
                        YearMonth.from(rs.getObject("month", LocalDate.class)),
                        rs.getBoolean("reversed")))
                .optional();
    }

    /** A reservation's transactions not yet reversed (and not reversals themselves). */
    List<Long> openTransactionsOf(UUID reservationId) {
        return jdbc.sql("""
				SELECT DISTINCT t.id FROM ledger_transaction t JOIN ledger_entry e ON e.transaction_id = t.id
				WHERE e.reservation_id = ? AND t.kind <> 'REVERSAL'
				  AND NOT EXISTS (SELECT 1 FROM ledger_transaction r WHERE r.reverses = t.id)
				ORDER BY t.id""").param(reservationId).query(Long.class).list();
    }

    /** Newest first; {@code beforeId} is the keyset cursor, {@code offset} the page fallback. */
    List<LedgerTransaction> page(UUID tenantId, @Nullable Long beforeId, long offset, int size) {
        List<Long> ids = jdbc.sql("SELECT id FROM ledger_transaction WHERE tenant_id = ? AND id < ? "
                        + "ORDER BY id DESC LIMIT ? OFFSET ?")
                .params(tenantId, beforeId == null ? Long.MAX_VALUE : beforeId, size, offset)
                .query(Long.class)
                .list();
        if (ids.isEmpty()) {
            return List.of();
        }
        Map<Long, List<LedgerTransaction.Entry>> entries = new LinkedHashMap<>();
        jdbc.sql("""
				SELECT e.*, a.code FROM ledger_entry e JOIN ledger_account a ON a.id = e.account_id
				WHERE e.transaction_id = ANY (?) ORDER BY e.id""").param(ids.toArray(Long[]::new)).query(rs -> {
            entries.computeIfAbsent(rs.getLong("transaction_id"), k -> new ArrayList<>())
                    .add(entry(rs));
        });
        return jdbc.sql("SELECT * FROM ledger_transaction WHERE id = ANY (?) ORDER BY id DESC")
                .param(ids.toArray(Long[]::new))
                .query((rs, n) -> new LedgerTransaction(
                        rs.getLong("id"),
                        rs.getString("kind"),
                        YearMonth.from(rs.getObject("month", LocalDate.class)),
                        rs.getTimestamp("posted_at").toInstant(),
                        rs.getString("description"),
                        (Long) rs.getObject("reverses"),
                        rs.getString("reason"),
                        rs.getString("actor"),
                        entries.getOrDefault(rs.getLong("id"), List.of())))
                .list();
    }

    long count(UUID tenantId) {
        return jdbc.sql("SELECT count(*) FROM ledger_transaction WHERE tenant_id = ?")
                .param(tenantId)
                .query(Long.class)
                .single();
    }

    private static LedgerTransaction.Entry entry(ResultSet rs) throws SQLException {
        Charge c = charge(rs);
        long seconds = rs.getLong("gpu_seconds");
        return new LedgerTransaction.Entry(
                rs.getString("code"),
                c.currency(),
                rs.getBigDecimal("amount"),
                c.line(),
                c.reservationId(),
                c.project(),
                c.gpuType(),
                c.rateClass(),
                c.periodStart(),
                rs.wasNull() ? null : gpuHours(seconds),
                c.unitPrice());
    }

    public static BigDecimal gpuHours(long gpuSeconds) {
        return BigDecimal.valueOf(gpuSeconds).divide(BigDecimal.valueOf(3600), 4, RoundingMode.HALF_EVEN);
    }

    /** The dimensions of a stored entry (its account is kept apart). */
    private static Charge charge(ResultSet rs) throws SQLException {
        String rateClass = rs.getString("rate_class");
        Timestamp period = rs.getTimestamp("period_start");
        return new Charge(
                Line.valueOf(rs.getString("line")),
                Account.OUTAGE_CREDITS,
                rs.getString("currency"),
                rs.getBigDecimal("amount"),
                rs.getObject("reservation_id", UUID.class),
                rs.getString("project"),
                rs.getString("gpu_type"),
                rateClass == null ? null : RateClass.valueOf(rateClass),
                period == null ? null : period.toInstant(),
                rs.getLong("gpu_seconds"),
                rs.getBigDecimal("unit_price"));
    }

    static Timestamp ts(Instant instant) {
        return Timestamp.from(instant);
    }
}
