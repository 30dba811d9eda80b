package dev.allot.billing.ledger;

import dev.allot.quota.pricing.RateClass;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.security.Caller;
import dev.allot.tenancy.Tenancy;
import dev.allot.tenancy.Tenant;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Monthly statements, computed from the ledger on each request (a closed month's entries cannot change). */
@Service
@Transactional(readOnly = true)
public class Statements {

    private final JdbcClient jdbc;

    private final Tenancy tenancy;

    private final LedgerRepository ledger;

    private final Clock clock;

    Statements(JdbcClient jdbc, Tenancy tenancy, LedgerRepository ledger, Clock clock) {
        this.jdbc = jdbc;
        this.tenancy = tenancy;
        this.ledger = ledger;
        this.clock = clock;
    }

    public Statement statement(Caller caller, String tenantSlug, String monthText) {
        Tenant tenant = tenancy.readable(caller, tenantSlug);
        YearMonth month = parse(monthText);
        LocalDate first = month.atDay(1);
        List<Statement.StatementLine> lines = jdbc.sql("""
				SELECT e.line, e.project, e.gpu_type, e.rate_class, e.unit_price, e.currency,
				       sum(e.gpu_seconds) AS seconds, sum(e.amount) AS amount
				FROM ledger_entry e JOIN ledger_transaction t ON t.id = e.transaction_id
				JOIN ledger_account a ON a.id = e.account_id
				WHERE t.tenant_id = ? AND t.month = ? AND a.kind = 'RECEIVABLE' AND t.kind <> 'REVERSAL'
				GROUP BY e.line, e.project, e.gpu_type, e.rate_class, e.unit_price, e.currency
				ORDER BY e.line DESC, e.project, e.gpu_type, e.rate_class, e.unit_price""")
                .params(tenant.id(), first)
                .query((rs, n) -> {
                    String rateClass = rs.getString("rate_class");
                    return new Statement.StatementLine(
                            Line.valueOf(rs.getString("line")),
                            rs.getString("project"),
                            rs.getString("gpu_type"),
                            rateClass == null ? null : RateClass.valueOf(rateClass),
                            rs.getBigDecimal("unit_price"),
                            LedgerRepository.gpuHours(rs.getLong("seconds")),
                            rs.getBigDecimal("amount"),
                            rs.getString("currency"));
                })
                .list();
        List<Statement.Adjustment> adjustments = jdbc.sql("""
				SELECT t.id, t.reverses, o.month AS reversed_month, t.reason, t.actor, e.currency, sum(e.amount) AS amount
				FROM ledger_transaction t JOIN ledger_transaction o ON o.id = t.reverses
				JOIN ledger_entry e ON e.transaction_id = t.id JOIN ledger_account a ON a.id = e.account_id
				WHERE t.tenant_id = ? AND t.month = ? AND t.kind = 'REVERSAL' AND a.kind = 'RECEIVABLE'
				GROUP BY t.id, t.reverses, o.month, t.reason, t.actor, e.currency ORDER BY t.id""")
                .params(tenant.id(), first)
                .query((rs, n) -> new Statement.Adjustment(
                        rs.getLong("id"),
                        rs.getLong("reverses"),
                        YearMonth.from(rs.getObject("reversed_month", LocalDate.class)),
                        rs.getString("reason"),
                        rs.getString("actor"),
                        rs.getBigDecimal("amount"),
                        rs.getString("currency")))
                .list();
        return new Statement(
                tenant.slug(),
                month,
                ledger.isClosed(month) ? "CLOSED" : "OPEN",
                lines,
                adjustments,
                totals(lines, adjustments));
    }

    private static List<Statement.Total> totals(
            List<Statement.StatementLine> lines, List<Statement.Adjustment> adjustments) {
        Map<String, BigDecimal[]> sums = new LinkedHashMap<>();
        for (Statement.StatementLine line : lines) {
            BigDecimal[] s = sums.computeIfAbsent(line.currency(), c -> zeros());
            s[line.line().ordinal()] = s[line.line().ordinal()].add(line.amount());
        }
        for (Statement.Adjustment adjustment : adjustments) {
            BigDecimal[] s = sums.computeIfAbsent(adjustment.currency(), c -> zeros());
            s[3] = s[3].add(adjustment.amount());
        }
        List<Statement.Total> totals = new ArrayList<>();
        sums.forEach((currency, s) -> totals.add(new Statement.Total(
                currency, s[0], s[1], s[2], s[3], s[0].add(s[1]).add(s[2]).add(s[3]))));
        return totals;
    }

    private static BigDecimal[] zeros() {
        return new BigDecimal[] {BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO};
    }

    private YearMonth parse(String text) {
        YearMonth month;
        try {
            if (!text.matches("^\\d{4}-\\d{2}$")) {
                throw new DateTimeParseException("format", text, 0);
            }
            month = YearMonth.parse(text);
        } catch (DateTimeParseException ex) {
            throw InvalidInputException.of("month", "must be a month as yyyy-mm, such as 2027-01");
        }
        if (month.isAfter(YearMonth.from(clock.instant().atOffset(ZoneOffset.UTC)))) {
            throw InvalidInputException.of("month", "is in the future");
        }
        return month;
    }
}
