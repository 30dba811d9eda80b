package dev.allot.booking;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

import dev.allot.booking.Packing.Claim;
import dev.allot.booking.Packing.Movable;
import dev.allot.booking.Packing.Plan;
import dev.allot.booking.Packing.Room;
import dev.allot.shared.TimeWindow;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The packing of reclaiming and repacking together, in memory (no database). */
class PackingTests {

	private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

	private final UUID victim = UUID.randomUUID();

	/**
	 * Three nodes. A 2-node preemptible borrower (the victim) holds A and B; B lacks the booking's CUDA driver. A
	 * reservation that may only move holds C. A 2-node guaranteed booking must take A (reclaiming the victim) and C,
	 * so the reservation on C must go: the only room for it is B, which the victim lets go of once preempted for A.
	 * Before, no moved reservation could land where a victim let go, the plan failed, and the last-resort sweep
	 * preempted by priority and age instead.
	 */
	@Test
	void aMovedReservationLandsWhereAVictimOfTheBookingLetsGoOnItsOtherNode() {
		TimeWindow booking = hours(10, 14);
		Map<Long, Room> rooms = new TreeMap<>();
		rooms.put(1L, room(1, Set.of("550"), List.of(hours(0, 8), hours(14, 48)), claim(hours(8, 14))));
		rooms.put(2L, room(2, Set.of("535"), List.of(hours(0, 8), hours(14, 48)), claim(hours(8, 14))));
		Movable onC = new Movable(UUID.randomUUID(), UUID.randomUUID(), hours(10, 13), List.of(3L), null);
		rooms.put(3L, room(3, Set.of("550"), List.of(hours(0, 48)), null));

		Optional<Plan> plan = Packing.plan(rooms, List.of(onC), booking, 2, "550");

		assertThat(plan).isPresent();
		assertThat(plan.get().booking()).containsExactlyInAnyOrder(1L, 3L);
		assertThat(plan.get().victims()).containsExactly(victim);
		assertThat(plan.get().moved()).containsEntry(onC, List.of(2L));
	}

	/** Only a victim of a node the booking takes frees room for moves: another borrower's windows stay its own. */
	@Test
	void noReservationIsMovedOntoTheNodeOfAPreemptibleReservationHoldingNoNodeOfTheBooking() {
		TimeWindow booking = hours(10, 14);
		UUID other = UUID.randomUUID();
		Map<Long, Room> rooms = new TreeMap<>();
		rooms.put(1L, room(1, Set.of("550"), List.of(hours(0, 8), hours(14, 48)), claim(hours(8, 14))));
		Room b = room(2, Set.of("535"), List.of(hours(0, 8), hours(14, 48)), null);
		b.claims().add(new Claim(other, hours(8, 14), 3600L * 8 * 6));
		rooms.put(2L, b);
		Movable onC = new Movable(UUID.randomUUID(), UUID.randomUUID(), hours(10, 13), List.of(3L), null);
		rooms.put(3L, room(3, Set.of("550"), List.of(hours(0, 48)), null));

		assertThat(Packing.plan(rooms, List.of(onC), booking, 2, "550")).isEmpty();
	}

	/** When the booking finds its nodes without any move, the victim's other node is left as it is. */
	@Test
	void aPlanThatNeedsNoMoveIsPreferred() {
		TimeWindow booking = hours(10, 14);
		Map<Long, Room> rooms = new TreeMap<>();
		rooms.put(1L, room(1, Set.of("550"), List.of(hours(0, 8), hours(14, 48)), claim(hours(8, 14))));
		rooms.put(2L, room(2, Set.of("550"), List.of(hours(0, 8), hours(14, 48)), claim(hours(8, 14))));
		Movable onC = new Movable(UUID.randomUUID(), UUID.randomUUID(), hours(10, 13), List.of(3L), null);
		rooms.put(3L, room(3, Set.of("550"), List.of(hours(0, 48)), null));

		Optional<Plan> plan = Packing.plan(rooms, List.of(onC), booking, 2, "550");

		assertThat(plan).isPresent();
		assertThat(plan.get().booking()).containsExactlyInAnyOrder(1L, 2L);
		assertThat(plan.get().moved()).isEmpty();
	}

	private Claim claim(TimeWindow window) {
		return new Claim(victim, window, 3600L * 8 * 6);
	}

	private static Room room(long id, Set<String> drivers, List<TimeWindow> free, Claim claim) {
		List<Claim> claims = new ArrayList<>();
		if (claim != null) {
			claims.add(claim);
		}
		return new Room(id, "gpu-" + id, "ib-1", drivers, new ArrayList<>(free), claims);
	}

	private static TimeWindow hours(int from, int to) {
		return new TimeWindow(T0.plusSeconds(3600L * from), T0.plusSeconds(3600L * to));
	}

}
