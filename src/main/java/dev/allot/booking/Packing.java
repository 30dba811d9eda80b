package dev.allot.booking;

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

import dev.allot.shared.TimeWindow;
import org.jspecify.annotations.Nullable;

/**
 * The packing {@link Repacking} computes, in memory and without the database: the reservations that may move and
 * the booking, placed on the nodes in order of their start (see {@link Repacking} for why that finds a packing
 * whenever one exists).
 */
final class Packing {

	private Packing() {
	}

	/** A reservation that may move: its window, its nodes (by id) and the CUDA driver it needs. */
	record Movable(UUID id, UUID tenantId, TimeWindow window, List<Long> nodes, @Nullable String cudaDriver) {
	}

	/** A node that may take reservations: its block, CUDA drivers, and the windows free on it once the movable are lifted. */
	record Room(long id, String hostname, String block, Set<String> cudaDrivers, List<TimeWindow> free) {

		boolean fits(TimeWindow window, @Nullable String cudaDriver) {
			return (cudaDriver == null || cudaDrivers.contains(cudaDriver)) && free.stream().anyMatch(w -> w.covers(window));
		}

		void take(TimeWindow window) {
			TimeWindow holding = free.stream().filter(w -> w.covers(window)).findFirst().orElseThrow();
			free.remove(holding);
			if (holding.start().isBefore(window.start())) {
				free.add(new TimeWindow(holding.start(), window.start()));
			}
			if (window.end().isBefore(holding.end())) {
				free.add(new TimeWindow(window.end(), holding.end()));
			}
		}

	}

	/**
	 * What each of the nodes holds, as read (for comparing two reads): its free windows within the horizon and the
	 * movable reservations on it.
	 */
	static Map<Long, String> held(Collection<Long> nodeIds, Map<Long, Room> rooms,
			List<Movable> moving) {
		Map<Long, String> held = new HashMap<>();
		for (long node : nodeIds) {
			Room room = rooms.get(node);
			held.put(node, (room == null ? "gone" : room.free().stream().sorted(Comparator.comparing(TimeWindow::start))
				.toList()
				.toString()) + " " + moving.stream().filter(m -> m.nodes().contains(node)).map(Movable::id).sorted()
					.toList());
		}
		return held;
	}

	/** The nodes each moved reservation gets, and the booking's. */
	record Plan(Map<Movable, List<Long>> moved, List<Long> booking) {

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
			List<Long> now = moved.get(reservation);
			return reservation.nodes().stream().filter(node -> !now.contains(node)).toList();
		}

	}

	/** In order of start; the booking before reservations starting with it. Empty when one cannot be placed. */
	static Optional<Plan> plan(Map<Long, Room> rooms, List<Movable> moving, TimeWindow window, int count,
			@Nullable String cudaDriver) {
		List<Movable> order = new ArrayList<>(moving);
		order.sort(Comparator.comparing((Movable m) -> m.window().start()).thenComparing(m -> m.id().toString()));
		Map<Movable, List<Long>> moved = new LinkedHashMap<>();
		List<Long> booking = null;
		for (int i = 0; i <= order.size(); i++) {
			if (booking == null && (i == order.size() || !order.get(i).window().start().isBefore(window.start()))) {
				booking = place(rooms, window, count, cudaDriver, List.of());
				if (booking == null) {
					return Optional.empty();
				}
			}
			if (i == order.size()) {
				break;
			}
			Movable reservation = order.get(i);
			List<Long> nodes = place(rooms, reservation.window(), reservation.nodes().size(), reservation.cudaDriver(),
					reservation.nodes());
			if (nodes == null) {
				return Optional.empty();
			}
			if (!Set.copyOf(nodes).equals(Set.copyOf(reservation.nodes()))) {
				moved.put(reservation, nodes);
			}
		}
		return Optional.of(new Plan(moved, Objects.requireNonNull(booking)));
	}

	/**
	 * Takes {@code count} nodes free for the window: those it holds now first, then nodes of their blocks, then any,
	 * by id. Null when fewer fit.
	 */
	static @Nullable List<Long> place(Map<Long, Room> rooms, TimeWindow window, int count,
			@Nullable String cudaDriver, List<Long> current) {
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

	/** Windows that touch or overlap joined into one. */
	static List<TimeWindow> merged(List<TimeWindow> windows) {
		List<TimeWindow> sorted = new ArrayList<>(windows);
		sorted.sort(Comparator.comparing(TimeWindow::start));
		List<TimeWindow> merged = new ArrayList<>();
		for (TimeWindow w : sorted) {
			TimeWindow last = merged.isEmpty() ? null : merged.getLast();
			if (last != null && !w.start().isAfter(last.end())) {
				merged.set(merged.size() - 1, new TimeWindow(last.start(), w.end().isAfter(last.end()) ? w.end() : last.end()));
			}
			else {
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
