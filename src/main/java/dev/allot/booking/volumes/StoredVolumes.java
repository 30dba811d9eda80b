package dev.allot.booking.volumes;

import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditRecord;
import dev.allot.booking.Reservation;
import dev.allot.booking.events.RetainedVolumeDeleted;
import dev.allot.booking.spec.ClusterSpec;
import dev.allot.quota.Quotas;
import dev.allot.shared.AllotException;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.PageQuery;
import dev.allot.shared.PageResponse;
import dev.allot.shared.security.Caller;
import dev.allot.shared.security.TenantRole;
import dev.allot.tenancy.Tenancy;
import dev.allot.tenancy.Tenant;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * The volumes reservations book: counted against the tenant's {@code storageGi} when booked, made and removed by
 * provisioning, and, when the tenant asked to retain one, kept after the reservation until the tenant deletes it.
 */
@Service
@Transactional
public class StoredVolumes {

    private final VolumeRepository rows;

    private final Tenancy tenancy;

    private final Quotas quotas;

    private final AuditLog audit;

    private final ApplicationEventPublisher events;

    private final Clock clock;

    StoredVolumes(
            VolumeRepository rows,
            Tenancy tenancy,
            Quotas quotas,
            AuditLog audit,
            ApplicationEventPublisher events,
            Clock clock) {
        this.rows = rows;
        this.tenancy = tenancy;
        this.quotas = quotas;
        this.audit = audit;
        this.events = events;
        this.clock = clock;
    }

    /**
     * Books the reservation's volumes in its booking transaction, under the tenant's quota lock: refused when they
     * would take the tenant over its {@code storageGi} with the volumes it holds during the window.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void book(Reservation reservation, UUID tenantId) {
        List<ClusterSpec.Volume> volumes = reservation.cluster().volumes();
        if (volumes.isEmpty()) {
            return;
        }
        for (int i = 0; i < volumes.size(); i++) {
            if (volumes.get(i).retain()
                    && reservation.cluster().orchestrator() == ClusterSpec.Orchestrator.KUBERNETES) {
                throw InvalidInputException.of(
                        "cluster.volumes[" + i + "].retain",
                        "Kubernetes volumes are deleted with the cluster's namespace; only Slurm volumes can be retained");
            }
        }
        long requested = volumes.stream().mapToLong(ClusterSpec.Volume::sizeGi).sum();
        quotas.requireStorage(tenantId, rows.heldGi(tenantId, reservation.startsAt(), reservation.endsAt()), requested);
        volumes.forEach(volume -> rows.insert(UUID.randomUUID(), reservation.id(), tenantId, volume));
    }

    @Transactional(readOnly = true)
    public List<StoredVolume> ofReservation(UUID reservationId) {
        return rows.ofReservation(reservationId);
    }

    /** The driver made the volume (or found it made): it now holds storage, and is billed, from {@code at}. */
    public void created(UUID reservationId, String name, String location) {
        rows.created(reservationId, name, location, clock.instant());
    }

    /** The reservation's cluster is torn down: its retained volumes stay, the others are gone. */
    @Transactional(propagation = Propagation.MANDATORY)
    public void tornDown(UUID reservationId) {
        rows.tornDown(reservationId, clock.instant());
    }

    /** The driver removed a deleted retained volume. */
    public void removed(UUID volumeId) {
        rows.removed(volumeId);
    }

    @Transactional(readOnly = true)
    public PageResponse<StoredVolume> list(Caller caller, String tenantSlug, PageQuery page) {
        Tenant tenant = tenancy.readable(caller, tenantSlug);
        return PageResponse.of(rows.live(tenant.id(), page.offset(), page.size()), page, rows.countLive(tenant.id()));
    }

    @Transactional(readOnly = true)
    public StoredVolume get(Caller caller, String tenantSlug, UUID id) {
        Tenant tenant = tenancy.readable(caller, tenantSlug);
        return rows.find(id).filter(v -> v.tenant().equals(tenant.slug())).orElseThrow(() -> notFound(id));
    }

    /**
     * Deletes a retained volume: it stops counting against the quota and being billed at once, and provisioning
     * removes it from the pool. A volume of a reservation that has not ended yet goes with its cluster instead.
     */
    public StoredVolume delete(Caller caller, String tenantSlug, UUID id) {
        Tenant tenant = tenancy.writable(caller, tenantSlug, TenantRole.MEMBER);
        StoredVolume before = rows.findForUpdate(tenant.id(), id).orElseThrow(() -> notFound(id));
        if (before.status().equals("DELETING") || before.status().equals("DELETED")) {
            return before;
        }
        if (!before.status().equals("RETAINED")) {
            throw AllotException.conflict(
                    "volume_in_use",
                    "Volume " + before.name() + " belongs to reservation "
                            + before.reservationId() + ", which has not ended (" + before.status()
                            + "): it can be deleted once it is retained");
        }
        rows.deleting(id, clock.instant());
        StoredVolume after = rows.find(id).orElseThrow();
        audit.record(new AuditRecord(tenantSlug, "volume.deleted", "volume", id.toString(), before, after));
        events.publishEvent(
                new RetainedVolumeDeleted(id, before.reservationId(), before.tenant(), before.pool(), before.name()));
        return after;
    }

    @Transactional(readOnly = true)
    public Optional<StoredVolume> find(UUID id) {
        return rows.find(id);
    }

    /** Volumes the tenant deleted that the driver has not removed yet. */
    @Transactional(readOnly = true)
    public List<StoredVolume> deleting() {
        return rows.deleting();
    }

    /** Volumes on a driver, the longest unmeasured first, for the monitored size limit. */
    @Transactional(readOnly = true)
    public List<StoredVolume> toMeasure(int limit) {
        return rows.toMeasure(limit);
    }

    /**
     * Records a measurement. A volume that holds more than its size becomes over its limit (audited once, when it
     * crosses), and stops being so when it is back under. Answers the volume as it is now.
     */
    public @Nullable StoredVolume measured(UUID volumeId, long usedBytes) {
        StoredVolume before = rows.lockMeasurable(volumeId).orElse(null);
        if (before == null) {
            return null;
        }
        Instant now = clock.instant();
        boolean over = usedBytes > before.limitBytes();
        Instant since = over ? (before.overLimitSince() != null ? before.overLimitSince() : now) : null;
        rows.measured(volumeId, usedBytes, now, since);
        StoredVolume after = rows.find(volumeId).orElseThrow();
        if (over != before.overLimit()) {
            audit.record(new AuditRecord(
                    before.tenant(),
                    over ? "volume.over_limit" : "volume.within_limit",
                    "volume",
                    volumeId.toString(),
                    before,
                    after));
        }
        return after;
    }

    /** Volumes that existed on a driver at some time in {@code [from, to)}. */
    @Transactional(readOnly = true)
    public List<StoredVolume> existedDuring(Instant from, Instant to) {
        return rows.existedDuring(from, to);
    }

    private static AllotException notFound(UUID id) {
        return AllotException.notFound("Volume " + id);
    }
}
