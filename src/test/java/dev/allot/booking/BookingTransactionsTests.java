package dev.allot.booking;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.FleetTest;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.support.TransactionTemplate;

/** A booking change that PostgreSQL aborts to break a deadlock runs again, from the start, instead of failing. */
class BookingTransactionsTests extends FleetTest {

    @Autowired
    TransactionTemplate template;

    @Test
    void theLoserOfARealDeadlockIsRunAgainAndBothChangesCommitOnce() throws Exception {
        List<String> tenants = List.of(newTenant(), newTenant());
        AtomicInteger changes = new AtomicInteger();
        BookingTransactions transactions = new BookingTransactions(template, 4);
        CyclicBarrier bothHoldTheirFirstRow = new CyclicBarrier(2);
        AtomicInteger attempts = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<Integer>> runs = List.of(0, 1).stream()
                    .map(first -> pool.submit(() -> transactions.execute(status -> {
                        int attempt = attempts.incrementAndGet();
                        lock(tenants.get(first));
                        if (attempt <= 2) {
                            await(bothHoldTheirFirstRow);
                        }
                        // each takes the other's row: PostgreSQL aborts one of the two after deadlock_timeout
                        lock(tenants.get(1 - first));
                        return changes.incrementAndGet();
                    })))
                    .toList();
            for (Future<Integer> run : runs) {
                run.get();
            }
        } finally {
            pool.shutdown();
        }
        assertThat(attempts.get())
                .as("two first attempts, one of them aborted and run again")
                .isEqualTo(3);
        assertThat(changes.get()).as("each change ran to its end once").isEqualTo(2);
    }

    private void lock(String tenant) {
        jdbc.sql("SELECT id FROM tenant WHERE slug = ? FOR UPDATE")
                .param(tenant)
                .query(Object.class)
                .single();
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await();
        } catch (Exception ex) {
            throw new IllegalStateException(ex);
        }
    }
}
