package dev.allot.booking.sharing;

import dev.allot.shared.TimeWindow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * The packing {@link Repacking} computes, in memory and without the database: the reservations that may move and
 * the booking, placed on the nodes in order of their start (see {@link Repacking} for why that finds a packing
 * whenever one exists).
 */
final class Packing {

    private Packing() {}

    /** A reservation that may move: its window, its nodes (by id) and the CUDA driver it needs. */
    record Movable(
            UUID id,
            UUID tenantId,
            TimeWindow window,
            List<Long> nodes,
            @Nullable String cudaDriver) {}

    /**
     * A window on a node that a preemptible reservation holds and would let go of if preempted: only the booking may
     * use it (a reservation moved there would make its preemption serve no node of the booking), and using it costs
     * the GPU-seconds the victim loses.
     */
    record Claim(UUID victim, TimeWindow window, long lost) {}

    /**
     * A node that may take reservations: its block, CUDA drivers, the windows free on it once the movable are lifted,
     * and the windows preemptible reservations hold that the booking may reclaim.
     */
    record Room(
            long id,
            String hostname,
            String block,
            Set<String> cudaDrivers,
            List<TimeWindow> free,
            List<Claim> claims) {

        Room(long id, String hostname, String block, Set<String> cudaDrivers, List<TimeWindow> free) {
            this(id, hostname, block, cudaDrivers, free, new ArrayList<>());
        }

        boolean fits(TimeWindow window, @Nullable String cudaDriver) {
            if (cudaDriver != null && !cudaDrivers.contains(cudaDriver)) {
                return false;
            }
            for (TimeWindow w : free) {
                if (w.covers(window)) {
                    return true;
                }
            }
            return false;
        }

        /** Whether the booking fits, reclaiming what it must: free and reclaimable windows together cover it. */
        boolean fitsReclaiming(TimeWindow window, @Nullable String cudaDriver) {
            if (cudaDriver != null && !cudaDrivers.contains(cudaDriver)) {
                return false;
            }
            List<TimeWindow> all = new ArrayList<>(free);
            claims.forEach(c -> all.add(c.window()));
            return merged(all).stream().anyMatch(w -> w.covers(window));
        }

        /** The claims the booking's window overlaps: the reservations it preempts on this node. */
        List<Claim> reclaimedBy(TimeWindow window) {
            return claims.stream().filter(c -> c.window().overlaps(window)).toList();
        }

        /** Takes the window for the booking: nothing else may use any part of it, free or claimed. */
        void takeReclaiming(TimeWindow window) {
            List<TimeWindow> rest = new ArrayList<>();
            for (TimeWindow w : free) {
                if (!w.overlaps(window)) {
                    rest.add(w);
                    continue;
                }
                if (w.start().isBefore(window.start())) {
                    rest.add(new TimeWindow(w.start(), window.start()));
                }
                if (window.end().isBefore(w.end())) {
                    rest.add(new TimeWindow(window.end(), w.end()));
                }
            }
            free.clear();
            free.addAll(rest);
        }

        void take(TimeWindow window) {
            TimeWindow holding =
                    free.stream().filter(w -> w.covers(window)).findFirst().orElseThrow();
            free.remove(holding);
            if (holding.start().isBefore(window.start())) {
                free.add(new TimeWindow(holding.start(), window.start()));
            }
            if (window.end().isBefore(holding.end())) {
                free.add(new TimeWindow(window.end(), holding.end()));
            }
        }
    }

    /** The room of a node the rooms were read for. */
    static Room room(Map<Long, Room> rooms, long node) {
        return Objects.requireNonNull(rooms.get(node), "the rooms were read for this node");
    }

    /**
     * What each of the nodes holds, as read (for comparing two reads): its free windows within the horizon and the
     * movable reservations on it.
     */
    static Map<Long, String> held(Collection<Long> nodeIds, Map<Long, Room> rooms, List<Movable> moving) {
        Map<Long, String> held = new HashMap<>();
        for (long node : nodeIds) {
            Room room = rooms.get(node);
            held.put(
                    node,
                    (room == null
                                    ? "gone"
                                    : room.free().stream()
                                            .sorted(Comparator.comparing(TimeWindow::start))
                                            .toList()
                                            .toString())
                            + " "
                            + moving.stream()
                                    .filter(m -> m.nodes().contains(node))
                                    .map(Movable::id)
                                    .sorted()
                                    .toList());
        }
        return held;
    }

