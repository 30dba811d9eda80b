package dev.allot.billing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.billing.metering.StorageMetering;
import dev.allot.support.Api;
import java.math.BigDecimal;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Storage billing against PostgreSQL: each volume per UTC day it existed, at the rate card's storage line per
 * GiB-month (730 hours), posted exactly once however often the metering runs.
 */
class StorageBillingTests extends BillingTest {

    @Autowired
    StorageMetering storage;

    @Test
    void aVolumeIsBilledPerGiBMonthForEachDayItExistedExactlyOnce() {
        Instant start = newMonth();
        Setup s = setup(1, 8, 8, false);
        Api.Response card = storageLine(s);
        assertThat(card.json().get("current").get("storagePerGiMonth").decimalValue())
                .isEqualByComparingTo("7.30");
        Map<String, Object> body = body(s, 8, start.plus(Duration.ofHours(1)), start.plus(Duration.ofHours(3)));
        body.put(
                "cluster",
                Map.of(
                        "orchestrator",
                        "SLURM",
                        "volumes",
                        List.of(
                                Map.of("name", "kept", "sizeGi", 10, "retain", true),
                                Map.of("name", "scratch", "sizeGi", 20))));
        Api.Response booked = api.post("/api/v1/tenants/" + s.tenant() + "/reservations", s.token(), body);
        assertThat(booked.status()).as(booked.body()).isEqualTo(201);
        UUID reservation = UUID.fromString(booked.json().get("id").asString());
        // made at 01:00; scratch removed at teardown (03:00), kept retained until deleted the next day at 12:00
        made(reservation, "kept", start.plus(Duration.ofHours(1)), start.plus(Duration.ofHours(36)));
        made(reservation, "scratch", start.plus(Duration.ofHours(1)), start.plus(Duration.ofHours(3)));
        CLOCK.set(start.plus(Duration.ofDays(3)));

        int posted = storage.meterDue(CLOCK.instant());
        int again = storage.meterDue(CLOCK.instant());

        assertThat(posted).isEqualTo(3);
        assertThat(again).isZero();
        assertThat(storagePostings(s.tenant())).isEqualTo(3);
        // kept: 10 GiB x 23 h + 10 GiB x 12 h; scratch: 20 GiB x 2 h, at 0.01 per GiB-hour
        assertThat(storageOwed(s.tenant()))
                .isEqualByComparingTo(
                        new BigDecimal("2.30").add(new BigDecimal("1.20")).add(new BigDecimal("0.40")));
        assertThat(jdbc.sql("SELECT count(*) FROM ledger_transaction x JOIN tenant t ON t.id = x.tenant_id "
                                + "WHERE t.slug = ? AND x.kind = 'STORAGE' AND x.posting_key LIKE 'storage:%'")
                        .param(s.tenant())
                        .query(Long.class)
                        .single())
                .isEqualTo(3);
    }

    @Test
    void aVolumeStillHeldIsBilledForTheDaysThatEndedOnly() {
        Instant start = newMonth();
        Setup s = setup(1, 8, 8, false);
        storageLine(s);
        Map<String, Object> body = body(s, 8, start.plus(Duration.ofHours(1)), start.plus(Duration.ofHours(3)));
        body.put(
                "cluster",
                Map.of(
                        "orchestrator",
                        "SLURM",
                        "volumes",
                        List.of(Map.of("name", "kept", "sizeGi", 1, "retain", true))));
        UUID reservation = UUID.fromString(api.post("/api/v1/tenants/" + s.tenant() + "/reservations", s.token(), body)
                .json()
                .get("id")
                .asString());
        made(reservation, "kept", start, null);

        CLOCK.set(start.plus(Duration.ofDays(2)).plus(Duration.ofHours(5)));
        assertThat(storage.meterDue(CLOCK.instant())).isEqualTo(2);
        assertThat(storageOwed(s.tenant())).isEqualByComparingTo("0.48");

        CLOCK.set(start.plus(Duration.ofDays(3)).plus(Duration.ofHours(1)));
        assertThat(storage.meterDue(CLOCK.instant())).isEqualTo(1);
        assertThat(storageOwed(s.tenant())).isEqualByComparingTo("0.72");
    }

    /** The standard card with a storage line of 7.30 per GiB-month: 0.01 per GiB-hour. */
    private Api.Response storageLine(Setup s) {
        Api.Response card = api.put(
                "/api/v1/rate-cards/" + s.gpuType(),
                adminToken(),
                Map.of(
                        "effectiveFrom",
                        "2020-01-01",
                        "currency",
                        "USD",
                        "prices",
                        Map.of("RESERVED", 2.00, "BORROWED", 1.50, "ON_DEMAND", 4.00),
                        "storagePerGiMonth",
                        7.30));
        assertThat(card.status()).as(card.body()).isEqualTo(200);
        return card;
    }

    private void made(UUID reservation, String name, Instant createdAt, Instant deletedAt) {
        jdbc.sql("""
				UPDATE volume SET status = CASE WHEN CAST(? AS timestamptz) IS NULL THEN 'RETAINED' ELSE 'DELETED' END, location = '/v',
				    created_at = ?, deleted_at = ? WHERE reservation_id = ? AND name = ?""")
                .params(
                        deletedAt == null ? null : Timestamp.from(deletedAt),
                        Timestamp.from(createdAt),
                        deletedAt == null ? null : Timestamp.from(deletedAt),
                        reservation,
                        name)
                .update();
    }

    private long storagePostings(String tenant) {
        return jdbc.sql("SELECT count(*) FROM ledger_transaction x JOIN tenant t ON t.id = x.tenant_id "
                        + "WHERE t.slug = ? AND x.kind = 'STORAGE'")
                .param(tenant)
                .query(Long.class)
                .single();
    }

    private BigDecimal storageOwed(String tenant) {
        return jdbc.sql("""
				SELECT coalesce(sum(e.amount), 0) FROM ledger_entry e JOIN ledger_account a ON a.id = e.account_id
				JOIN tenant t ON t.id = a.tenant_id WHERE t.slug = ? AND e.line = 'STORAGE'""").param(tenant).query(BigDecimal.class).single();
    }
}
