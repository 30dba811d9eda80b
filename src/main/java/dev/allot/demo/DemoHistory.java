package dev.allot.demo;

import dev.allot.billing.budgets.BudgetRequest;
import dev.allot.billing.budgets.Budgets;
import dev.allot.booking.Reservation;
import dev.allot.inventory.Inventory;
import dev.allot.provisioning.health.NodeEvents;
import dev.allot.shared.AllotException;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The demo's month of history, lived through by the application itself on the {@link DemoClock} ({@link DemoReplay}):
 * each team books a little ahead, as people do, the fake driver builds and tears down the clusters at their times,
 * metering counts the hours and the ledger closes the month that ended. On the way: {@code acme-ml} sets a budget
 * whose alert fires, bursts beyond its quota once (on demand), takes back its A100 guarantee from a {@code globex-ai}
 * reservation running on borrowed and on-demand GPUs (preempted, with its notice), and an exporter reports
 * uncorrected ECC errors on a node under {@code acme-ml}'s pre-training, which Allot quarantines and replaces; an
 * admin puts the repaired node back two days later.
 */
@Component
class DemoHistory {

    private static final Logger log = LoggerFactory.getLogger(DemoHistory.class);

    /** How far back the history starts. */
    static final Duration SPAN = Duration.ofDays(35);

    /** How long before its start each past reservation is booked. */
    private static final Duration AHEAD = Duration.ofHours(3);

    /** What the replay made. */
    record Made(int reservations, int visits) {}

    private final DemoBookings bookings;

    private final Budgets budgets;

    private final NodeEvents nodeEvents;

    private final Inventory inventory;

    DemoHistory(DemoBookings bookings, Budgets budgets, NodeEvents nodeEvents, Inventory inventory) {
        this.bookings = bookings;
        this.budgets = budgets;
        this.nodeEvents = nodeEvents;
        this.inventory = inventory;
    }

    /** One thing that happens at an instant of the history. */
    private record Act(Instant at, String what, Consumer<Instant> action) {}

    /** Lives through the history up to {@code today} (midnight UTC), on the replay's clock. */
    Made live(DemoReplay.Run replay, Instant today) {
        List<Act> acts = new ArrayList<>();
        int[] booked = {0};
        List<Reservation> pretraining = new ArrayList<>();
        acmeWorkloads(acts, today, booked, pretraining);
        globexWorkloads(acts, today, booked);
        // ... until acme-ml books its A100 guarantee: the full pool is reclaimed from the borrower, with notice
        Instant reclaim = at(today, -13, 10);
        acts.add(new Act(
                reclaim,
                "acme-ml takes back its A100 guarantee",
                now -> bookings.reserve(
                                DemoBookings.ALICE,
                                "acme-ml",
                                "vision",
                                "a100-us",
                                16,
                                now.plus(Duration.ofMinutes(45)),
                                now.plus(Duration.ofMinutes(45)).plus(Duration.ofDays(1)),
                                Map.of("workload", "eval"))
                        .ifPresent(r -> booked[0]++)));
        // acme-ml's budget, set by alice on the first day; its alerts fire as usage is metered
        acts.add(new Act(
                at(today, -35, 1),
                "acme-ml's budget",
                now -> guarded(
                        "the budget",
                        () -> budgets.put(
                                DemoBookings.ALICE,
                                "acme-ml",
                                new BudgetRequest(new BigDecimal("12000.00"), "USD", List.of(50, 80, 100), null, null),
                                null))));
        nodeIncident(acts, today, pretraining);
        acts.sort(Comparator.comparing(Act::at));
        for (Act act : acts) {
            replay.advanceTo(act.at());
            log.debug("Demo history, {}: {}", act.at(), act.what());
            act.action().accept(replay.now());
        }
        return new Made(booked[0], replay.visits());
    }

