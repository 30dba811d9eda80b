package dev.allot.booking.sharing;

import dev.allot.booking.store.ReservationRepository;
import dev.allot.quota.Priority;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Which reservations a guaranteed booking preempts, and the nodes that frees for it: only reservations holding a
 * node the booking takes, the set that loses the fewest GPU-hours. Greedy over the nodes that nothing but
 * preemptible reservations hold in the window: each step takes the node whose holders not yet chosen lose the
 * fewest GPU-seconds (a node held only by victims already chosen costs nothing), then the one whose most important
 * new victim is the least important, then the one whose oldest new victim is the newest. Pure: it reads and
 * changes nothing.
 *
 * @param nodes the nodes freed for the booking, in the order chosen
 * @param victims the reservations to preempt, in the order {@link Reclaiming} preempts
 */
record VictimPlan(List<Long> nodes, List<ReservationRepository.Preemptible> victims) {

    /**
     * @param holders for each available node of the pool, the reservations holding it in the window
     * @param candidates the preemptible reservations of other tenants overlapping the window
     * @param lost the GPU-seconds each candidate that would let go in time loses when preempted (no entry: it
     * would not let go by the window's start)
     * @param need how many nodes must be freed
     * @return empty when no choice of nodes covers {@code need}
     */
    static Optional<VictimPlan> of(
            Map<Long, List<UUID>> holders,
            List<ReservationRepository.Preemptible> candidates,
            Map<UUID, Long> lost,
            Map<UUID, Priority> priorities,
            int need,
            Comparator<ReservationRepository.Preemptible> victimOrder) {
        if (need <= 0) {
            return Optional.empty();
        }
        Map<UUID, ReservationRepository.Preemptible> byId = new HashMap<>();
        candidates.forEach(c -> byId.put(c.id(), c));
        List<Map.Entry<Long, List<UUID>>> freeable = holders.entrySet().stream()
                .filter(e -> !e.getValue().isEmpty() && e.getValue().stream().allMatch(lost::containsKey))
                .toList();
        if (freeable.size() < need) {
            return Optional.empty();
        }
        Set<UUID> chosen = new LinkedHashSet<>();
        List<Long> nodes = new ArrayList<>();
        Set<Long> taken = new HashSet<>();
        while (nodes.size() < need) {
            Map.Entry<Long, List<UUID>> best = null;
            Cost bestCost = null;
            for (Map.Entry<Long, List<UUID>> node : freeable) {
                if (taken.contains(node.getKey())) {
                    continue;
                }
                Cost cost = Cost.of(
                        node.getValue().stream()
                                .filter(id -> !chosen.contains(id))
                                .map(byId::get)
                                .toList(),
                        lost,
                        priorities);
                if (bestCost == null || cost.compareTo(bestCost) < 0) {
                    best = node;
                    bestCost = cost;
                }
            }
            Objects.requireNonNull(best, "there are at least as many freeable nodes as needed");
            taken.add(best.getKey());
            nodes.add(best.getKey());
            chosen.addAll(best.getValue());
        }
        return Optional.of(new VictimPlan(
                List.copyOf(nodes),
                chosen.stream().map(byId::get).sorted(victimOrder).toList()));
    }

    /** What taking one more node costs: GPU-seconds lost, then importance and age of its new victims. */
    private record Cost(long gpuSeconds, int mostImportant, Instant oldest) implements Comparable<Cost> {

        static Cost of(
                List<ReservationRepository.Preemptible> added, Map<UUID, Long> lost, Map<UUID, Priority> priorities) {
            long seconds = added.stream().mapToLong(v -> lost.get(v.id())).sum();
            int mostImportant = added.stream()
                    .mapToInt(v -> Objects.requireNonNull(priorities.get(v.tenantId()), "a priority per tenant")
                            .ordinal())
                    .min()
                    .orElse(Integer.MAX_VALUE);
            Instant oldest = added.stream()
                    .map(ReservationRepository.Preemptible::createdAt)
                    .min(Instant::compareTo)
                    .orElse(Instant.MAX);
            return new Cost(seconds, mostImportant, oldest);
        }

        @Override
        public int compareTo(Cost other) {
            // fewer GPU-seconds lost; then less important victims (a higher ordinal); then newer victims
            return Comparator.comparingLong(Cost::gpuSeconds)
                    .thenComparing(Cost::mostImportant, Comparator.reverseOrder())
                    .thenComparing(Cost::oldest, Comparator.reverseOrder())
                    .compare(this, other);
        }
    }
}
