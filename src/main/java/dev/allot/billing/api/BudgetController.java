package dev.allot.billing.api;

import dev.allot.billing.budgets.Budget;
import dev.allot.billing.budgets.BudgetRequest;
import dev.allot.billing.budgets.Budgets;
import dev.allot.shared.security.Caller;
import java.math.BigDecimal;
import java.time.YearMonth;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** The tenant's monthly budget (tenant admins set it; {@code ETag}/{@code If-Match}); the secret is write-only. */
@RestController
@RequestMapping("/api/v1/tenants/{tenant}/budget")
class BudgetController {

    record BudgetBody(
            BigDecimal amount,
            String currency,
            List<Integer> thresholds,
            @Nullable String webhookUrl,
            boolean webhookSecretSet,
            YearMonth month,
            BigDecimal spent,
            BigDecimal percentUsed) {

        static BudgetBody of(Budget b) {
            return new BudgetBody(
                    b.amount(),
                    b.currency(),
                    b.thresholds(),
                    b.webhookUrl(),
                    b.webhookSecretSet(),
                    b.month(),
                    b.spent(),
                    b.percentUsed());
        }
    }

    private final Budgets budgets;

    BudgetController(Budgets budgets) {
        this.budgets = budgets;
    }

    @GetMapping
    ResponseEntity<BudgetBody> get(Caller caller, @PathVariable String tenant) {
        Budget budget = budgets.get(caller, tenant);
        return ResponseEntity.ok().eTag(budget.etag()).body(BudgetBody.of(budget));
    }

    @PutMapping
    ResponseEntity<BudgetBody> put(
            Caller caller,
            @PathVariable String tenant,
            @RequestHeader(name = "If-Match", required = false) @Nullable String ifMatch,
            @RequestBody BudgetRequest body) {
        Budget budget = budgets.put(caller, tenant, body, ifMatch);
        return ResponseEntity.ok().eTag(budget.etag()).body(BudgetBody.of(budget));
    }
}
