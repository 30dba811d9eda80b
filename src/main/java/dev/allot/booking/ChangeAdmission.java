package dev.allot.booking;

import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The one bound on concurrent booking changes ({@link BookingTransactions}), shared by every step that books, queues,
 * extends or cancels, so that together they are admitted {@link BookingProperties#concurrentChanges()} at a time.
 */
@Component
class ChangeAdmission {

    private final BookingTransactions transactions;

    ChangeAdmission(TransactionTemplate transactions, BookingProperties properties) {
        this.transactions = new BookingTransactions(transactions, properties.concurrentChanges());
    }

    /** The transactions of booking changes, admitted through the bound. */
    BookingTransactions transactions() {
        return transactions;
    }
}
