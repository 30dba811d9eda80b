package dev.allot.billing.idle;

import dev.allot.shared.InvalidInputException;
import dev.allot.shared.InvalidInputException.FieldError;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A tenant's idleReclaim policy: {@code OFF} (the default), {@code NOTIFY} (a notice once a reservation has been
 * idle {@code afterHours}), or {@code RELEASE} (that notice, then the reservation is ended early
 * {@code noticeMinutes} later unless its GPUs were used meanwhile).
 */
public record IdleReclaimPolicy(
        Mode mode, @Nullable Integer afterHours, @Nullable Integer noticeMinutes) {

    public enum Mode {
        OFF,
        NOTIFY,
        RELEASE
    }

    public static final IdleReclaimPolicy OFF = new IdleReclaimPolicy(Mode.OFF, null, null);

    public IdleReclaimPolicy {
        List<FieldError> errors = new ArrayList<>();
        if (mode == null) {
            errors.add(new FieldError("mode", "is required: OFF, NOTIFY or RELEASE"));
        } else if (mode != Mode.OFF && (afterHours == null || afterHours < 1 || afterHours > 720)) {
            errors.add(new FieldError("afterHours", "is required for " + mode + ": 1 to 720 hours idle"));
        }
        if (mode == Mode.RELEASE && (noticeMinutes == null || noticeMinutes < 0 || noticeMinutes > 10_080)) {
            errors.add(new FieldError("noticeMinutes", "is required for RELEASE: 0 to 10080 minutes of notice"));
        }
        if (mode != Mode.RELEASE && noticeMinutes != null) {
            errors.add(new FieldError("noticeMinutes", "applies to RELEASE only"));
        }
        if (mode == Mode.OFF && afterHours != null) {
            errors.add(new FieldError("afterHours", "does not apply to OFF"));
        }
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
    }
}
