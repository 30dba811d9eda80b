package dev.allot.booking;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code allot.sharing.*}.
 *
 * @param preemptionNotice how long a preempted reservation that runs now (or starts within it) keeps its nodes
 * before they go to the guaranteed booking that reclaimed them; one starting later is released at once.
 */
@ConfigurationProperties("allot.sharing")
record SharingProperties(@DefaultValue("PT30M") Duration preemptionNotice) {

	SharingProperties {
		if (preemptionNotice.isNegative()) {
			throw new IllegalArgumentException("allot.sharing.preemption-notice must not be negative");
		}
	}

}
