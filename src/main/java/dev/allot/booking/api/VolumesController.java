package dev.allot.booking.api;

import dev.allot.booking.volumes.StoredVolume;
import dev.allot.booking.volumes.StoredVolumes;
import dev.allot.shared.PageQuery;
import dev.allot.shared.PageResponse;
import dev.allot.shared.security.Caller;
import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** A tenant's volumes: those of its reservations and those retained after them, until it deletes them. */
@RestController
@RequestMapping("/api/v1/tenants/{tenant}/volumes")
class VolumesController {

    /** A volume as the tenant sees it; {@code overLimit} when it holds more than {@code sizeGi} (monitored limit). */
    record StoredVolumeBody(
            UUID id,
            UUID reservationId,
            String name,
            int sizeGi,
            boolean retain,
            String status,
            @Nullable String location,
            @Nullable Instant createdAt,
            @Nullable Instant deletedAt,
            @Nullable Long usedBytes,
            @Nullable Instant measuredAt,
            boolean overLimit,
            @Nullable Instant overLimitSince) {

        static StoredVolumeBody of(StoredVolume v) {
            return new StoredVolumeBody(
                    v.id(),
                    v.reservationId(),
                    v.name(),
                    v.sizeGi(),
                    v.retain(),
                    v.status(),
                    v.location(),
                    v.createdAt(),
                    v.deletedAt(),
                    v.usedBytes(),
                    v.measuredAt(),
                    v.overLimit(),
                    v.overLimitSince());
        }
    }

    private final StoredVolumes volumes;

    VolumesController(StoredVolumes volumes) {
        this.volumes = volumes;
    }

    @GetMapping
    PageResponse<StoredVolumeBody> list(
            Caller caller,
            @PathVariable String tenant,
            @RequestParam(required = false) @Nullable Integer page,
            @RequestParam(required = false) @Nullable Integer size) {
        return volumes.list(caller, tenant, PageQuery.of(page, size)).map(StoredVolumeBody::of);
    }

    @GetMapping("/{id}")
    StoredVolumeBody get(Caller caller, @PathVariable String tenant, @PathVariable UUID id) {
        return StoredVolumeBody.of(volumes.get(caller, tenant, id));
    }

    /** Deletes a retained volume; answers it {@code DELETING} (the pool removes it) or already gone. */
    @DeleteMapping("/{id}")
    StoredVolumeBody delete(Caller caller, @PathVariable String tenant, @PathVariable UUID id) {
        return StoredVolumeBody.of(volumes.delete(caller, tenant, id));
    }
}
