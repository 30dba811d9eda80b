package dev.allot.booking;

import java.util.concurrent.Semaphore;

import org.jspecify.annotations.Nullable;

import org.springframework.transaction.TransactionException;
import org.springframework.transaction.support.TransactionCallback;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The transactions that change bookings, admitted a bounded number at a time (see
 * {@link BookingProperties#concurrentChanges()}), first come first served. A change waits for its turn before it
 * takes a connection or a lock, so waiting here holds nothing another transaction needs. Not a bean: as one it
 * would replace the application's plain {@code TransactionTemplate} everywhere.
 */
class BookingTransactions extends TransactionTemplate {

	private final Semaphore turns;

	BookingTransactions(TransactionTemplate template, int concurrentChanges) {
		super(java.util.Objects.requireNonNull(template.getTransactionManager()), template);
		this.turns = new Semaphore(concurrentChanges, true);
	}

	@Override
	public <T extends @Nullable Object> T execute(TransactionCallback<T> action) throws TransactionException {
		turns.acquireUninterruptibly();
		try {
			return super.execute(action);
		}
		finally {
			turns.release();
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
