package dev.allot.booking;

import dev.allot.booking.events.ReservationCancelled;
import dev.allot.booking.events.ReservationConfirmed;
import dev.allot.booking.events.ReservationExtended;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Counts what booking commits ({@code allot_bookings_total} by outcome and pool, booked GPU-hours); refusals
 * are counted by their problem code in {@code allot_api_problems_total}.
 * <p>
 * A plain listener that counts once the transaction commits, on purpose not a {@code @TransactionalEventListener}:
 * Spring Modulith records a publication for every transactional listener and marks it done in a transaction of
 * its own, which would take a second pooled connection while the request still holds its first one; with every
 * request of a full pool doing that at once, they all waited for a connection that none would give back.
 */
@Component
class BookingMetrics {

    private final MeterRegistry registry;

    BookingMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @EventListener
    void on(ReservationConfirmed confirmed) {
        double hours =
                Duration.between(confirmed.startsAt(), confirmed.endsAt()).toMinutes() / 60.0;
        afterCommit(() -> {
            registry.counter("allot.bookings", "outcome", "confirmed", "pool", confirmed.pool())
                    .increment();
            registry.counter("allot.booked.gpu.hours", "pool", confirmed.pool()).increment(hours * confirmed.gpus());
        });
    }

    @EventListener
    void on(ReservationCancelled cancelled) {
        afterCommit(() -> registry.counter("allot.bookings", "outcome", "cancelled", "pool", "")
                .increment());
    }

    @EventListener
    void on(ReservationExtended extended) {
        afterCommit(() -> registry.counter("allot.bookings", "outcome", "extended", "pool", "")
                .increment());
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
