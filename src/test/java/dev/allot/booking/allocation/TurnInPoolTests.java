package dev.allot.booking.allocation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.FleetTest;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.dao.DataAccessException;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A pool's bookings share it; a guaranteed booking's last tries, after four lost races, have it alone
 * ({@link AllocationRepository#turnInPool}): while a booking is under way in the pool such a try waits, other bookings do
 * not, and another pool is not held up at all. Each wait is bounded by a {@code lock_timeout} so that a lock that
 * is not taken is seen as the timeout, not as a hung test.
 */
class TurnInPoolTests extends FleetTest {

    @Autowired
    TransactionTemplate template;

    @Autowired
    AllocationRepository allocations;

    @Test
    void aBookingThatLostItsRacesWaitsForTheBookingsUnderWayInItsPoolWhileOthersShareIt() throws Exception {
        UUID pool = UUID.randomUUID();
        UUID otherPool = UUID.randomUUID();
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(1);
        try {
            // a booking under way in the pool, holding its shared turn until released
            Future<?> underWay = threads.submit(() -> template.executeWithoutResult(status -> {
                allocations.turnInPool(pool, false);
                held.countDown();
                await(release);
            }));
            assertThat(held.await(30, TimeUnit.SECONDS)).isTrue();

            assertThat(takesTurn(pool, false))
                    .as("another booking of the pool shares it")
                    .isTrue();
            assertThat(takesTurn(pool, true))
                    .as("a booking that lost its races waits for the one under way")
                    .isFalse();
            assertThat(takesTurn(otherPool, true))
                    .as("another pool is not held up")
                    .isTrue();

            release.countDown();
            underWay.get(30, TimeUnit.SECONDS);
            assertThat(takesTurn(pool, true))
                    .as("once the booking under way ended, the pool is its alone")
                    .isTrue();
        } finally {
            release.countDown();
            threads.shutdownNow();
        }
    }

    /** Whether the turn is taken within 300 ms, in a transaction of its own. */
    private boolean takesTurn(UUID pool, boolean alone) {
        try {
            template.executeWithoutResult(status -> {
                jdbc.sql("SET LOCAL lock_timeout = '300ms'").update();
                allocations.turnInPool(pool, alone);
            });
            return true;
        } catch (DataAccessException timedOut) {
            assertThat(timedOut.getMostSpecificCause().getMessage()).contains("lock timeout");
            return false;
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