    /** The nodes each moved reservation gets, the booking's, and the reservations it reclaims on them. */
    record Plan(Map<Movable, List<Long>> moved, List<Long> booking, Set<UUID> victims) {

        Plan(Map<Movable, List<Long>> moved, List<Long> booking) {
            this(moved, booking, Set.of());
        }

        /** The nodes it changes: the booking's, and those the moved reservations leave and take, in id order. */
        List<Long> involved() {
            TreeSet<Long> nodes = new TreeSet<>(booking);
            moved.forEach((reservation, taken) -> {
                nodes.addAll(reservation.nodes());
                nodes.addAll(taken);
            });
            return List.copyOf(nodes);
        }

        /** The nodes the moved reservation leaves. */
        List<Long> leaving(Movable reservation) {
            List<Long> now = Objects.requireNonNull(moved.get(reservation), "a reservation the plan moves");
            return reservation.nodes().stream()
                    .filter(node -> !now.contains(node))
                    .toList();
        }
    }

    /**
     * In order of start; the booking before reservations starting with it. Empty when one cannot be placed. Where
     * the rooms hold claims (reclaiming), the booking may take claimed windows and nothing else may, and up to
     * {@link #RECLAIMING_ATTEMPTS} packings are tried.
     */
    static Optional<Plan> plan(
            Map<Long, Room> rooms, List<Movable> moving, TimeWindow window, int count, @Nullable String cudaDriver) {
        boolean reclaiming =
                rooms.values().stream().anyMatch(room -> !room.claims().isEmpty());
        if (!reclaiming) {
            return planAvoiding(rooms, moving, window, count, cudaDriver, false, Set.of())
                    .plan();
        }
        // reclaiming: the cheapest nodes for the booking may leave a reservation they hold nowhere to go; then the
        // booking avoids the first of them and the whole plan is made again, on fresh copies of the rooms
        Set<Long> avoid = new LinkedHashSet<>();
        for (int attempt = 0; attempt < RECLAIMING_ATTEMPTS; attempt++) {
            Map<Long, Room> copies = new LinkedHashMap<>();
            rooms.forEach((id, room) -> copies.put(
                    id,
                    new Room(
                            room.id(),
                            room.hostname(),
                            room.block(),
                            room.cudaDrivers(),
                            new ArrayList<>(room.free()),
                            new ArrayList<>(room.claims()))));
            Attempt tried = planAvoiding(copies, moving, window, count, cudaDriver, true, avoid);
            if (tried.plan().isPresent()
                    || tried.booking() == null
                    || !tried.booking().stream()
                            .filter(node -> !avoid.contains(node))
                            .findFirst()
                            .map(avoid::add)
                            .orElse(false)) {
                return tried.plan();
            }
        }
        return Optional.empty();
    }

    /** How many packings reclaiming tries, each avoiding one more node for the booking. */
    static final int RECLAIMING_ATTEMPTS = 8;

    /** A packing tried: the plan, or empty with the booking's nodes it had taken (null when the booking did not fit). */
    private record Attempt(Optional<Plan> plan, @Nullable List<Long> booking) {}

    private static Attempt planAvoiding(
            Map<Long, Room> rooms,
            List<Movable> moving,
            TimeWindow window,
            int count,
            @Nullable String cudaDriver,
            boolean reclaiming,
            Set<Long> avoid) {
        List<Movable> order = new ArrayList<>(moving);
        order.sort(Comparator.comparing((Movable m) -> m.window().start()).thenComparing(m -> m.id().toString()));
        Map<Movable, List<Long>> moved = new LinkedHashMap<>();
        List<Long> booking = null;
        Set<UUID> victims = new LinkedHashSet<>();
        for (int i = 0; i <= order.size(); i++) {
            if (booking == null
                    && (i == order.size() || !order.get(i).window().start().isBefore(window.start()))) {
                booking = reclaiming
                        ? placeReclaiming(rooms, window, count, cudaDriver, victims, avoid)
                        : place(rooms, window, count, cudaDriver, List.of());
                if (booking == null) {
                    return new Attempt(Optional.empty(), null);
                }
            }
            if (i == order.size()) {
                break;
            }
            Movable reservation = order.get(i);
            List<Long> nodes = place(
                    rooms,
                    reservation.window(),
                    reservation.nodes().size(),
                    reservation.cudaDriver(),
                    reservation.nodes());
            if (nodes == null) {
                return new Attempt(Optional.empty(), booking);
            }
            if (!Set.copyOf(nodes).equals(Set.copyOf(reservation.nodes()))) {
                moved.put(reservation, nodes);
            }
        }
        return new Attempt(Optional.of(new Plan(moved, Objects.requireNonNull(booking), Set.copyOf(victims))), booking);
    }

