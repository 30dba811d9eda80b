package dev.allot.provisioning.lifecycle;

import dev.allot.booking.volumes.StoredVolume;
import dev.allot.booking.volumes.StoredVolumes;
import dev.allot.provisioning.driver.ClusterDriver;
import dev.allot.provisioning.driver.ClusterRef;
import dev.allot.provisioning.driver.ProvisionedVolume;
import java.util.List;
import java.util.UUID;
import org.springframework.stereotype.Component;

/**
 * A cluster's volumes through its lifecycle: recorded where the driver made them, and at teardown removed unless
 * the tenant asked to retain them. Each step answers one short timeline sentence (empty when there are none).
 */
@Component
class ClusterVolumes {

    private final StoredVolumes volumes;

    ClusterVolumes(StoredVolumes volumes) {
        this.volumes = volumes;
    }

    /** Records the volumes the driver made; the sentence says where each is and how to see it. */
    String created(UUID reservationId, List<ProvisionedVolume> made) {
        made.forEach(v -> volumes.created(reservationId, v.name(), v.location()));
        return made.isEmpty()
                ? ""
                : " Volumes: "
                        + String.join(
                                "; ",
                                made.stream()
                                        .map(v -> v.location() + " (" + v.seeWith() + ": " + v.detail() + ")")
                                        .toList())
                        + ".";
    }

    /** Removes the volumes not retained (the driver ignores those that go with the cluster). */
    String removeAtTeardown(ClusterDriver driver, ClusterRef ref) {
        List<StoredVolume> all = volumes.ofReservation(ref.reservationId());
        List<String> removed =
                all.stream().filter(v -> !v.retain()).map(StoredVolume::name).toList();
        driver.removeVolumes(ref, removed);
        List<String> kept = all.stream()
                .filter(v -> v.retain() && v.location() != null)
                .map(StoredVolume::location)
                .toList();
        return (removed.isEmpty() ? "" : " Volumes removed: " + String.join(", ", removed) + ".")
                + (kept.isEmpty() ? "" : " Retained: " + String.join(", ", kept) + ".");
    }

    /** In the teardown's final transaction. */
    void tornDown(UUID reservationId) {
        volumes.tornDown(reservationId);
    }
}
