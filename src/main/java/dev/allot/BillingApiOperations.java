package dev.allot;

import static dev.allot.ApiOperations.op;

import java.util.LinkedHashMap;
import java.util.Map;

/** The names of the operations on usage, statements, the ledger and budgets (a part of {@link ApiOperations}). */
final class BillingApiOperations {

    static final Map<String, ApiOperations.Named> NAMED = new LinkedHashMap<>();

    private BillingApiOperations() {}

    static {
        op(
                NAMED,
                "GET",
                "/tenants/{tenant}/usage",
                "getUsage",
                "usage",
                "Read usage",
                "GPU-hours and cost grouped as asked; JSON, or CSV with Accept: text/csv.");
        op(
                NAMED,
                "GET",
                "/tenants/{tenant}/statements/{month}",
                "getStatement",
                "billing",
                "Get a monthly statement",
                "The statement of a month that has started; JSON, or CSV with Accept: text/csv.");
        op(
                NAMED,
                "GET",
                "/tenants/{tenant}/ledger",
                "listLedgerTransactions",
                "billing",
                "Read the ledger",
                "The tenant's double-entry ledger transactions, newest first.");
        op(
                NAMED,
                "POST",
                "/tenants/{tenant}/ledger/{transactionId}/reversal",
                "reverseLedgerTransaction",
                "billing",
                "Reverse a ledger transaction",
                "Books the opposite entries (platform admin).");
        op(
                NAMED,
                "GET",
                "/tenants/{tenant}/budget",
                "getBudget",
                "budgets",
                "Get the tenant's budget",
                "The monthly budget, its alert thresholds and webhook.");
        op(
                NAMED,
                "PUT",
                "/tenants/{tenant}/budget",
                "replaceBudget",
                "budgets",
                "Set the tenant's budget",
                "Monthly amount, thresholds and an optional signed webhook (tenant admin).");
        op(
                NAMED,
                "GET",
                "/tenants/{tenant}/projects/{project}/budget",
                "getProjectBudget",
                "budgets",
                "Get a project's budget",
                "The project's monthly cap and thresholds.");
        op(
                NAMED,
                "PUT",
                "/tenants/{tenant}/projects/{project}/budget",
                "replaceProjectBudget",
                "budgets",
                "Set a project's budget",
                "A monthly cap for the project (tenant admin).");
        op(
                NAMED,
                "DELETE",
                "/tenants/{tenant}/projects/{project}/budget",
                "deleteProjectBudget",
                "budgets",
                "Remove a project's budget",
                "The project is then bounded by the tenant's budget only.");
    }
}
