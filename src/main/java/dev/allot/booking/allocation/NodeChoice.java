package dev.allot.booking.allocation;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The order in which a booking tries free nodes, from the candidates of the blocks searched so far. One InfiniBand
 * block if any holds enough (the first that does, in search order, so blocks fill one after the other and the
 * later ones stay whole), and within it one rack if any holds enough (the tightest that does); then the tightest
 * gaps, so the least fragmentation is left behind. When no block holds enough, the fewest blocks: the freest first.
 * The list is longer than needed on purpose: locking skips nodes another booking holds and takes the next ones.
 */
final class NodeChoice {

    /** A node free for the whole window, and how much of its gap the window leaves unused. */
    record Candidate(long nodeId, String hostname, String block, String rack, double slackSeconds) {}

    private NodeChoice() {}

    /** The candidates of the first block (in the order given) that holds {@code count}, best first; else empty. */
    static Optional<List<Candidate>> inOneBlock(List<Candidate> candidates, int count) {
        return groupBy(candidates, Candidate::block).values().stream()
                .filter(block -> block.size() >= count)
                .findFirst()
                .map(block -> byRack(block, count));
    }

    /** Every candidate, freest blocks first, each block's best first. */
    static List<Candidate> acrossBlocks(List<Candidate> candidates, int count) {
        List<Candidate> ordered = new ArrayList<>();
        groupBy(candidates, Candidate::block).values().stream()
                .sorted(Comparator.comparingInt((List<Candidate> block) -> block.size())
                        .reversed())
                .forEach(block -> ordered.addAll(byRack(block, count)));
        return ordered;
    }

    /**
     * The candidates for one node joining {@code kept} (a reservation's nodes that stay): those in a rack of a kept
     * node first, then those in a block of the kept nodes, the block holding most of them first; within each, the
     * tightest gaps.
     */
    static List<Candidate> near(List<Candidate> candidates, List<Candidate> kept) {
        Map<String, Long> blocks =
                kept.stream().collect(Collectors.groupingBy(Candidate::block, Collectors.counting()));
        Set<String> racks = kept.stream().map(c -> c.block() + "/" + c.rack()).collect(Collectors.toSet());
        return candidates.stream()
                .filter(c -> blocks.containsKey(c.block()))
                .sorted(Comparator.comparing((Candidate c) -> !racks.contains(c.block() + "/" + c.rack()))
                        .thenComparing(c -> -Objects.requireNonNull(blocks.get(c.block()), "kept in the block"))
                        .thenComparingDouble(Candidate::slackSeconds)
                        .thenComparingLong(Candidate::nodeId))
                .toList();
    }

    private static List<Candidate> byRack(List<Candidate> block, int count) {
        Comparator<List<Candidate>> racks = Comparator.comparing(
                        (List<Candidate> rack) -> rack.size() < count) // racks that hold the booking first
                .thenComparingInt(rack -> rack.size() >= count ? rack.size() : -rack.size()); // tightest that fits
        List<Candidate> ordered = new ArrayList<>();
        groupBy(block, Candidate::rack).values().stream()
                .sorted(racks)
                .forEach(rack -> rack.stream()
                        .sorted(Comparator.comparingDouble(Candidate::slackSeconds)
                                .thenComparingLong(Candidate::nodeId))
                        .forEach(ordered::add));
        return ordered;
    }

    private static Map<String, List<Candidate>> groupBy(List<Candidate> candidates, Function<Candidate, String> key) {
        return candidates.stream().collect(Collectors.groupingBy(key, LinkedHashMap::new, Collectors.toList()));
    }
}
