package dev.allot.quota.ui;

import dev.allot.quota.QuotaPolicy;
import dev.allot.quota.policies.QuotaWindow;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.web.FormErrors;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A team admin's request for one GPU type as typed: the guaranteed and maximum GPUs and why. The rest of the
 * type's policy (durations, budget, priority, windows, approval rules) stays as it is now, or a new quota's
 * defaults; the other GPU types' policies are asked unchanged, since a request carries the whole list.
 */
record QuotaRequestForm(
        @Nullable String gpuType,
        @Nullable String guaranteedGpus,
        @Nullable String maxGpus,
        @Nullable String reason) {

    static final int MAX_REASON = 1000;

    static QuotaRequestForm empty() {
        return new QuotaRequestForm(null, null, null, null);
    }

    /** The whole policy list to ask for, or null with messages per field. */
    @Nullable
    List<QuotaPolicy> toPolicies(List<QuotaPolicy> current, List<String> gpuTypes, FormErrors errors) {
        String type = QuotaForm.clean(gpuType);
        if (!gpuTypes.contains(type)) {
            errors.add("gpuType", "Choose a GPU type");
        }
        Integer guaranteed = QuotaForm.count(guaranteedGpus, "guaranteedGpus", errors);
        Integer max = QuotaForm.count(maxGpus, "maxGpus", errors);
        if (guaranteed != null && max != null && max < guaranteed) {
            errors.add("maxGpus", "Must be at least the guaranteed GPUs (" + guaranteed + ")");
        }
        String why = QuotaForm.clean(reason);
        if (why.isEmpty()) {
            errors.add("reason", "Say why your team needs it: the platform admins decide on it");
        } else if (why.length() > MAX_REASON) {
            errors.add("reason", "Shorten it to at most " + MAX_REASON + " characters (it has " + why.length() + ")");
        }
        if (!errors.isEmpty() || guaranteed == null || max == null) {
            return null;
        }
        QuotaPolicy now = current.stream()
                .filter(p -> p.gpuType().equals(type))
                .findFirst()
                .orElse(null);
        QuotaPolicy base = now != null
                ? now
                : Objects.requireNonNull(QuotaForm.empty(type, 0).toPolicy(errors));
        if (now != null && now.guaranteedGpus() == guaranteed && now.maxGpus() == max) {
            errors.add("maxGpus", "That is your quota now: change the guaranteed or the maximum GPUs");
            return null;
        }
        int windowsAllow =
                base.windows().stream().mapToInt(QuotaWindow::maxGpus).min().orElse(Integer.MAX_VALUE);
        if (guaranteed > windowsAllow) {
            errors.add(
                    "guaranteedGpus",
                    "Your quota's time windows allow " + windowsAllow + " GPUs at times: ask for "
                            + "at most that many, or have a platform admin change the windows first");
            return null;
        }
        return withAsked(current, type, base, guaranteed, max, errors);
    }

    /** The current list with the type's policy replaced by {@code base} at the asked GPUs, sorted by GPU type. */
    private static @Nullable List<QuotaPolicy> withAsked(
            List<QuotaPolicy> current, String type, QuotaPolicy base, int guaranteed, int max, FormErrors errors) {
        // a quota that lends all of its guarantee keeps lending all of it; one that holds some back keeps that
        int lendable =
                base.lendableGpus() == base.guaranteedGpus() ? guaranteed : Math.min(base.lendableGpus(), guaranteed);
        List<QuotaPolicy> asked = new ArrayList<>(
                current.stream().filter(p -> !p.gpuType().equals(type)).toList());
        try {
            asked.add(new QuotaPolicy(
                    type,
                    guaranteed,
                    max,
                    base.burst(),
                    base.maxWindow(),
                    base.maxAdvance(),
                    base.monthlyBudget(),
                    base.priority(),
                    lendable,
                    base.zone(),
                    base.windows(),
                    base.approval()));
        } catch (InvalidInputException invalid) {
            errors.add(invalid, FormErrors.FORM);
            return null;
        }
        asked.sort(Comparator.comparing(QuotaPolicy::gpuType));
        return asked;
    }

    String cleanReason() {
        return QuotaForm.clean(reason);
    }
}
