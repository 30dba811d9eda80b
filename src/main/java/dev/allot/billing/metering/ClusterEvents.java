package dev.allot.billing.metering;

import dev.allot.booking.events.ReservationFailed;
import dev.allot.provisioning.ClusterReady;
import org.springframework.modulith.events.ApplicationModuleListener;
import org.springframework.stereotype.Component;

/**
 * What billing learns from the provisioning lifecycle: a reservation is billable from max(window start,
 * cluster ready), and a failed provisioning costs nothing. Both redelivered after a crash; both idempotent.
 */
@Component
class ClusterEvents {

    private final Lifecycle lifecycle;

    ClusterEvents(Lifecycle lifecycle) {
        this.lifecycle = lifecycle;
    }

    @ApplicationModuleListener
    void on(ClusterReady ready) {
        lifecycle.clusterReady(ready.reservationId(), ready.readyAt());
    }

    @ApplicationModuleListener
    void on(ReservationFailed failed) {
        lifecycle.failed(failed.reservationId(), failed.failedAt(), failed.reason());
    }
}
