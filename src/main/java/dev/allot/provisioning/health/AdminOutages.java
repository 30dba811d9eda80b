package dev.allot.provisioning.health;

import dev.allot.inventory.NodeState;
import dev.allot.inventory.events.NodeStateChanged;
import org.springframework.modulith.events.ApplicationModuleListener;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;

/**
 * A node an admin takes out of service (quarantine, repair or retirement, in the console or over the API) is
 * replaced where it is held, as Allot's own quarantines are: in a live cluster by a spare or a free node, and in
 * every later reservation by another free node, the tenant told where none can be had. Delivered after the change
 * commits, from the event publication registry; a reservation no longer holding the node is not touched again.
 */
@Component
class AdminOutages {

    private final Remediation remediation;

    AdminOutages(Remediation remediation) {
        this.remediation = remediation;
    }

    // no transaction around the listener: each reservation's replacement commits or rolls back on its own, and one
    // that finds no node (rolled back) must not take the others, or the publication's completion, with it
    @ApplicationModuleListener(propagation = Propagation.NOT_SUPPORTED)
    void on(NodeStateChanged changed) {
        if (changed.from() != NodeState.AVAILABLE
                || changed.to() == NodeState.AVAILABLE
                || changed.reason().startsWith(Remediation.OWN_REASON)) {
            return; // back in service, or already out, or Allot's own quarantine (which replaces as it goes)
        }
        remediation.replaceEverywhere(
                changed.hostname(), changed.at(), "taken out of service by an admin: " + changed.reason());
    }
}
