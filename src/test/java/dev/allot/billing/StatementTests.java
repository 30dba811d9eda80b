package dev.allot.billing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.Api;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Monthly statements read from the ledger; a closed month never changes. */
class StatementTests extends BillingTest {

    private String statementPath(Setup s, YearMonth month) {
        return path(s, "/statements/" + month);
    }

    private Setup meteredMonth(Instant t0) {
        Setup s = setup(4, 8, 16, true);
        book(s, 24, t0.plus(Duration.ofMinutes(70)), t0.plus(Duration.ofMinutes(250)));
        book(s, 8, t0.plus(Duration.ofHours(6)), t0.plus(Duration.ofHours(8)));
        CLOCK.set(t0.plus(Duration.ofHours(9)));
        metering.meterDue(CLOCK.instant());
        return s;
    }

    @Test
    void aStatementsTotalsEqualTheLedgerAsJsonAndAsCsv() {
        Instant t0 = newMonth();
        Setup s = meteredMonth(t0);
        YearMonth month = YearMonth.from(t0.atOffset(ZoneOffset.UTC));

        Api.Response json = api.get(statementPath(s, month), s.token());
        assertThat(json.status()).isEqualTo(200);
        JsonNode statement = json.json();
        BigDecimal ledgerTotal = receivable(s.tenant());
        assertThat(ledgerTotal.signum()).isPositive();
        assertThat(statement.get("status").asString()).isEqualTo("OPEN");
        assertThat(statement.get("totals")).hasSize(1);
        assertThat(statement.get("totals").get(0).get("total").decimalValue()).isEqualByComparingTo(ledgerTotal);
        BigDecimal sumOfLines = BigDecimal.ZERO;
        for (JsonNode line : statement.get("lines")) {
            sumOfLines = sumOfLines.add(line.get("amount").decimalValue());
            assertThat(line.get("project").asString()).isEqualTo("training");
            assertThat(line.get("gpuType").asString()).isEqualTo(s.gpuType());
        }
        assertThat(sumOfLines).isEqualByComparingTo(ledgerTotal);
        assertThat(statement.get("lines"))
                .extracting(l -> l.get("rateClass").asString())
                .containsExactlyInAnyOrder("RESERVED", "BORROWED", "ON_DEMAND");

        Api.Response csv = api.get(statementPath(s, month), s.token(), "Accept", "text/csv");
        assertThat(csv.status()).isEqualTo(200);
        assertThat(csv.contentType()).startsWith("text/csv");
        String[] rows = csv.body().split("\r\n");
        assertThat(rows[0])
                .isEqualTo("line,month,reference,project,gpuType,rateClass,unitPrice,gpuHours,amount,currency");
        String[] total = rows[rows.length - 1].split(",", -1);
        assertThat(total[0] + "," + total[1] + "," + total[2] + "," + total[9])
                .isEqualTo("TOTAL," + month + ",OPEN,USD");
        assertThat(new BigDecimal(total[8])).isEqualByComparingTo(ledgerTotal);
        assertThat(rows).hasSize(statement.get("lines").size() + 2);
    }

    /** A metered month, closed: the clock is 7 hours into the next one. */
    private record Closed(Setup s, YearMonth month, long transaction) {}

    private Closed closedMonth() {
        Instant t0 = newMonth();
        Setup s = meteredMonth(t0);
        YearMonth month = YearMonth.from(t0.atOffset(ZoneOffset.UTC));
        long transaction = jdbc.sql("""
				SELECT min(x.id) FROM ledger_transaction x JOIN tenant t ON t.id = x.tenant_id WHERE t.slug = ?""").param(s.tenant()).query(Long.class).single();
        CLOCK.set(month.plusMonths(1)
                .atDay(1)
                .atStartOfDay()
                .toInstant(ZoneOffset.UTC)
                .plus(Duration.ofHours(7)));
        ledger.closeMonths();
        return new Closed(s, month, transaction);
    }

    @Test
    void aClosedMonthNeverChangesAndALateCorrectionGoesToTheNextMonthWithAReference() {
        Closed c = closedMonth();
        Setup s = c.s();
        YearMonth month = c.month();
        long transaction = c.transaction();
        JsonNode closed = api.get(statementPath(s, month), s.token()).json();
        assertThat(closed.get("status").asString()).isEqualTo("CLOSED");

        assertThat(api.post(path(s, "/ledger/" + transaction + "/reversal"), s.token(), Map.of("reason", "goodwill"))
                        .status())
                .isEqualTo(403);
        Api.Response reversal = api.post(
                path(s, "/ledger/" + transaction + "/reversal"),
                adminToken(),
                Map.of("reason", "double-billed hour, ticket 4711"));
        assertThat(reversal.status()).isEqualTo(201);
        assertThat(reversal.json().get("month").asString())
                .isEqualTo(month.plusMonths(1).toString());
        assertThat(reversal.json().get("reverses").asLong()).isEqualTo(transaction);
        assertThat(api.post(path(s, "/ledger/" + transaction + "/reversal"), adminToken(), Map.of("reason", "again"))
                        .status())
                .isEqualTo(409);

        assertThat(api.get(statementPath(s, month), s.token()).json()).isEqualTo(closed);
        JsonNode next =
                api.get(statementPath(s, month.plusMonths(1)), s.token()).json();
        assertThat(next.get("adjustments")).hasSize(1);
        JsonNode adjustment = next.get("adjustments").get(0);
        assertThat(adjustment.get("reverses").asLong()).isEqualTo(transaction);
        assertThat(adjustment.get("reversedMonth").asString()).isEqualTo(month.toString());
        assertThat(adjustment.get("reason").asString()).isEqualTo("double-billed hour, ticket 4711");
        assertThat(adjustment.get("amount").decimalValue().signum()).isNegative();
        assertThat(closed.get("totals")
                        .get(0)
                        .get("total")
                        .decimalValue()
                        .add(next.get("totals").get(0).get("total").decimalValue()))
                .isEqualByComparingTo(receivable(s.tenant()));
        assertThat(jdbc.sql("SELECT count(*) FROM audit_event WHERE action = 'ledger.reversed' AND object_id = ?")
                        .param(String.valueOf(transaction))
                        .query(Long.class)
                        .single())
                .isEqualTo(1);
        assertThat(unbalancedTransactions()).isZero();
    }

    @Test
    void whenAReplicaAheadHasClosedTheCurrentMonthTooALateCorrectionGoesToTheFirstOpenMonth() {
        Closed c = closedMonth();
        Setup s = c.s();
        YearMonth month = c.month();
        long transaction = c.transaction();
        // a replica whose clock runs a month ahead closed the month this one calls current
        jdbc.sql(
                        "INSERT INTO ledger_month (month, closed_at) VALUES (?, now()) ON CONFLICT (month) DO UPDATE SET closed_at = now() WHERE ledger_month.closed_at IS NULL")
                .param(month.plusMonths(1).atDay(1))
                .update();

        Api.Response reversal = api.post(
                path(s, "/ledger/" + transaction + "/reversal"), adminToken(), Map.of("reason", "late correction"));
        assertThat(reversal.status()).as(reversal.body()).isEqualTo(201);
        assertThat(reversal.json().get("month").asString())
                .isEqualTo(month.plusMonths(2).toString());
        assertThat(unbalancedTransactions()).isZero();
    }
}
