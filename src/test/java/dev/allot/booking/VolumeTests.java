package dev.allot.booking;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.booking.events.RetainedVolumeDeleted;
import dev.allot.booking.volumes.StoredVolume;
import dev.allot.booking.volumes.StoredVolumes;
import dev.allot.support.Api;
import dev.allot.support.RecordedEvents;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;

/**
 * Volumes against PostgreSQL: the tenant's storage quota ({@code storageGi}) counts the volumes of overlapping
 * reservations and every retained volume; retained volumes outlive their reservation until the tenant deletes
 * them; the monitored limit marks a volume holding more than its size.
 */
class VolumeTests extends BookingFixture {

    @Autowired
    StoredVolumes volumes;

    @Autowired
    TransactionTemplate transactions;

    @Autowired
    RecordedEvents events;

    @Test
    void volumesThatWouldTakeTheTenantOverItsStorageQuotaAreRefusedAndNothingIsWritten() {
        Setup s = setup(4, 32, 32, false);
        setStorage(s, 1000);
        assertThat(book(s, volumes(s, 8, 10, 12, Map.of("name", "data", "sizeGi", 600)))
                        .status())
                .isEqualTo(201);
        long before = writesOf(s.tenant()) + volumeRows(s.tenant());

        Api.Response refused = book(
                s,
                volumes(s, 8, 11, 13, Map.of("name", "more", "sizeGi", 300), Map.of("name", "extra", "sizeGi", 101)));

        assertThat(refused.status()).as(refused.body()).isEqualTo(422);
        assertThat(refused.header("Content-Type")).startsWith("application/problem+json");
        assertThat(refused.json().get("type").asString()).endsWith("/quota_exceeded");
        assertThat(refused.json().get("limit").asString()).isEqualTo("storageGi");
        assertThat(refused.json().get("allowed").asInt()).isEqualTo(1000);
        assertThat(refused.json().get("held").asInt()).isEqualTo(600);
        assertThat(refused.json().get("requested").asInt()).isEqualTo(401);
        assertThat(writesOf(s.tenant()) + volumeRows(s.tenant())).isEqualTo(before);
        // Exactly at the limit, and after the first window: both fit.
        assertThat(book(s, volumes(s, 8, 11, 13, Map.of("name", "more", "sizeGi", 400)))
                        .status())
                .isEqualTo(201);
        assertThat(book(s, volumes(s, 8, 12, 14, Map.of("name", "later", "sizeGi", 600)))
                        .status())
                .isEqualTo(201);
    }

