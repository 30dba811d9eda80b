package dev.allot.billing.api;

import dev.allot.billing.budgets.ProjectBudget;
import dev.allot.billing.budgets.ProjectBudgetRequest;
import dev.allot.billing.budgets.ProjectBudgets;
import dev.allot.shared.security.Caller;
import java.math.BigDecimal;
import java.time.YearMonth;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * A project's monthly budget (tenant admins set it; {@code ETag}/{@code If-Match}). {@code spent} is what the
 * ledger holds for the month, {@code booked} what the project's live bookings cost in it (a hard budget caps it).
 */
@RestController
@RequestMapping("/api/v1/tenants/{tenant}/projects/{project}/budget")
class ProjectBudgetController {

    record ProjectBudgetBody(
            String project,
            BigDecimal amount,
            String currency,
            List<Integer> thresholds,
            boolean hard,
            YearMonth month,
            BigDecimal spent,
            BigDecimal booked,
            BigDecimal percentUsed) {

        static ProjectBudgetBody of(ProjectBudget b) {
            return new ProjectBudgetBody(
                    b.project(),
                    b.amount(),
                    b.currency(),
                    b.thresholds(),
                    b.hard(),
                    b.month(),
                    b.spent(),
                    b.booked(),
                    b.percentUsed());
        }
    }

    private final ProjectBudgets budgets;

    ProjectBudgetController(ProjectBudgets budgets) {
        this.budgets = budgets;
    }

    @GetMapping
    ResponseEntity<ProjectBudgetBody> getProjectBudget(
            Caller caller, @PathVariable String tenant, @PathVariable String project) {
        ProjectBudget budget = budgets.get(caller, tenant, project);
        return ResponseEntity.ok().eTag(budget.etag()).body(ProjectBudgetBody.of(budget));
    }

    @PutMapping
    ResponseEntity<ProjectBudgetBody> putProjectBudget(
            Caller caller,
            @PathVariable String tenant,
            @PathVariable String project,
            @RequestHeader(name = "If-Match", required = false) @Nullable String ifMatch,
            @RequestBody ProjectBudgetRequest body) {
        ProjectBudget budget = budgets.put(caller, tenant, project, body, ifMatch);
        return ResponseEntity.ok().eTag(budget.etag()).body(ProjectBudgetBody.of(budget));
    }

    @DeleteMapping
    @ResponseStatus(HttpStatus.NO_CONTENT)
    ResponseEntity<Void> deleteProjectBudget(
            Caller caller,
            @PathVariable String tenant,
            @PathVariable String project,
            @RequestHeader(name = "If-Match", required = false) @Nullable String ifMatch) {
        budgets.delete(caller, tenant, project, ifMatch);
        return ResponseEntity.noContent().build();
    }
}
