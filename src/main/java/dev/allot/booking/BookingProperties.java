package dev.allot.booking;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code allot.booking.*}.
 *
 * @param concurrentChanges how many booking, extending and cancelling transactions run at once on this replica;
 * the others wait their turn in arrival order. Request threads are virtual, so without a limit every request
 * starts its transaction at once: on a few cores they then share the CPU with the calendar, earliest-fit and
 * page reads, which queue behind them, and they hold every pooled connection. About half the connection pool
 * keeps the database busy and leaves connections and CPU to reads and to after-commit work.
 */
@ConfigurationProperties("allot.booking")
record BookingProperties(@DefaultValue("8") int concurrentChanges) {

    BookingProperties {
        if (concurrentChanges < 1) {
            throw new IllegalArgumentException("allot.booking.concurrent-changes must be at least 1");
        }
    }
}