    @Test
    void aRetainedVolumeCountsAgainstTheQuotaLongAfterItsReservationUntilTheTenantDeletesIt() {
        Setup s = setup(4, 32, 32, false);
        setStorage(s, 1000);
        String id = book(s, volumes(s, 8, 10, 12, Map.of("name", "keep", "sizeGi", 700, "retain", true)))
                .json()
                .get("id")
                .asString();
        UUID reservation = UUID.fromString(id);

        Api.Response refused = book(s, volumes(s, 8, 200, 202, Map.of("name", "big", "sizeGi", 400)));
        assertThat(refused.status()).as(refused.body()).isEqualTo(422);
        assertThat(refused.json().get("limit").asString()).isEqualTo("storageGi");

        StoredVolume kept = volumes.ofReservation(reservation).getFirst();
        Api.Response inUse = api.delete(volumePath(s, kept.id()), s.token());
        assertThat(inUse.status()).as(inUse.body()).isEqualTo(409);
        assertThat(inUse.json().get("type").asString()).endsWith("/volume_in_use");

        endWithTeardown(reservation, "/shared/allot/allot-" + id + "/keep");
        Api.Response listed = api.get("/api/v1/tenants/" + s.tenant() + "/volumes", s.token());
        assertThat(listed.status()).isEqualTo(200);
        assertThat(listed.json().get("totalItems").asInt()).isEqualTo(1);
        JsonNode item = listed.json().get("items").get(0);
        assertThat(item.get("status").asString()).isEqualTo("RETAINED");
        assertThat(item.get("location").asString()).isEqualTo("/shared/allot/allot-" + id + "/keep");
        assertThat(item.get("retain").asBoolean()).isTrue();

        String stranger = tenantToken(newTenant(), "TENANT_ADMIN");
        assertThat(api.delete(volumePath(s, kept.id()), stranger).status()).isIn(403, 404);
        String viewer = tenantToken(s.tenant(), "VIEWER");
        assertThat(api.delete(volumePath(s, kept.id()), viewer).status()).isEqualTo(403);

        Api.Response deleted = api.delete(volumePath(s, kept.id()), s.token());
        assertThat(deleted.status()).as(deleted.body()).isEqualTo(200);
        assertThat(deleted.json().get("status").asString()).isIn("DELETING", "DELETED");
        assertThat(deleted.json().get("deletedAt").isNull()).isFalse();
        assertThat(events.ofType(RetainedVolumeDeleted.class))
                .anyMatch(e -> e.volumeId().equals(kept.id()));
        assertThat(jdbc.sql("SELECT count(*) FROM audit_event WHERE action = 'volume.deleted' AND object_id = ?")
                        .param(kept.id().toString())
                        .query(Long.class)
                        .single())
                .isEqualTo(1);
        assertThat(api.delete(volumePath(s, kept.id()), s.token()).status())
                .as("repeated")
                .isEqualTo(200);
        assertThat(book(s, volumes(s, 8, 200, 202, Map.of("name", "big", "sizeGi", 1000)))
                        .status())
                .isEqualTo(201);
    }

    @Test
    void aVolumeThatIsNotRetainedStopsCountingWhenItsReservationIsCancelled() {
        Setup s = setup(4, 32, 32, false);
        setStorage(s, 500);
        String id = book(s, volumes(s, 8, 10, 12, Map.of("name", "data", "sizeGi", 500)))
                .json()
                .get("id")
                .asString();
        assertThat(book(s, volumes(s, 8, 10, 12, Map.of("name", "data", "sizeGi", 1)))
                        .status())
                .isEqualTo(422);

        assertThat(api.post(path(s, id) + "/cancel", s.token(), Map.of()).status())
                .isEqualTo(200);

        assertThat(book(s, volumes(s, 8, 10, 12, Map.of("name", "data", "sizeGi", 500)))
                        .status())
                .isEqualTo(201);
    }

    @Test
    void theStorageQuotaIsReadAndWrittenWithThePoliciesAndIsUnlimitedByDefault() {
        Setup s = setup(1, 8, 8, false);
        assertThat(api.get("/api/v1/tenants/" + s.tenant() + "/quota", s.token())
                        .json()
                        .get("storageGi")
                        .isNull())
                .isTrue();
        assertThat(book(s, volumes(s, 8, 10, 12, Map.of("name", "huge", "sizeGi", 1_000_000)))
                        .status())
                .isEqualTo(201);

        setStorage(s, 2048);
        assertThat(api.get("/api/v1/tenants/" + s.tenant() + "/quota", s.token())
                        .json()
                        .get("storageGi")
                        .asInt())
                .isEqualTo(2048);

        Api.Response negative = api.put(
                "/api/v1/tenants/" + s.tenant() + "/quota",
                adminToken(),
                Map.of("storageGi", -1, "policies", List.of(policy(s.gpuType(), 0, 8, false))));
        assertThat(negative.status()).isEqualTo(400);
        assertThat(negative.body()).contains("storageGi");
    }

    @Test
    void kubernetesVolumesCannotBeRetainedAndTheBookingNamesTheField() {
        Setup s = setup(1, 8, 8, false);
        Map<String, Object> body = volumes(s, 8, 10, 12, Map.of("name", "data", "sizeGi", 10, "retain", true));
        Map<String, Object> cluster = new HashMap<>(Map.of(
                "orchestrator",
                "KUBERNETES",
                "volumes",
                List.of(Map.of("name", "data", "sizeGi", 10, "retain", true))));
        body.put("cluster", cluster);

        Api.Response refused = book(s, body);

        assertThat(refused.status()).as(refused.body()).isEqualTo(400);
        assertThat(refused.body()).contains("cluster.volumes[0].retain");
        assertThat(writesOf(s.tenant())).isZero();
    }

