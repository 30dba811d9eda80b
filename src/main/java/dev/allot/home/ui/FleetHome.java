package dev.allot.home.ui;

import dev.allot.booking.FleetActivity;
import dev.allot.inventory.FleetHealth;
import dev.allot.inventory.NodeState;
import dev.allot.quota.QuotaRequest;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;

/**
 * A platform admin's home: the fleet's nodes by state and those out of service with why, GPUs held now and over the
 * next day against the fleet's GPUs, reclaiming over the last week, and what waits for an admin (quota requests,
 * bookings waiting for approval, invitations to answer).
 */
record FleetHome(
        FleetHealth health,
        FleetActivity.Activity activity,
        List<QuotaRequest> quotaRequests,
        long quotaRequestsWaiting,
        int invitations) {

    /** The states shown, in service first. */
    public List<NodeState> states() {
        return List.of(NodeState.AVAILABLE, NodeState.DRAINING, NodeState.QUARANTINED, NodeState.IN_REPAIR);
    }

    /** GPUs held now, in percent of the fleet's GPUs (0 for an empty fleet). */
    public int percentNow() {
        return health.gpus() == 0 ? 0 : Math.round(100f * activity.gpusHeldNow() / health.gpus());
    }

    /** GPU-hours held over the next day, in percent of the fleet's GPU-hours then. */
    public int percentAhead() {
        if (health.gpus() == 0) {
            return 0;
        }
        BigDecimal capacity =
                BigDecimal.valueOf(health.gpus()).multiply(BigDecimal.valueOf(FleetActivity.AHEAD.toHours()));
        return activity.gpuHoursAhead()
                .multiply(BigDecimal.valueOf(100))
                .divide(capacity, 0, RoundingMode.HALF_EVEN)
                .intValue();
    }

    public int approvalsWaiting() {
        return activity.approvals().stream()
                .mapToInt(FleetActivity.Waiting::bookings)
                .sum();
    }
}
