package dev.allot.billing.metering;

import dev.allot.billing.config.BillingProperties;
import dev.allot.billing.ledger.Charge;
import dev.allot.billing.ledger.Ledger;
import dev.allot.billing.ledger.Posting;
import dev.allot.quota.Quotas;
import dev.allot.quota.pricing.RateCard;
import dev.allot.shared.TimeWindow;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Meters every billable reservation per hour (UTC; partial hours at the ends), once an hour's billable part
 * has ended and settled. Exactly once whatever the retries, restarts or replicas: a worker skips reservations
 * another holds, and each hour is claimed by a unique (reservation, hour) row inserted in the transaction that
 * posts its usage, so a second claim of the same hour, concurrent or later, inserts and posts nothing.
 */
@Service
public class Metering {

    private static final Logger log = LoggerFactory.getLogger(Metering.class);

    private static final int BATCH = 200;

    /** What a run did. */
    public record Run(int reservations, int periods) {}

    private final BillableReservationRepository reservations;

    private final NodeOutages outages;

    private final Quotas quotas;

    private final Ledger ledger;

    private final BillingProperties properties;

    private final TransactionTemplate transactions;

    Metering(
            BillableReservationRepository reservations,
            NodeOutages outages,
            Quotas quotas,
            Ledger ledger,
            BillingProperties properties,
            TransactionTemplate transactions) {
        this.reservations = reservations;
        this.outages = outages;
        this.quotas = quotas;
        this.ledger = ledger;
        this.properties = properties;
        this.transactions = transactions;
    }

    /** Meters every hour due at {@code now}; one transaction per reservation. */
    public Run meterDue(Instant now) {
        Instant horizon = now.minus(properties.settle());
        int touched = 0;
        int periods = 0;
        List<UUID> due = reservations.due(horizon, properties.awaitClusterReady(), BATCH);
        for (int round = 0; !due.isEmpty() && round < 1000; round++) {
            int before = periods;
            for (UUID id : due) {
                try {
                    Integer metered = transactions.execute(status -> meter(id, now, true));
                    periods += metered == null ? 0 : metered;
                } catch (RuntimeException ex) {
                    // one reservation that cannot be metered (say, no rate card) must not stop the others
                    log.error("Metering reservation {} failed; retried on the next run", id, ex);
                }
                touched++;
            }
            if (periods == before) {
                // what is left is locked by another worker, or not yet due
                break;
            }
            due = reservations.due(horizon, properties.awaitClusterReady(), BATCH);
        }
        if (periods > 0) {
            log.info("Metered {} hours of {} reservations", periods, touched);
        }
        return new Run(touched, periods);
    }

    /** Meters one reservation's due hours in the caller's transaction; returns the hours this call metered. */
    int meter(UUID reservationId, Instant now, boolean skipLocked) {
        Optional<BillableReservation> locked =
                skipLocked ? reservations.lockForMetering(reservationId) : reservations.find(reservationId);
        if (locked.isEmpty()) {
            return 0;
        }
        BillableReservation r = locked.get();
        List<Instant> hours = r.dueHours(now.minus(properties.settle()), properties.awaitClusterReady());
        if (hours.isEmpty()) {
            return 0;
        }
        List<Split> splits = reservations.splits(reservationId);
        List<Outage> down = outages.of(r, hours.getFirst(), hours.getLast().plus(Duration.ofHours(1)));
        List<RateCard> cards = quotas.rateCards(r.gpuType());
        int metered = 0;
        for (Instant hour : hours) {
            if (meterHour(r, hour, splits, down, cards, now)) {
                metered++;
            }
        }
        reservations.meteredUntil(reservationId, hours.getLast().plus(Duration.ofHours(1)));
        return metered;
    }

    /** Claims and posts one hour; false when it had been metered already. */
    public boolean meterHour(
            BillableReservation r,
            Instant hour,
            List<Split> splits,
            List<Outage> down,
            List<RateCard> cards,
            Instant now) {
        TimeWindow billed = PeriodCharges.billed(r, hour);
        if (!reservations.claim(r.reservationId(), hour, billed, now)) {
            return false;
        }
        if (billed == null) {
            return true;
        }
        RateCard card = cardAt(cards, hour)
                .orElseThrow(
                        () -> new IllegalStateException("GPU type " + r.gpuType() + " has no rate card at " + hour));
        List<Charge> charges = PeriodCharges.of(r, splits, down, card, hour);
        if (charges.isEmpty()) {
            return true;
        }
        YearMonth month = YearMonth.from(hour.atOffset(ZoneOffset.UTC));
        Posting posting = new Posting(
                r.tenantId(),
                Posting.Kind.USAGE,
                "usage:" + r.reservationId() + ":" + hour,
                month,
                "Usage of reservation " + r.reservationId() + " (" + r.gpus() + " " + r.gpuType() + ", project "
                        + r.project() + ") from " + billed.start() + " to " + billed.end(),
                charges);
        ledger.post(posting).ifPresent(tx -> reservations.posted(r.reservationId(), hour, tx));
        return true;
    }

    static Optional<RateCard> cardAt(List<RateCard> cards, Instant hour) {
        LocalDate day = LocalDate.ofInstant(hour, ZoneOffset.UTC);
        return cards.stream()
                .filter(card -> !card.effectiveFrom().isAfter(day))
                .max(Comparator.comparing(RateCard::effectiveFrom));
    }
}
