package dev.allot.provisioning.volumes;

import dev.allot.booking.events.RetainedVolumeDeleted;
import dev.allot.booking.volumes.StoredVolume;
import dev.allot.booking.volumes.StoredVolumes;
import dev.allot.provisioning.driver.ClusterDriverException;
import dev.allot.provisioning.driver.ClusterDrivers;
import dev.allot.provisioning.driver.ClusterRef;
import java.util.List;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.modulith.events.ApplicationModuleListener;
import org.springframework.stereotype.Component;

/**
 * Removes the retained volumes tenants delete (at once, and again on each run until the driver succeeds), and
 * measures volumes for the monitored size limit: a volume that holds more than its {@code sizeGi} is marked over
 * its limit (visible to the tenant, audited when it crosses); Allot never deletes a tenant's data for it.
 */
@Component
class VolumeUpkeep {

    private static final Logger log = LoggerFactory.getLogger(VolumeUpkeep.class);

    private final StoredVolumes volumes;

    private final ClusterDrivers drivers;

    private final VolumeProperties properties;

    VolumeUpkeep(StoredVolumes volumes, ClusterDrivers drivers, VolumeProperties properties) {
        this.volumes = volumes;
        this.drivers = drivers;
        this.properties = properties;
    }

    @ApplicationModuleListener
    void on(RetainedVolumeDeleted deleted) {
        volumes.find(deleted.volumeId()).ifPresent(this::remove);
    }

    /** One run: removes deleted volumes, then measures a batch. Safe on many replicas (db-scheduler runs it once). */
    void run() {
        volumes.deleting().forEach(volume -> {
            try {
                remove(volume);
            } catch (ClusterDriverException ex) {
                log.warn("Cannot remove deleted volume {} yet: {}", volume.location(), ex.getMessage());
            }
        });
        measure(volumes.toMeasure(properties.measureBatch()));
    }

    private void remove(StoredVolume volume) {
        if (!volume.status().equals("DELETING")) {
            return;
        }
        drivers.forPool(volume.pool())
                .removeVolumes(new ClusterRef(volume.reservationId(), volume.tenant()), List.of(volume.name()));
        volumes.removed(volume.id());
        log.info("Removed deleted volume {} ({})", volume.name(), volume.location());
    }

    void measure(List<StoredVolume> batch) {
        for (StoredVolume volume : batch) {
            try {
                OptionalLong used = drivers.forPool(volume.pool())
                        .volumeUsage(new ClusterRef(volume.reservationId(), volume.tenant()), volume.name());
                if (used.isPresent()) {
                    StoredVolume now = volumes.measured(volume.id(), used.getAsLong());
                    if (now != null && now.overLimit() && !volume.overLimit()) {
                        log.warn(
                                "Volume {} of {} holds {} bytes, over its {} GiB",
                                volume.location(),
                                volume.tenant(),
                                used.getAsLong(),
                                volume.sizeGi());
                    }
                }
            } catch (ClusterDriverException ex) {
                log.warn("Cannot measure volume {}: {}", volume.location(), ex.getMessage());
            }
        }
    }
}
