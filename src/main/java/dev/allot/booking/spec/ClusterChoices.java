package dev.allot.booking.spec;

import dev.allot.shared.InvalidInputException;
import java.util.List;

/**
 * What the cluster of a pool can honour of a booking's {@link ClusterSpec}, asked before anything is written (when
 * quoting and when booking). Booking does not know which driver serves a pool; provisioning does and implements
 * this, so that a choice the driver would ignore is refused at once instead of being accepted and dropped.
 */
public interface ClusterChoices {

    /** The refused choices, each naming its field ({@code cluster.sshPublicKeys}, ...); empty when all can be honoured. */
    List<InvalidInputException.FieldError> refusals(String pool, ClusterSpec cluster);
}
