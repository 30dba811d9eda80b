package dev.allot.billing.metering;

import dev.allot.billing.config.BillingProperties;
import dev.allot.billing.ledger.Account;
import dev.allot.billing.ledger.Charge;
import dev.allot.billing.ledger.Ledger;
import dev.allot.billing.ledger.Line;
import dev.allot.billing.ledger.Posting;
import dev.allot.booking.volumes.StoredVolume;
import dev.allot.booking.volumes.StoredVolumes;
import dev.allot.quota.Quotas;
import dev.allot.quota.pricing.RateCard;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Bills volumes per UTC day, once the day has ended and settled: a volume's GiB times the part of the day it
 * existed (from when the driver made it until its teardown, or, retained, until the tenant deleted it), at the
 * storage line of the rate card in effect that day for the GPU type of the reservation that booked it. Exactly
 * once: each day is one posting keyed {@code storage:<volume>:<day>} (the ledger posts a key once), and a volume's
 * progress row is locked with {@code SKIP LOCKED}, so replicas share the work without posting twice.
 */
@Service
public class StorageMetering {

    private static final Logger log = LoggerFactory.getLogger(StorageMetering.class);

    /** How far back volumes are looked for: a volume removed earlier than this was billed long ago. */
    private static final Duration LOOK_BACK = Duration.ofDays(400);

    private final StoredVolumes volumes;

    private final Quotas quotas;

    private final Ledger ledger;

    private final BillingProperties properties;

    private final TransactionTemplate transactions;

    private final JdbcClient jdbc;

    StorageMetering(
            StoredVolumes volumes,
            Quotas quotas,
            Ledger ledger,
            BillingProperties properties,
            TransactionTemplate transactions,
            JdbcClient jdbc) {
        this.volumes = volumes;
        this.quotas = quotas;
        this.ledger = ledger;
        this.properties = properties;
        this.transactions = transactions;
        this.jdbc = jdbc;
    }

    /** Meters every day due at {@code now}; answers the days posted. */
    public int meterDue(Instant now) {
        LocalDate until = LocalDate.ofInstant(now.minus(properties.settle()), ZoneOffset.UTC);
        Instant end = until.atStartOfDay().toInstant(ZoneOffset.UTC);
        int posted = 0;
        for (StoredVolume volume : volumes.existedDuring(end.minus(LOOK_BACK), end)) {
            try {
                Integer days = transactions.execute(status -> meter(volume, until));
                posted += days == null ? 0 : days;
            } catch (RuntimeException ex) {
                log.error("Metering the storage of volume {} failed; retried on the next run", volume.id(), ex);
            }
        }
        return posted;
    }

    private int meter(StoredVolume volume, LocalDate until) {
        jdbc.sql("INSERT INTO storage_metering (volume_id, metered_until) VALUES (?, ?) ON CONFLICT DO NOTHING")
                .params(volume.id(), day(Objects.requireNonNull(volume.createdAt(), "a stored volume was created")))
                .update();
        Optional<LocalDate> from = jdbc.sql(
                        "SELECT metered_until FROM storage_metering WHERE volume_id = ? FOR UPDATE SKIP LOCKED")
                .param(volume.id())
                .query(LocalDate.class)
                .optional();
        if (from.isEmpty()) {
            return 0;
        }
        LocalDate last = volume.deletedAt() == null
                ? until
                : earlier(until, day(volume.deletedAt()).plusDays(1));
        List<RateCard> cards = quotas.rateCards(volume.gpuType());
        int posted = 0;
        for (LocalDate day = from.get(); day.isBefore(last); day = day.plusDays(1)) {
            if (post(volume, day, cards)) {
                posted++;
            }
        }
        if (last.isAfter(from.get())) {
            jdbc.sql("UPDATE storage_metering SET metered_until = ? WHERE volume_id = ?")
                    .params(last, volume.id())
                    .update();
        }
        return posted;
    }

    private boolean post(StoredVolume volume, LocalDate day, List<RateCard> cards) {
        Instant start = day.atStartOfDay().toInstant(ZoneOffset.UTC);
        Instant end = start.plus(Duration.ofDays(1));
        Instant created = Objects.requireNonNull(volume.createdAt(), "a stored volume was created");
        Instant held = created.isAfter(start) ? created : start;
        Instant released = volume.deletedAt() != null && volume.deletedAt().isBefore(end) ? volume.deletedAt() : end;
        long seconds = Duration.between(held, released).toSeconds();
        Optional<RateCard> card = Metering.cardAt(cards, start);
        if (seconds <= 0 || card.isEmpty()) {
            return false;
        }
        BigDecimal amount = card.get().storageAmount(volume.sizeGi(), seconds);
        if (amount.signum() == 0) {
            return false;
        }
        Charge charge = new Charge(
                Line.STORAGE,
                Account.STORAGE,
                card.get().currency(),
                amount,
                volume.reservationId(),
                null,
                volume.gpuType(),
                null,
                start,
                0,
                card.get().storagePerGiMonth());
        return ledger.post(new Posting(
                        volume.tenantId(),
                        Posting.Kind.STORAGE,
                        "storage:" + volume.id() + ":" + day,
                        YearMonth.from(day),
                        "Storage of volume " + volume.name() + " (" + volume.sizeGi() + " GiB, reservation "
                                + volume.reservationId() + ") from " + held + " to " + released,
                        List.of(charge)))
                .isPresent();
    }

    private static LocalDate day(Instant instant) {
        return LocalDate.ofInstant(instant, ZoneOffset.UTC);
    }

    private static LocalDate earlier(LocalDate a, LocalDate b) {
        return a.isBefore(b) ? a : b;
    }
}
