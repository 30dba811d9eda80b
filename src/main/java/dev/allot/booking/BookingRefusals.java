package dev.allot.booking;

import dev.allot.shared.AllotException;
import java.sql.SQLException;
import java.util.UUID;
import org.springframework.dao.DataIntegrityViolationException;

/** The refusals the steps of booking share: for lack of capacity (409) and for a reservation not there (404). */
final class BookingRefusals {

    static final String CAPACITY_NOT_AVAILABLE = "capacity_not_available";

    private BookingRefusals() {}

    /** Runs an allocation write; a lost race on the exclusion constraint (SQLSTATE 23P01) becomes a 409. */
    static void allocate(Runnable write) {
        try {
            write.run();
        } catch (DataIntegrityViolationException ex) {
            if (ex.getMostSpecificCause() instanceof SQLException sql && "23P01".equals(sql.getSQLState())) {
                throw capacityNotAvailable("Another reservation took one of the nodes first");
            }
            throw ex;
        }
    }

    static AllotException capacityNotAvailable(String detail) {
        return AllotException.conflict(CAPACITY_NOT_AVAILABLE, detail);
    }

    static AllotException notFound(UUID id) {
        return AllotException.notFound("Reservation " + id);
    }
}
