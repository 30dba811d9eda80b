package dev.allot.booking;

import java.util.Objects;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.support.TransactionCallback;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The transactions that change bookings, admitted a bounded number at a time (see
 * {@link BookingProperties#concurrentChanges()}), first come first served. A change waits for its turn before it
 * takes a connection or a lock, so waiting here holds nothing another transaction needs. Not a bean: as one it
 * would replace the application's plain {@code TransactionTemplate} everywhere.
 */
class BookingTransactions extends TransactionTemplate {

    private static final int ATTEMPTS = 4;

    private static final Logger log = LoggerFactory.getLogger(BookingTransactions.class);

    private final Semaphore turns;

    BookingTransactions(TransactionTemplate template, int concurrentChanges) {
        super(Objects.requireNonNull(template.getTransactionManager()), template);
        this.turns = new Semaphore(concurrentChanges, true);
    }

    /**
     * Runs the change in a transaction; when PostgreSQL aborts it to break a deadlock (or a serialization failure),
     * runs it again from the start, up to {@value #ATTEMPTS} times in all. Nothing of an aborted attempt remains (its
     * events are published only at commit), so a retry is as if the first never happened. Deadlocks are possible by
     * design: reclaiming changes the victim tenants' maintained usage without their quota locks (see
     * {@code Quotas.releasePreempted}).
     */
    @Override
    public <T extends @Nullable Object> T execute(TransactionCallback<T> action) throws TransactionException {
        // inside a caller's transaction an abort is the caller's to handle: the transaction is gone, not just this part
        int attempts = TransactionSynchronizationManager.isActualTransactionActive() ? 1 : ATTEMPTS;
        turns.acquireUninterruptibly();
        try {
            for (int attempt = 1; ; attempt++) {
                try {
                    return super.execute(action);
                } catch (PessimisticLockingFailureException aborted) {
                    if (attempt >= attempts) {
                        throw aborted;
                    }
                    log.info(
                            "Booking change aborted by the database ({}), attempt {} of {}: retrying",
                            String.valueOf(aborted.getMostSpecificCause().getMessage())
                                    .lines()
                                    .findFirst()
                                    .orElse(""),
                            attempt,
                            attempts);
                    pause(ThreadLocalRandom.current().nextLong(5, 25L * attempt));
                }
            }
        } finally {
            turns.release();
        }
    }

    /** Waits before a retry; an interrupt ends the wait (and stays set). */
    static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    /** Changes that could start now without waiting. */
    int idleTurns() {
        return turns.availablePermits();
    }

    /** Changes waiting for their turn. */
    int waiting() {
        return turns.getQueueLength();
    }
}
