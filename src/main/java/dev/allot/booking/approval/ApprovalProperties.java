package dev.allot.booking.approval;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code allot.approvals.*}.
 *
 * @param hold how long a booking waiting for approval holds its nodes (never past its start): undecided by then, it
 * is {@code EXPIRED} and its nodes and quota are freed
 */
@ConfigurationProperties("allot.approvals")
record ApprovalProperties(@DefaultValue("PT24H") Duration hold) {

    ApprovalProperties {
        if (hold.isNegative() || hold.isZero()) {
            throw new IllegalArgumentException("allot.approvals.hold must be positive");
        }
    }
}
