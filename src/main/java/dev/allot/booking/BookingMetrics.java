package dev.allot.booking;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Counts what booking commits ({@code allot_bookings_total} by outcome and pool, booked GPU-hours); refusals
 * are counted by their problem code in {@code allot_api_problems_total}.
 *
 * <p>Plain listeners that count after commit, not {@code @TransactionalEventListener}s: Spring Modulith records a
 * publication for every transactional listener, so each booking stored a row for its metrics and then marked it
 * processing and completed in new transactions while the committing thread still held its own connection; with
 * as many concurrent bookings as pool connections, every thread waited for a second connection that no one could
 * free (30 s pool timeouts, and the other listeners' publications left incomplete).
 */
@Component
class BookingMetrics {

	private final MeterRegistry registry;

	BookingMetrics(MeterRegistry registry) {
		this.registry = registry;
	}

	@EventListener
	void on(ReservationConfirmed confirmed) {
		afterCommit(() -> {
			registry.counter("allot.bookings", "outcome", "confirmed", "pool", confirmed.pool()).increment();
			double hours = java.time.Duration.between(confirmed.startsAt(), confirmed.endsAt()).toMinutes() / 60.0;
			registry.counter("allot.booked.gpu.hours", "pool", confirmed.pool()).increment(hours * confirmed.gpus());
		});
	}

	@EventListener
	void on(ReservationCancelled cancelled) {
		afterCommit(() -> registry.counter("allot.bookings", "outcome", "cancelled", "pool", "").increment());
	}

	@EventListener
	void on(ReservationExtended extended) {
		afterCommit(() -> registry.counter("allot.bookings", "outcome", "extended", "pool", "").increment());
	}

	private static void afterCommit(Runnable count) {
		if (!TransactionSynchronizationManager.isSynchronizationActive()) {
			count.run();
			return;
		}
		TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
			@Override
			public void afterCommit() {
				count.run();
			}
		});
	}

}
