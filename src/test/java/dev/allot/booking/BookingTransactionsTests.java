package dev.allot.booking;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.support.SimpleTransactionStatus;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class BookingTransactionsTests {

	private final BookingTransactions transactions = new BookingTransactions(new TransactionTemplate(new NoDatabase()),
			2);

	@Test
	void noMoreThanTheConfiguredChangesRunAtOnceAndTheOthersWaitTheirTurn() throws InterruptedException {
		CountDownLatch release = new CountDownLatch(1);
		AtomicInteger inside = new AtomicInteger();
		AtomicInteger mostInside = new AtomicInteger();
		List<Thread> changes = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			changes.add(Thread.ofVirtual().start(() -> transactions.execute(status -> {
				mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
				try {
					release.await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				return inside.decrementAndGet();
			})));
		}
		await().until(() -> inside.get() == 2 && transactions.waiting() == 1);
		assertThat(transactions.idleTurns()).isZero();
		release.countDown();
		for (Thread change : changes) {
			change.join();
		}
		assertThat(mostInside.get()).isEqualTo(2);
		assertThat(transactions.idleTurns()).isEqualTo(2);
	}

	@Test
	void aFailedChangeGivesItsTurnBack() {
		assertThatThrownBy(() -> transactions.execute(status -> {
			throw new IllegalStateException("refused");
		})).hasMessage("refused");
		assertThat(transactions.idleTurns()).isEqualTo(2);
	}

	/** Transactions that touch nothing: the admission is what is under test. */
	private static final class NoDatabase implements PlatformTransactionManager {

		@Override
		public TransactionStatus getTransaction(TransactionDefinition definition) {
			return new SimpleTransactionStatus();
		}

		@Override
		public void commit(TransactionStatus status) {
		}

		@Override
		public void rollback(TransactionStatus status) {
		}

	}

}