    /**
     * Takes {@code count} nodes for the booking where free and reclaimable windows cover it: the cheapest first (the
     * GPU-seconds its victims lose, a free node costing nothing), then by block and id, none of {@code avoid}. Adds
     * the reservations it reclaims to {@code victims}. Null when fewer fit.
     */
    static @Nullable List<Long> placeReclaiming(
            Map<Long, Room> rooms,
            TimeWindow window,
            int count,
            @Nullable String cudaDriver,
            Set<UUID> victims,
            Set<Long> avoid) {
        List<Room> fitting = rooms.values().stream()
                .filter(room -> !avoid.contains(room.id()) && room.fitsReclaiming(window, cudaDriver))
                .sorted(Comparator.comparingLong((Room room) -> room.reclaimedBy(window).stream()
                                .filter(c -> !victims.contains(c.victim()))
                                .mapToLong(Claim::lost)
                                .sum())
                        .thenComparing(Room::block)
                        .thenComparing(Room::id))
                .limit(count)
                .toList();
        if (fitting.size() < count) {
            return null;
        }
        for (Room room : fitting) {
            room.reclaimedBy(window).forEach(c -> victims.add(c.victim()));
            room.takeReclaiming(window);
        }
        return fitting.stream().map(Room::id).toList();
    }

    /**
     * Takes {@code count} nodes free for the window: those it holds now first, then nodes of their blocks, then any,
     * by id. Null when fewer fit.
     */
    static @Nullable List<Long> place(
            Map<Long, Room> rooms, TimeWindow window, int count, @Nullable String cudaDriver, List<Long> current) {
        if (keeps(rooms, window, count, cudaDriver, current)) {
            // what the order below would choose, without ordering every node of the pool: most stay where they are
            current.forEach(node -> room(rooms, node).take(window));
            return current;
        }
        Set<String> blocks = new LinkedHashSet<>();
        current.stream().map(rooms::get).filter(Objects::nonNull).forEach(room -> blocks.add(room.block()));
        List<Room> fitting = rooms.values().stream()
                .filter(room -> room.fits(window, cudaDriver))
                .sorted(Comparator.comparing((Room room) -> !current.contains(room.id()))
                        .thenComparing(room -> !blocks.contains(room.block()))
                        .thenComparing(Room::block)
                        .thenComparing(Room::id))
                .limit(count)
                .toList();
        if (fitting.size() < count) {
            return null;
        }
        fitting.forEach(room -> room.take(window));
        return fitting.stream().map(Room::id).toList();
    }

    /** Whether all {@code count} nodes a reservation holds now are still free for it. */
    private static boolean keeps(
            Map<Long, Room> rooms, TimeWindow window, int count, @Nullable String cudaDriver, List<Long> current) {
        if (current.size() != count) {
            return false;
        }
        for (long node : current) {
            Room room = rooms.get(node);
            if (room == null || !room.fits(window, cudaDriver)) {
                return false;
            }
        }
        return true;
    }

    /** Windows that touch or overlap joined into one. */
    static List<TimeWindow> merged(List<TimeWindow> windows) {
        List<TimeWindow> sorted = new ArrayList<>(windows);
        sorted.sort(Comparator.comparing(TimeWindow::start));
        List<TimeWindow> merged = new ArrayList<>();
        for (TimeWindow w : sorted) {
            TimeWindow last = merged.isEmpty() ? null : merged.getLast();
            if (last != null && !w.start().isAfter(last.end())) {
                merged.set(
                        merged.size() - 1,
                        new TimeWindow(last.start(), w.end().isAfter(last.end()) ? w.end() : last.end()));
            } else {
                merged.add(w);
            }
        }
        return merged;
    }

    static TimeWindow span(TimeWindow window, List<Movable> movable) {
        Instant start = window.start();
        Instant end = window.end();
        for (Movable m : movable) {
            start = m.window().start().isBefore(start) ? m.window().start() : start;
            end = m.window().end().isAfter(end) ? m.window().end() : end;
        }
        return new TimeWindow(start, end);
    }
}
