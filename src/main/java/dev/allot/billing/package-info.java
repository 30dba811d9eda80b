/**
 * Metering and the double-entry ledger: usage metered per reservation and hour, exactly once, posted as
 * balanced ledger transactions (PostgreSQL refuses anything else); monthly statements read from the ledger,
 * budgets with alerts and signed webhooks, tenants' lifecycle webhooks for CI ({@code webhooks}), usage and
 * platform reports, and idle detection from GPU telemetry.
 *
 * <p>Billing learns what to bill from events ({@code ReservationConfirmed}, {@code ReservationExtended},
 * {@code ReservationCancelled}, {@code NodeStateChanged}) and from provisioning's lifecycle ({@code ClusterReady},
 * {@code ReservationFailed}, see {@link dev.allot.billing.metering.Lifecycle}). Only the home pages read billing, through
 * {@link dev.allot.billing.Notices} and {@link dev.allot.billing.Spending}; nothing else depends on it.
 */
@ApplicationModule(
        displayName = "Billing",
        allowedDependencies = {
            "shared",
            "audit",
            "tenancy",
            "inventory",
            "inventory :: events",
            "quota",
            "quota :: pricing",
            "booking",
            "booking :: events",
            "booking :: spec",
            "booking :: volumes",
            "provisioning"
        })
@NullMarked
package dev.allot.billing;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
