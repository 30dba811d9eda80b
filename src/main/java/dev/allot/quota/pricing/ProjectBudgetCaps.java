package dev.allot.quota.pricing;

import java.math.BigDecimal;
import java.util.Optional;
import java.util.UUID;

/**
 * Hard monthly caps on what a tenant's project may book, kept by another module (billing owns project budgets)
 * and read by quota inside the booking transaction, under the tenant's quota lock: a booking that would take
 * the project's booked amount for a month past its cap is refused ({@code projectBudget}).
 */
public interface ProjectBudgetCaps {

    record Cap(BigDecimal amount, String currency) {}

    /** The project's hard cap, if its budget is hard. */
    Optional<Cap> hardCap(UUID tenantId, String project);
}
