package dev.allot.billing.metering;

import dev.allot.billing.ledger.Account;
import dev.allot.billing.ledger.Charge;
import dev.allot.billing.ledger.Ledger;
import dev.allot.billing.ledger.Line;
import dev.allot.billing.ledger.Posting;
import dev.allot.booking.ReservationLifecycle;
import dev.allot.quota.Quotas;
import dev.allot.quota.pricing.RateCard;
import dev.allot.quota.pricing.RateClass;
import java.math.BigDecimal;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Node events that arrive after the hours they concern were metered: each such hour's outage credit is
 * recomputed from the outages now known and the difference from what was credited is posted (a further
 * credit, or a charge back when a release arrived late after an open-ended outage was credited). Under the
 * reservation's row lock, so metering and corrections of one reservation never interleave; keyed by the
 * hour's count of postings, so a redelivered event posts nothing more.
 */
@Component
public class LateOutageCredits {

    private static final Duration HOUR = Duration.ofHours(1);

    private record Credited(long gpuSeconds, BigDecimal amount) {}

    private final JdbcClient jdbc;

    private final BillableReservationRepository reservations;

    private final NodeOutages outages;

    private final Quotas quotas;

    private final Ledger ledger;

    private final ReservationLifecycle holdings;

    LateOutageCredits(
            JdbcClient jdbc,
            BillableReservationRepository reservations,
            NodeOutages outages,
            Quotas quotas,
            Ledger ledger,
            ReservationLifecycle holdings) {
        this.holdings = holdings;
        this.jdbc = jdbc;
        this.reservations = reservations;
        this.outages = outages;
        this.quotas = quotas;
        this.ledger = ledger;
    }

    /** Corrects the metered hours from {@code since} on of every reservation holding the node. */
    @Transactional(propagation = Propagation.MANDATORY)
    public int correct(String hostname, Instant since) {
        // Not filtered on metered_until: a metering run may be posting an hour right now; the lock below waits
        // for it, and its hours are then seen.
        // who held the node is the allocations' to say (a replacement holds it from when it joined)
        List<UUID> held = holdings.holdersOf(hostname, since);
        int corrected = 0;
        for (UUID id : held) {
            corrected += correct(id, since);
        }
        return corrected;
    }

    /** Corrects the reservation's metered hours from {@code since} on; answers how many changed. */
    @Transactional(propagation = Propagation.MANDATORY)
    public int correct(UUID id, Instant since) {
        BillableReservation r = reservations.lock(id).orElse(null);
        if (r == null) {
            return 0;
        }
        List<Instant> hours =
                jdbc.sql("""
				SELECT hour FROM metered_period WHERE reservation_id = ? AND hour > ? AND billed IS NOT NULL
				ORDER BY hour""").params(id, Timestamp.from(since.minus(HOUR))).query(Timestamp.class).list().stream()
                        .map(Timestamp::toInstant)
                        .toList();
        if (hours.isEmpty() || r.failedAt() != null) {
            return 0;
        }
        List<Split> splits = reservations.splits(id);
        List<Outage> down = outages.of(r, hours.getFirst(), hours.getLast().plus(HOUR));
        List<RateCard> cards = quotas.rateCards(r.gpuType());
        int corrected = 0;
        for (Instant hour : hours) {
            if (correctHour(r, hour, splits, down, cards)) {
                corrected++;
            }
        }
        return corrected;
    }

    private boolean correctHour(
            BillableReservation r, Instant hour, List<Split> splits, List<Outage> down, List<RateCard> cards) {
        RateCard card = Metering.cardAt(cards, hour).orElseThrow();
        Map<RateClass, Credited> due = new EnumMap<>(RateClass.class);
        for (Charge charge : PeriodCharges.of(r, splits, down, card, hour)) {
            if (charge.line() == Line.CREDIT && charge.rateClass() != null) {
                due.put(charge.rateClass(), new Credited(charge.gpuSeconds(), charge.amount()));
            }
        }
        Map<RateClass, Credited> posted = credited(r.reservationId(), hour);
        List<Charge> corrections = new ArrayList<>();
        for (RateClass rateClass : RateClass.values()) {
            Credited want = due.getOrDefault(rateClass, new Credited(0, BigDecimal.ZERO));
            Credited have = posted.getOrDefault(rateClass, new Credited(0, BigDecimal.ZERO));
            long seconds = want.gpuSeconds() - have.gpuSeconds();
            BigDecimal amount = want.amount().subtract(have.amount());
            if (seconds != 0 || amount.signum() != 0) {
                corrections.add(new Charge(
                        Line.CREDIT,
                        Account.OUTAGE_CREDITS,
                        card.currency(),
                        amount,
                        r.reservationId(),
                        r.project(),
                        r.gpuType(),
                        rateClass,
                        hour,
                        seconds,
                        card.prices().get(rateClass)));
            }
        }
        if (corrections.isEmpty()) {
            return false;
        }
        long earlier = jdbc.sql("""
				SELECT count(DISTINCT transaction_id) FROM ledger_entry WHERE reservation_id = ? AND period_start = ?""")
                .params(r.reservationId(), Timestamp.from(hour))
                .query(Long.class)
                .single();
        ledger.post(new Posting(
                r.tenantId(),
                Posting.Kind.USAGE,
                "outage-credit:" + r.reservationId() + ":" + hour + ":" + earlier,
                YearMonth.from(hour.atOffset(ZoneOffset.UTC)),
                "Outage credit corrected for reservation " + r.reservationId() + ", hour " + hour
                        + ": a node event arrived after the hour was metered",
                corrections));
        return true;
    }

    /** What the tenant was credited for the hour so far, per class (net of reversals and corrections). */
    private Map<RateClass, Credited> credited(UUID reservationId, Instant hour) {
        Map<RateClass, Credited> credited = new EnumMap<>(RateClass.class);
        jdbc.sql("""
				SELECT e.rate_class, coalesce(sum(e.gpu_seconds), 0) AS seconds, coalesce(sum(e.amount), 0) AS amount
				FROM ledger_entry e JOIN ledger_account a ON a.id = e.account_id
				WHERE e.reservation_id = ? AND e.period_start = ? AND e.line = 'CREDIT' AND a.kind = 'RECEIVABLE'
				GROUP BY e.rate_class""")
                .params(reservationId, Timestamp.from(hour))
                .query((rs, n) -> credited.put(
                        RateClass.valueOf(rs.getString(1)),
                        new Credited(rs.getLong("seconds"), rs.getBigDecimal("amount"))))
                .list();
        return credited;
    }
}