    @Test
    void aVolumeNameEndingInAHyphenIsRefused() {
        Setup s = setup(1, 8, 8, false);
        Api.Response refused = book(s, volumes(s, 8, 10, 12, Map.of("name", "data-", "sizeGi", 10)));
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.body()).contains("cluster.volumes[0].name");
    }

    @Test
    void aMeasuredVolumeOverItsSizeIsMarkedOverItsLimitAuditedOnceAndClearedWhenBackUnder() {
        Setup s = setup(1, 8, 8, false);
        String id = book(s, volumes(s, 8, 10, 12, Map.of("name", "data", "sizeGi", 2)))
                .json()
                .get("id")
                .asString();
        StoredVolume volume = volumes.ofReservation(UUID.fromString(id)).getFirst();
        assertThat(volumes.measured(volume.id(), 10))
                .as("not made yet: nothing to measure")
                .isNull();
        volumes.created(UUID.fromString(id), "data", "/shared/allot/allot-" + id + "/data");

        assertThat(volumes.measured(volume.id(), 2L << 30).overLimit())
                .as("exactly its size")
                .isFalse();
        StoredVolume over = volumes.measured(volume.id(), (2L << 30) + 1);
        StoredVolume stillOver = volumes.measured(volume.id(), 3L << 30);

        assertThat(over.overLimit()).isTrue();
        assertThat(stillOver.overLimitSince()).isEqualTo(over.overLimitSince());
        JsonNode shown = api.get(volumePath(s, volume.id()), s.token()).json();
        assertThat(shown.get("overLimit").asBoolean()).isTrue();
        assertThat(shown.get("usedBytes").asLong()).isEqualTo(3L << 30);
        assertThat(audits("volume.over_limit", volume.id())).isEqualTo(1);

        assertThat(volumes.measured(volume.id(), 1L << 30).overLimit()).isFalse();
        assertThat(audits("volume.within_limit", volume.id())).isEqualTo(1);
    }

    private void endWithTeardown(UUID reservation, String location) {
        volumes.created(
                reservation, volumes.ofReservation(reservation).getFirst().name(), location);
        transactions.executeWithoutResult(status -> volumes.tornDown(reservation));
    }

    private long audits(String action, UUID volume) {
        return jdbc.sql("SELECT count(*) FROM audit_event WHERE action = ? AND object_id = ?")
                .params(action, volume.toString())
                .query(Long.class)
                .single();
    }

    private void setStorage(Setup s, int storageGi) {
        Api.Response put = api.put(
                "/api/v1/tenants/" + s.tenant() + "/quota",
                adminToken(),
                Map.of(
                        "storageGi",
                        storageGi,
                        "policies",
                        List.of(policy(s.gpuType(), guaranteeLeft(s.tenant(), s.gpuType(), 32), 32, false))));
        assertThat(put.status()).as(put.body()).isEqualTo(200);
    }

    @SafeVarargs
    private static Map<String, Object> volumes(
            Setup s, int gpus, int fromHour, int toHour, Map<String, Object>... volumes) {
        Map<String, Object> body = body(s, gpus, hour(fromHour), hour(toHour));
        body.put("cluster", Map.of("orchestrator", "SLURM", "volumes", List.of(volumes)));
        return body;
    }

    private static String volumePath(Setup s, UUID id) {
        return "/api/v1/tenants/" + s.tenant() + "/volumes/" + id;
    }

    private long volumeRows(String tenant) {
        return jdbc.sql("SELECT count(*) FROM volume v JOIN tenant t ON t.id = v.tenant_id WHERE t.slug = ?")
                .param(tenant)
                .query(Long.class)
                .single();
    }
}
