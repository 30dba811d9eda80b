package dev.allot.booking.sharing;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code allot.sharing.*}.
 *
 * @param preemptionNotice how long a preempted reservation that runs now (or starts within it) keeps its nodes
 * before they go to the guaranteed booking that reclaimed them; one starting later is released at once.
 * @param repackBeyond reservations starting further ahead than this (and whose cluster is not being built) may be
 * moved to other nodes of their pool to make room for a guaranteed booking ({@link Repacking}); keep it longer than
 * the provisioning lead time ({@code allot.provisioning.lifecycle.lead-time}).
 */
@ConfigurationProperties("allot.sharing")
record SharingProperties(
        @DefaultValue("PT30M") Duration preemptionNotice,
        @DefaultValue("PT1H") Duration repackBeyond) {

    SharingProperties {
        if (preemptionNotice.isNegative()) {
            throw new IllegalArgumentException("allot.sharing.preemption-notice must not be negative");
        }
        if (repackBeyond.isNegative()) {
            throw new IllegalArgumentException("allot.sharing.repack-beyond must not be negative");
        }
    }
}
