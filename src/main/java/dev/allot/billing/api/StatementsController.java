package dev.allot.billing.api;

import dev.allot.billing.ledger.Statement;
import dev.allot.billing.ledger.Statements;
import dev.allot.shared.security.Caller;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** A monthly statement as JSON, or as CSV with {@code Accept: text/csv}. */
@RestController
@RequestMapping("/api/v1/tenants/{tenant}/statements/{month}")
class StatementsController {

    private final Statements statements;

    StatementsController(Statements statements) {
        this.statements = statements;
    }

    @GetMapping(params = "format=csv")
    ResponseEntity<String> csvDownload(Caller caller, @PathVariable String tenant, @PathVariable String month) {
        return csv(caller, tenant, month);
    }

    @GetMapping(produces = "application/json")
    Statement json(Caller caller, @PathVariable String tenant, @PathVariable String month) {
        return statements.statement(caller, tenant, month);
    }

    /** CSV by content negotiation, or by {@code ?format=csv} for a browser's download link. */
    @GetMapping(produces = Csv.TEXT_CSV)
    ResponseEntity<String> csv(Caller caller, @PathVariable String tenant, @PathVariable String month) {
        Statement s = statements.statement(caller, tenant, month);
        List<List<@Nullable Object>> rows = new ArrayList<>();
        for (Statement.StatementLine l : s.lines()) {
            rows.add(new ArrayList<>(List.of(l.line().name(), s.month().toString(), "")));
            rows.getLast()
                    .addAll(Arrays.asList(
                            l.project(),
                            l.gpuType(),
                            l.rateClass(),
                            l.unitPrice(),
                            l.gpuHours(),
                            l.amount(),
                            l.currency()));
        }
        for (Statement.Adjustment a : s.adjustments()) {
            rows.add(Arrays.asList(
                    "ADJUSTMENT",
                    s.month().toString(),
                    "reverses transaction " + a.reverses() + " of " + a.reversedMonth() + ": " + a.reason(),
                    null,
                    null,
                    null,
                    null,
                    null,
                    a.amount(),
                    a.currency()));
        }
        for (Statement.Total t : s.totals()) {
            rows.add(Arrays.asList(
                    "TOTAL", s.month().toString(), s.status(), null, null, null, null, null, t.total(), t.currency()));
        }
        return Csv.of(
                "statement-" + tenant + "-" + s.month() + ".csv",
                List.of(
                        "line",
                        "month",
                        "reference",
                        "project",
                        "gpuType",
                        "rateClass",
                        "unitPrice",
                        "gpuHours",
                        "amount",
                        "currency"),
                rows);
    }
}