    /** acme-ml's pre-training runs (kept in {@code pretraining}), vision evaluations and one sweep. */
    private void acmeWorkloads(List<Act> acts, Instant today, int[] booked, List<Reservation> pretraining) {
        // pre-training in day-long runs (768 GPU-hours, under its approval limit) every third day
        for (int day = -34; day <= -1; day += 3) {
            Instant start = at(today, day, 8);
            acts.add(booking(
                    start,
                    () -> bookings.reserve(
                                    DemoBookings.ALICE,
                                    "acme-ml",
                                    "llm-pretrain",
                                    "h100-eu",
                                    32,
                                    start,
                                    start.plus(Duration.ofDays(1)),
                                    Map.of("workload", "pretrain"))
                            .map(r -> {
                                pretraining.add(r);
                                return r;
                            }),
                    booked));
        }
        // vision evaluations on H200, within its guarantee
        for (int day : new int[] {-33, -29, -26, -17, -12, -5}) {
            Instant start = at(today, day, 9);
            acts.add(booking(
                    start,
                    () -> bookings.reserve(
                            DemoBookings.ALICE,
                            "acme-ml",
                            "vision",
                            "h200-eu",
                            16,
                            start,
                            start.plus(Duration.ofHours(8)),
                            Map.of("workload", "eval")),
                    booked));
        }
        // one sweep of 80 H100 GPUs between two pre-training runs: 32 reserved, 32 borrowed, 16 on demand
        Instant sweep = at(today, -20, 9);
        acts.add(booking(
                sweep,
                () -> bookings.reserve(
                        DemoBookings.ALICE,
                        "acme-ml",
                        "llm-pretrain",
                        "h100-eu",
                        80,
                        sweep,
                        sweep.plus(Duration.ofHours(12)),
                        Map.of("workload", "sweep")),
                booked));
    }

    /** globex-ai's recommender training, inference and batch scoring (which borrows the whole A100 pool). */
    private void globexWorkloads(List<Act> acts, Instant today, int[] booked) {
        // recommender training on H100, 16 reserved and 8 borrowed
        for (int day : new int[] {-32, -27, -22, -17, -12, -6}) {
            Instant start = at(today, day, 6);
            acts.add(booking(
                    start,
                    () -> bookings.reserve(
                            DemoBookings.BOB,
                            "globex-ai",
                            "recsys",
                            "h100-eu",
                            24,
                            start,
                            start.plus(Duration.ofDays(1)),
                            Map.of("workload", "fine-tune")),
                    booked));
        }
        // half a day of inference on A100 now and then, 16 reserved and 16 borrowed
        for (int day : new int[] {-30, -24, -18, -8}) {
            Instant start = at(today, day, 8);
            acts.add(booking(
                    start,
                    () -> bookings.reserve(
                            DemoBookings.BOB,
                            "globex-ai",
                            "recsys",
                            "a100-us",
                            32,
                            start,
                            start.plus(Duration.ofHours(12)),
                            Map.of("workload", "inference")),
                    booked));
        }
        // batch scoring on the whole A100 pool (16 reserved, 32 borrowed, 16 on demand) ...
        Instant scoring = at(today, -13, 0);
        acts.add(booking(
                scoring,
                () -> bookings.reserve(
                        DemoBookings.BOB,
                        "globex-ai",
                        "recsys",
                        "a100-us",
                        64,
                        scoring,
                        scoring.plus(Duration.ofDays(3)),
                        Map.of("workload", "batch-scoring")),
                booked));
    }

    /**
     * A node under acme-ml's pre-training reports uncorrected ECC errors: quarantined and replaced at once, and put
     * back into service after its repair.
     */
    private void nodeIncident(List<Act> acts, Instant today, List<Reservation> pretraining) {
        String[] sick = {null};
        acts.add(new Act(
                at(today, -10, 14),
                "a node incident",
                now -> pretraining.stream()
                        .filter(r -> !r.startsAt().isAfter(now) && r.endsAt().isAfter(now))
                        .findFirst()
                        .ifPresent(r -> guarded("the node incident", () -> {
                            sick[0] = r.nodes().getFirst();
                            return nodeEvents.report(
                                    DemoData.SEED,
                                    sick[0],
                                    new NodeEvents.Event(
                                            NodeEvents.Type.ECC, null, 2, null, "GPU 3: 2 uncorrectable DRAM errors"));
                        }))));
        acts.add(new Act(at(today, -8, 10), "the node's repair", now -> {
            if (sick[0] != null) {
                guarded(
                        "the repair",
                        () -> inventory.release(
                                DemoData.SEED, sick[0], "GPU 3 replaced by the vendor; burn-in passed"));
            }
        }));
    }

    private static Act booking(Instant start, Supplier<Optional<Reservation>> book, int[] booked) {
        return new Act(
                start.minus(AHEAD), "a booking for " + start, now -> book.get().ifPresent(r -> booked[0]++));
    }

    private static Instant at(Instant today, int day, int hour) {
        return today.plus(Duration.ofDays(day)).plus(Duration.ofHours(hour)).truncatedTo(ChronoUnit.MINUTES);
    }

    private static void guarded(String what, Supplier<?> action) {
        try {
            action.get();
        } catch (AllotException refused) {
            log.warn("Demo history: {} skipped: {}", what, refused.getMessage());
        }
    }
}
