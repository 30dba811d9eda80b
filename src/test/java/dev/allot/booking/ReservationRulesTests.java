package dev.allot.booking;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import dev.allot.quota.QuotaDecision;
import dev.allot.shared.AllotException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The reservation's own rules, against a clock the test sets. */
class ReservationRulesTests {

	private static final Instant START = Instant.parse("2027-01-05T09:00:00Z");

	private static final Instant END = Instant.parse("2027-01-05T12:00:00Z");

	private final Reservation reservation = new Reservation(UUID.randomUUID(), "acme", "training", "pool", "H100", 16,
			START, END, null, false, ClusterSpec.kubernetes(),
			new QuotaDecision("H100", "USD", BigDecimal.ZERO, List.of(), false, List.of()), List.of("n1", "n2"), 0,
			START.minusSeconds(3600));

	@Test
	void theStatusFollowsTheClock() {
		assertThat(reservation.status(START.minusSeconds(1))).isEqualTo(ReservationStatus.CONFIRMED);
		assertThat(reservation.status(START)).isEqualTo(ReservationStatus.ACTIVE);
		assertThat(reservation.status(END)).isEqualTo(ReservationStatus.COMPLETED);
	}

	@Test
	void cancellingBeforeTheStartFreesTheWholeWindow() {
		Reservation.Cancellation cancellation = reservation.cancel(START.minusSeconds(600));
		assertThat(cancellation.freedFrom()).isEqualTo(START);
		assertThat(cancellation.cancelled().status(START)).isEqualTo(ReservationStatus.CANCELLED);
		assertThat(cancellation.cancelled().version()).isEqualTo(1);
	}

	@Test
	void cancellingDuringTheWindowFreesTheNodesFromTheNextMinute() {
		Reservation.Cancellation cancellation = reservation.cancel(Instant.parse("2027-01-05T10:15:30Z"));
		assertThat(cancellation.freedFrom()).isEqualTo(Instant.parse("2027-01-05T10:16:00Z"));
	}

	@Test
	void cancellingAFinishedOrCancelledReservationIsRefused() {
		assertThatThrownBy(() -> reservation.cancel(END)).isInstanceOfSatisfying(AllotException.class,
				ex -> assertThat(ex.code()).isEqualTo("reservation_completed"));
		Reservation cancelled = reservation.cancel(START).cancelled();
		assertThatThrownBy(() -> cancelled.cancel(START.plusSeconds(60))).isInstanceOfSatisfying(AllotException.class,
				ex -> assertThat(ex.code()).isEqualTo("reservation_cancelled"));
	}

	@Test
	void extendingNeedsTheCurrentETagAndALaterEnd() {
		assertThatThrownBy(() -> reservation.requireExtensible(END.plusSeconds(3600), "\"7\"", START))
			.isInstanceOfSatisfying(AllotException.class, ex -> assertThat(ex.status()).isEqualTo(412));
		assertThatThrownBy(() -> reservation.requireExtensible(END, "\"0\"", START))
			.isInstanceOfSatisfying(AllotException.class, ex -> assertThat(ex.status()).isEqualTo(400));
		reservation.requireExtensible(END.plusSeconds(3600), "\"0\"", START);
	}

}
