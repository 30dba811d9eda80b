package dev.allot.provisioning.health;

import dev.allot.inventory.Inventory;
import dev.allot.inventory.NodeCommitments;
import dev.allot.provisioning.NodeDegraded;
import dev.allot.provisioning.NodeNotReplaced;
import dev.allot.provisioning.checks.HealthProperties;
import dev.allot.provisioning.checks.Verdict;
import dev.allot.provisioning.driver.ClusterDriver;
import dev.allot.provisioning.driver.ClusterDriverException;
import dev.allot.provisioning.driver.ClusterDrivers;
import dev.allot.provisioning.driver.HealthCheckKind;
import dev.allot.provisioning.lifecycle.Cluster;
import dev.allot.provisioning.lifecycle.ClusterSchedule;
import dev.allot.provisioning.lifecycle.SwappedOutNodes;
import dev.allot.shared.security.Caller;
import dev.allot.shared.security.PlatformRole;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Tiered remediation of a node that failed a check or reported a fault, each step on the cluster's timeline and
 * in the audit trail:
 * <ol>
 * <li>a software-class fault, the node's first within the cooldown, reboots it through the driver; once it is back
 * the failed check runs on it again, and only a pass puts it back in service ({@link RebootRechecks});</li>
 * <li>a hardware-class fault, or a second failure within the cooldown, quarantines it (inventory);</li>
 * <li>every reservation holding the quarantined node from now on gets another free node in its place, one
 * transaction per reservation (booking); a live cluster is moved onto it through the driver, and the new node
 * is checked. A reservation for which no node is free keeps the node, its tenant is notified
 * ({@link NodeNotReplaced}) and reads why on the cluster's timeline; a live cluster stays {@code DEGRADED} with that
 * reason.</li>
 * </ol>
 */
@Component
public class Remediation implements SwappedOutNodes {

    private static final Logger log = LoggerFactory.getLogger(Remediation.class);

    /** How Allot's own quarantines begin their reason: those it replaces itself, as it takes the node out. */
    static final String OWN_REASON = "Allot health: ";

    /** Remediation acts for no user: as Allot itself, audited as such. */
    static final Caller ALLOT = new Caller(
            "allot-remediation",
            "Allot remediation",
            Caller.Kind.SERVICE_ACCOUNT,
            EnumSet.of(PlatformRole.PLATFORM_ADMIN),
            Map.of());

    /** What was done about one node. */
    public enum Action {
        REBOOT,
        QUARANTINE,
        NONE
    }

    private final ClusterDrivers drivers;

    private final Inventory inventory;

    private final HealthProperties properties;

    private final ApplicationEventPublisher events;

    private final ClusterSchedule schedule;

    private final TransactionTemplate transactions;

    private final Clock clock;

    private final NodeReplacement replacement;

    private final RemediationRecord record;

    Remediation(
            ClusterDrivers drivers,
            Inventory inventory,
            HealthProperties properties,
            ApplicationEventPublisher events,
            ClusterSchedule schedule,
            TransactionTemplate transactions,
            Clock clock,
            NodeReplacement replacement,
            RemediationRecord record) {
        this.drivers = drivers;
        this.inventory = inventory;
        this.properties = properties;
        this.events = events;
        this.schedule = schedule;
        this.transactions = transactions;
        this.clock = clock;
        this.replacement = replacement;
        this.record = record;
    }

    /**
     * Remediates a node of a serving cluster that failed. A node rebooted is checked again with {@code recheck} once
     * it is back ({@link RebootRechecks}), and counts as healthy only when that passes.
     *
     * @param why what failed, for the timeline and the node's state reason
     * @param recheck the check to run again after a reboot (the one that failed)
     */
    public Action remediate(Cluster cluster, String node, Verdict.Fault fault, String why, HealthCheckKind recheck) {
        if (fault == Verdict.Fault.NONE) {
            return Action.NONE;
        }
        Instant now = clock.instant();
        // the tenant is not charged for the node from now until it is replaced or passes again (billing)
        transactions.executeWithoutResult(status -> events.publishEvent(new NodeDegraded(
                cluster.reservationId(), cluster.tenant(), node, now, shorten(fault + " fault: " + why, 1000))));
        Action action = tiers(cluster, node, fault, why);
        if (action == Action.REBOOT) {
            schedule.recheckAfterReboot(cluster.reservationId(), node, recheck.name(), now.plus(RebootRechecks.POLL));
        }
        return action;
    }

    /**
     * Remediates a node that failed acceptance and was swapped out of {@code cluster} before handover: the same
     * tiers, with nothing to credit (the tenant never had it). A reboot puts it back among the free nodes, where the
     * next cluster's acceptance checks it again, and a second failure within the cooldown quarantines it; a
     * quarantine also moves the other reservations holding it.
     */
    @Override
    public void swappedOut(Cluster cluster, String node, Verdict.Fault fault, String why) {
        if (fault != Verdict.Fault.NONE) {
            tiers(cluster, node, fault, why);
        }
    }

    private Action tiers(Cluster cluster, String node, Verdict.Fault fault, String why) {
        Instant now = clock.instant();
        boolean repeated = record.remediatedSince(node, now.minus(properties.cooldown()));
        ClusterDriver driver = drivers.forPool(cluster.pool());
        if (fault == Verdict.Fault.SOFTWARE && !repeated) {
            try {
                ClusterDriver.Reboot reboot = driver.reboot(cluster.ref(), node);
                record.note(
                        cluster.reservationId(),
                        node,
                        Action.REBOOT,
                        fault,
                        "Rebooting " + node + " for a software fault (" + why + "): " + reboot.done() + ".",
                        reboot.mark());
                return Action.REBOOT;
            } catch (ClusterDriverException | UnsupportedOperationException ex) {
                log.warn("Cannot reboot {}: {}", node, ex.getMessage());
                // a node that cannot be rebooted is taken out of service instead
            }
        }
        String reason = (repeated
                        ? "failed again within " + properties.cooldown() + " of a remediation"
                        : fault == Verdict.Fault.HARDWARE ? "hardware fault" : "software fault, reboot impossible")
                + ": " + why;
        quarantineAndReplace(cluster.reservationId(), node, fault, reason);
        return Action.QUARANTINE;
    }

    /**
     * Takes the node out of service and gives every reservation holding it from now on another node, each in its
     * own transaction; returns the reservations that could not get one.
     */
    public List<UUID> quarantineAndReplace(
            @Nullable UUID reservationId, String node, Verdict.Fault fault, String reason) {
        Inventory.StateChange change = inventory.quarantine(ALLOT, node, shorten(OWN_REASON + reason, 400));
        record.note(reservationId, node, Action.QUARANTINE, fault, "Quarantined " + node + " (" + reason + ").", null);
        List<UUID> stranded = new ArrayList<>();
        for (NodeCommitments.Commitment held : change.affected()) {
            if (!replacement.replaceIn(held.reservationId(), node, reason)) {
                stranded.add(held.reservationId());
            }
        }
        return stranded;
    }

    /**
     * A node an admin took out of service (quarantine, repair, retirement): every reservation holding it from then on
     * gets another node, as for Allot's own quarantines, each in its own transaction; returns those that could not.
     */
    public List<UUID> replaceEverywhere(String node, Instant from, String reason) {
        List<UUID> stranded = new ArrayList<>();
        for (NodeCommitments.Commitment held : inventory.holding(node, from)) {
            if (!replacement.replaceIn(held.reservationId(), node, reason)) {
                stranded.add(held.reservationId());
            }
        }
        return stranded;
    }

    static String shorten(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max - 1) + "…";
    }
}
