package dev.allot.quota.ui;

import dev.allot.quota.QuotaPolicy;
import dev.allot.shared.DurationWords;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * A tenant's bookings of one GPU type held against a policy: GPUs held now, the peak ahead, this month's spend,
 * and which reservations the policy's limits leave above them (shown before an admin saves a lower limit).
 */
record QuotaStanding(
        int gpusNow, int peakGpus, @Nullable Instant peakAt, BigDecimal spentThisMonth, List<Finding> findings) {

    /** One limit the existing bookings exceed, with the reservations involved. */
    record Finding(String limit, String message, List<QuotaUsageReads.Booked> reservations) {}

    static QuotaStanding of(
            @Nullable QuotaPolicy policy,
            List<QuotaUsageReads.Booked> booked,
            Map<YearMonth, BigDecimal> spend,
            Instant now) {
        TreeMap<Instant, Integer> level = levels(booked, now);
        int gpusNow = level.floorEntry(now) == null ? 0 : level.floorEntry(now).getValue();
        int peak = 0;
        Instant peakAt = null;
        for (Map.Entry<Instant, Integer> step : level.entrySet()) {
            if (step.getValue() > peak) {
                peak = step.getValue();
                peakAt = step.getKey().isBefore(now) ? now : step.getKey();
            }
        }
        BigDecimal thisMonth = spend.getOrDefault(YearMonth.from(now.atOffset(ZoneOffset.UTC)), BigDecimal.ZERO);
        List<Finding> findings = policy == null ? noPolicy(booked) : findings(policy, booked, level, spend, now);
        return new QuotaStanding(gpusNow, peak, peakAt, thisMonth, findings);
    }

    /** GPUs held from each instant on (from {@code now}), as a step function. */
    private static TreeMap<Instant, Integer> levels(List<QuotaUsageReads.Booked> booked, Instant now) {
        TreeMap<Instant, Integer> deltas = new TreeMap<>();
        for (QuotaUsageReads.Booked b : booked) {
            Instant start = b.startsAt().isBefore(now) ? now : b.startsAt();
            if (b.endsAt().isAfter(start)) {
                deltas.merge(start, b.gpus(), Integer::sum);
                deltas.merge(b.endsAt(), -b.gpus(), Integer::sum);
            }
        }
        TreeMap<Instant, Integer> level = new TreeMap<>();
        int held = 0;
        for (Map.Entry<Instant, Integer> delta : deltas.entrySet()) {
            held += delta.getValue();
            level.put(delta.getKey(), held);
        }
        return level;
    }

    private static List<Finding> noPolicy(List<QuotaUsageReads.Booked> booked) {
        return booked.isEmpty()
                ? List.of()
                : List.of(new Finding(
                        "policy", "Without a quota the tenant cannot book or extend this GPU type", booked));
    }

    private static List<Finding> findings(
            QuotaPolicy policy,
            List<QuotaUsageReads.Booked> booked,
            TreeMap<Instant, Integer> level,
            Map<YearMonth, BigDecimal> spend,
            Instant now) {
        List<Finding> findings = new ArrayList<>();
        if (!policy.burst()) {
            aboveMaximum(policy, booked, level).ifPresent(findings::add);
        }
        List<QuotaUsageReads.Booked> longer = booked.stream()
                .filter(b -> Duration.between(b.startsAt(), b.endsAt()).compareTo(policy.maxWindow()) > 0)
                .toList();
        if (!longer.isEmpty()) {
            findings.add(new Finding(
                    "maxWindow",
                    "Longer than the longest reservation allowed, " + DurationWords.of(policy.maxWindow()),
                    longer));
        }
        Instant latestStart = now.plus(policy.maxAdvance());
        List<QuotaUsageReads.Booked> farAhead =
                booked.stream().filter(b -> b.startsAt().isAfter(latestStart)).toList();
        if (!farAhead.isEmpty()) {
            findings.add(new Finding(
                    "maxAdvance", "Starts more than " + DurationWords.of(policy.maxAdvance()) + " ahead", farAhead));
        }
        if (policy.monthlyBudget() != null) {
            spend.forEach((month, spent) -> {
                if (spent.compareTo(policy.monthlyBudget()) > 0) {
                    Instant start = month.atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC);
                    Instant end = month.plusMonths(1).atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC);
                    findings.add(new Finding(
                            "monthlyBudget",
                            "Booked " + spent.stripTrailingZeros().toPlainString()
                                    + " in " + month + ", over the budget of "
                                    + policy.monthlyBudget()
                                            .stripTrailingZeros()
                                            .toPlainString(),
                            booked.stream()
                                    .filter(b -> b.startsAt().isBefore(end)
                                            && b.endsAt().isAfter(start))
                                    .toList()));
                }
            });
        }
        return findings;
    }

    /** The reservations held when the level is above the maximum (burst off), and the worst level: if any. */
    private static Optional<Finding> aboveMaximum(
            QuotaPolicy policy, List<QuotaUsageReads.Booked> booked, TreeMap<Instant, Integer> level) {
        Set<QuotaUsageReads.Booked> above = new LinkedHashSet<>();
        int worst = 0;
        Instant worstAt = null;
        Instant[] instants = level.keySet().toArray(Instant[]::new);
        for (int i = 0; i < instants.length - 1; i++) {
            int held = Objects.requireNonNull(level.get(instants[i]), "one of its keys");
            if (held > policy.maxGpus()) {
                Instant from = instants[i];
                Instant to = instants[i + 1];
                booked.stream()
                        .filter(b -> b.startsAt().isBefore(to) && b.endsAt().isAfter(from))
                        .forEach(above::add);
                if (held > worst) {
                    worst = held;
                    worstAt = from;
                }
            }
        }
        if (worstAt != null) {
            return Optional.of(new Finding(
                    "maxGpus",
                    "Holds up to " + worst + " GPUs, " + (worst - policy.maxGpus()) + " more than the maximum of "
                            + policy.maxGpus() + " (burst is off)",
                    List.copyOf(above)));
        }
        return Optional.empty();
    }
}
