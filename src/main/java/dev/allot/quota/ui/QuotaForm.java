package dev.allot.quota.ui;

import dev.allot.quota.Priority;
import dev.allot.quota.QuotaPolicy;
import dev.allot.quota.policies.QuotaWindow;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.web.FormErrors;
import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One GPU type's quota as typed. {@code version} is the quota's version the admin saw (a stale one is refused
 * rather than overwriting someone else's change); {@code confirm} says the admin saw which reservations the new
 * limits leave above them.
 */
record QuotaForm(
        @Nullable String gpuType,
        @Nullable String guaranteedGpus,
        @Nullable String maxGpus,
        @Nullable String burst,
        @Nullable String maxWindow,
        @Nullable String maxAdvance,
        @Nullable String monthlyBudget,
        @Nullable String priority,
        @Nullable String lendableGpus,
        @Nullable String zone,
        @Nullable String windows,
        @Nullable String version,
        @Nullable String confirm) {

    static final int MAX_GPUS = 100_000;

    static QuotaForm of(QuotaPolicy policy, long version) {
        return new QuotaForm(
                policy.gpuType(),
                String.valueOf(policy.guaranteedGpus()),
                String.valueOf(policy.maxGpus()),
                policy.burst() ? "on" : null,
                DurationText.format(policy.maxWindow()),
                DurationText.format(policy.maxAdvance()),
                policy.monthlyBudget() == null
                        ? ""
                        : policy.monthlyBudget().stripTrailingZeros().toPlainString(),
                policy.priority().name(),
                policy.lendableGpus() == policy.guaranteedGpus() ? "" : String.valueOf(policy.lendableGpus()),
                policy.zone().getId(),
                String.join(
                        "\n", policy.windows().stream().map(QuotaWindow::stored).toList()),
                String.valueOf(version),
                null);
    }

    static QuotaForm empty(String gpuType, long version) {
        return new QuotaForm(
                gpuType,
                "0",
                "0",
                null,
                "7d",
                "30d",
                "",
                Priority.TRAINING.name(),
                "",
                "UTC",
                "",
                String.valueOf(version),
                null);
    }

    public boolean burstOn() {
        return burst != null && !burst.isBlank();
    }

    boolean confirmed() {
        return "yes".equals(confirm);
    }

    long versionNumber() {
        try {
            return Long.parseLong(clean(version));
        } catch (NumberFormatException ex) {
            return -1;
        }
    }

    /** The policy, or null with messages per field. */
    @Nullable
    QuotaPolicy toPolicy(FormErrors errors) {
        Integer guaranteed = count(guaranteedGpus, "guaranteedGpus", errors);
        Integer max = count(maxGpus, "maxGpus", errors);
        Duration window = duration(maxWindow, "maxWindow", errors);
        Duration advance = duration(maxAdvance, "maxAdvance", errors);
        BigDecimal budget = budget(errors);
        Priority chosen = priority(errors);
        if (guaranteed != null && max != null && max < guaranteed) {
            errors.add("maxGpus", "Must be at least the guaranteed GPUs (" + guaranteed + ")");
        }
        Integer lendable = clean(lendableGpus).isEmpty() ? guaranteed : count(lendableGpus, "lendableGpus", errors);
        if (lendable != null && guaranteed != null && lendable > guaranteed) {
            errors.add("lendableGpus", "Must be at most the guaranteed GPUs (" + guaranteed + ")");
        }
        ZoneId inZone = zone(errors);
        List<QuotaWindow> parsed = windows(errors);
        if (!errors.isEmpty()
                || guaranteed == null
                || max == null
                || window == null
                || advance == null
                || chosen == null
                || lendable == null
                || inZone == null) {
            return null;
        }
        try {
            return new QuotaPolicy(
                    clean(gpuType),
                    guaranteed,
                    max,
                    burstOn(),
                    window,
                    advance,
                    budget,
                    chosen,
                    lendable,
                    inZone,
                    parsed);
        } catch (InvalidInputException invalid) {
            errors.add(invalid, "form");
            return null;
        }
    }

    /** The monthly budget, or null when empty (or not an amount, with a message). */
    private @Nullable BigDecimal budget(FormErrors errors) {
        BigDecimal budget = null;
        if (!clean(monthlyBudget).isEmpty()) {
            try {
                budget = new BigDecimal(clean(monthlyBudget));
                if (budget.signum() < 0 || budget.scale() > 4 || budget.precision() - budget.scale() > 14) {
                    errors.add("monthlyBudget", "Enter an amount of 0 or more, with at most 4 decimals");
                }
            } catch (NumberFormatException ex) {
                errors.add("monthlyBudget", "Enter an amount such as 25000, or leave it empty for no budget");
            }
        }
        return budget;
    }

    private @Nullable Priority priority(FormErrors errors) {
        Priority chosen = null;
        for (Priority p : Priority.values()) {
            if (p.name().equals(priority)) {
                chosen = p;
            }
        }
        if (chosen == null) {
            errors.add("priority", "Choose a priority");
        }
        return chosen;
    }

    private @Nullable ZoneId zone(FormErrors errors) {
        ZoneId inZone = null;
        try {
            inZone = clean(zone).isEmpty() ? QuotaPolicy.UTC : ZoneId.of(clean(zone));
        } catch (DateTimeException ex) {
            errors.add("zone", "Enter a time zone such as Europe/Berlin or UTC");
        }
        return inZone;
    }

    /** The time windows, one a line (a line that is not one gets a message). */
    private List<QuotaWindow> windows(FormErrors errors) {
        List<QuotaWindow> parsed = new ArrayList<>();
        for (String line : clean(windows).split("\\R")) {
            if (!line.isBlank()) {
                try {
                    parsed.add(QuotaWindow.ofText(line));
                } catch (InvalidInputException ex) {
                    errors.add(
                            "windows",
                            "Line \"" + line.strip() + "\": "
                                    + ex.errors().getFirst().message()
                                    + ". Write days, hours and GPUs, such as SAT,SUN 00:00-24:00 64");
                }
            }
        }
        return parsed;
    }

    static @Nullable Integer count(@Nullable String value, String field, FormErrors errors) {
        try {
            int number = Integer.parseInt(clean(value));
            if (number < 0 || number > MAX_GPUS) {
                errors.add(field, "Enter a number of GPUs from 0 to " + MAX_GPUS);
                return null;
            }
            return number;
        } catch (NumberFormatException ex) {
            errors.add(field, "Enter a whole number of GPUs");
            return null;
        }
    }

    private static @Nullable Duration duration(@Nullable String value, String field, FormErrors errors) {
        Duration duration = DurationText.parse(value);
        if (duration == null) {
            errors.add(field, "Enter a duration such as 7d, 36h or 90m");
            return null;
        }
        if (duration.isZero() || duration.isNegative() || duration.compareTo(Duration.ofDays(3660)) > 0) {
            errors.add(field, "Enter a duration longer than 0 and at most 3660d");
            return null;
        }
        return duration;
    }

    static String clean(@Nullable String value) {
        return value == null ? "" : value.strip();
    }
}
