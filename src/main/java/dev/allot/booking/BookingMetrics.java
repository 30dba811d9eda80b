package dev.allot.booking;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.stereotype.Component;
import org.springframework.transaction.event.TransactionPhase;
import org.springframework.transaction.event.TransactionalEventListener;

/**
 * Counts what booking commits ({@code allot_bookings_total} by outcome and pool, booked GPU-hours); refusals
 * are counted by their problem code in {@code allot_api_problems_total}.
 */
@Component
class BookingMetrics {

	private final MeterRegistry registry;

	BookingMetrics(MeterRegistry registry) {
		this.registry = registry;
	}

	@TransactionalEventListener(phase = TransactionPhase.AFTER_COMMIT, fallbackExecution = true)
	void on(ReservationConfirmed confirmed) {
		registry.counter("allot.bookings", "outcome", "confirmed", "pool", confirmed.pool()).increment();
		double hours = java.time.Duration.between(confirmed.startsAt(), confirmed.endsAt()).toMinutes() / 60.0;
		registry.counter("allot.booked.gpu.hours", "pool", confirmed.pool()).increment(hours * confirmed.gpus());
	}

	@TransactionalEventListener(phase = TransactionPhase.AFTER_COMMIT, fallbackExecution = true)
	void on(ReservationCancelled cancelled) {
		registry.counter("allot.bookings", "outcome", "cancelled", "pool", "").increment();
	}

	@TransactionalEventListener(phase = TransactionPhase.AFTER_COMMIT, fallbackExecution = true)
	void on(ReservationExtended extended) {
		registry.counter("allot.bookings", "outcome", "extended", "pool", "").increment();
	}

}
