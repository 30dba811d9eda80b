package dev.allot.billing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.allot.billing.metering.BillableReservation;
import dev.allot.billing.metering.BillableReservationRepository;
import dev.allot.billing.metering.Metering;
import dev.allot.billing.metering.Split;
import dev.allot.quota.Quotas;
import dev.allot.support.Api;
import java.math.BigDecimal;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.support.TransactionTemplate;

/** Usage metered per reservation and hour, exactly once, following the reservation's real life. */
class MeteringTests extends BillingTest {

    private static final Duration MINUTE = Duration.ofMinutes(1);

    @Autowired
    TransactionTemplate transactions;

    private static Instant at(Instant base, int hours, int minutes) {
        return base.plus(Duration.ofHours(hours)).plus(Duration.ofMinutes(minutes));
    }

    private UUID id(Api.Response booked) {
        return UUID.fromString(booked.json().get("id").asString());
    }

    private BigDecimal quote(Api.Response booked) {
        return booked.json().get("quote").get("total").decimalValue();
    }

    private long meteredHours(UUID id) {
        return jdbc.sql("SELECT count(*) FROM metered_period WHERE reservation_id = ?")
                .param(id)
                .query(Long.class)
                .single();
    }

    @Test
    void aReservationThatRanAsBookedIsBilledExactlyItsQuoteHourByHour() {
        Instant t0 = newMonth();
        Setup s = setup(4, 8, 16, true);
        Instant start = at(t0, 1, 20);
        Instant end = at(t0, 4, 50);
        Api.Response booked = book(s, 24, start, end);
        UUID id = id(booked);

        CLOCK.set(end.plus(Duration.ofMinutes(3)));
        Metering.Run run = metering.meterDue(CLOCK.instant());

        assertThat(run.periods()).isGreaterThanOrEqualTo(4);
        assertThat(meteredHours(id)).isEqualTo(4);
        assertThat(receivable(s.tenant())).isEqualByComparingTo(quote(booked));
        long seconds = Duration.between(start, end).toSeconds();
        for (String rateClass : List.of("RESERVED", "BORROWED", "ON_DEMAND")) {
            assertThat(gpuSeconds(id, "USAGE", rateClass)).as(rateClass).isEqualTo(8 * seconds);
        }
        assertThat(unbalancedTransactions()).isZero();
    }

    @Test
    void nothingIsMeteredBeforeAnHourHasEndedAndSettled() {
        Instant t0 = newMonth();
        Setup s = setup(2, 16, 16, false);
        Api.Response booked = book(s, 8, at(t0, 1, 0), at(t0, 3, 0));
        UUID id = id(booked);

        CLOCK.set(at(t0, 2, 1));
        metering.meterDue(CLOCK.instant());
        assertThat(meteredHours(id)).isZero();

        CLOCK.set(at(t0, 2, 2));
        metering.meterDue(CLOCK.instant());
        assertThat(meteredHours(id)).isEqualTo(1);
        assertThat(receivable(s.tenant())).isEqualByComparingTo("16.0000");
    }

    @Test
    void meteringTwiceAndFromThreeWorkersAtOncePostsEachHourOnce() throws Exception {
        Instant t0 = newMonth();
        Setup s = setup(2, 16, 16, false);
        Api.Response booked = book(s, 16, at(t0, 1, 10), at(t0, 7, 40));
        UUID id = id(booked);
        CLOCK.set(at(t0, 8, 0));
        Instant now = CLOCK.instant();

        race(3, () -> metering.meterDue(now));
        metering.meterDue(now);

        assertThat(meteredHours(id)).isEqualTo(7);
        assertThat(transactionsOf(s.tenant())).isEqualTo(7);
        assertThat(receivable(s.tenant())).isEqualByComparingTo(quote(booked));
        assertThat(unbalancedTransactions()).isZero();
    }

    @Test
    void theReservationAndHourKeyAloneStopsASecondPostingOfAnHour() throws Exception {
        Instant t0 = newMonth();
        Setup s = setup(2, 16, 16, false);
        UUID id = id(book(s, 16, at(t0, 1, 0), at(t0, 3, 0)));
        CLOCK.set(at(t0, 4, 0));
        Instant now = CLOCK.instant();
        BillableReservation r = reservations.find(id).orElseThrow();
        List<Split> splits = reservations.splits(id);
        var cards = quotas.rateCards(s.gpuType());
        List<Boolean> posted = Collections.synchronizedList(new ArrayList<>());

        // no row lock taken: two workers (two replicas, or a retry racing its first attempt) post the same hour
        race(
                2,
                () -> posted.add(transactions.execute(
                        status -> metering.meterHour(r, at(t0, 1, 0), splits, List.of(), cards, now))));

        assertThat(posted).containsExactlyInAnyOrder(true, false);
        assertThat(transactionsOf(s.tenant())).isEqualTo(1);
        assertThat(receivable(s.tenant())).isEqualByComparingTo("32.0000");
    }

    @Autowired
    BillableReservationRepository reservations;

    @Autowired
    Quotas quotas;

    private static void race(int workers, Runnable work) throws Exception {
        CyclicBarrier barrier = new CyclicBarrier(workers);
        ExecutorService pool = Executors.newFixedThreadPool(workers);
        List<Future<?>> running = new ArrayList<>();
        for (int i = 0; i < workers; i++) {
            running.add(pool.submit(() -> {
                barrier.await();
                work.run();
                return null;
            }));
        }
        for (Future<?> worker : running) {
            worker.get();
        }
        pool.shutdown();
    }

    @Test
    void billingStopsWhereTheCancellationFreedTheNodes() {
        Instant t0 = newMonth();
        Setup s = setup(2, 16, 16, false);
        Instant start = at(t0, 1, 0);
        Api.Response booked = book(s, 16, start, at(t0, 5, 0));
        UUID id = id(booked);

        CLOCK.set(start.plus(Duration.ofMinutes(90)).plusSeconds(30));
        assertThat(api.post(path(s, "/reservations/" + id + "/cancel"), s.token(), Map.of())
                        .status())
                .isEqualTo(200);
        await().until(() -> jdbc.sql("SELECT stopped_at IS NOT NULL FROM billable_reservation WHERE reservation_id = ?")
                .param(id)
                .query(Boolean.class)
                .single());
        CLOCK.set(at(t0, 6, 0));
        metering.meterDue(CLOCK.instant());

        // the nodes are held, and billed, up to the next whole minute: 91 minutes
        assertThat(gpuSeconds(id, "USAGE", "RESERVED")).isEqualTo(16L * 91 * 60);
        assertThat(receivable(s.tenant())).isEqualByComparingTo("48.5333");
        assertThat(meteredHours(id)).isEqualTo(2);
    }

    @Test
    void cancellingBeforeTheStartCostsNothingByDefault() {
        Instant t0 = newMonth();
        Setup s = setup(2, 16, 16, false);
        Api.Response booked = book(s, 16, at(t0, 5, 0), at(t0, 9, 0));
        UUID id = id(booked);

        assertThat(api.post(path(s, "/reservations/" + id + "/cancel"), s.token(), Map.of())
                        .status())
                .isEqualTo(200);
        await().until(() -> jdbc.sql(
                        "SELECT cancelled_at IS NOT NULL FROM billable_reservation WHERE reservation_id = ?")
                .param(id)
                .query(Boolean.class)
                .single());
        CLOCK.set(at(t0, 10, 0));
        metering.meterDue(CLOCK.instant());

        assertThat(transactionsOf(s.tenant())).isZero();
        assertThat(receivable(s.tenant())).isZero();
    }

    @Test
    void theGpusOfANodeOutOfServiceAreCreditedOnAVisibleLine() {
        Instant t0 = newMonth();
        Setup s = setup(2, 16, 16, false);
        Instant start = at(t0, 1, 0);
        Api.Response booked = book(s, 16, start, at(t0, 4, 0));
        UUID id = id(booked);
        String node = booked.json().get("nodes").get(0).asString();

        CLOCK.set(at(t0, 2, 0));
        assertThat(api.post("/api/v1/nodes/" + node + "/quarantine", adminToken(), Map.of("reason", "XID 79"))
                        .status())
                .isEqualTo(200);
        await().until(() -> outages(node) == 1);
        CLOCK.set(at(t0, 2, 30));
        assertThat(api.post("/api/v1/nodes/" + node + "/release", adminToken(), Map.of("reason", "repaired"))
                        .status())
                .isEqualTo(200);
        await().until(() -> jdbc.sql("SELECT count(*) FROM node_outage WHERE hostname = ? AND NOT upper_inf(during)")
                        .param(node)
                        .query(Long.class)
                        .single()
                == 1);
        CLOCK.set(at(t0, 5, 0));
        metering.meterDue(CLOCK.instant());

        assertThat(gpuSeconds(id, "CREDIT", "RESERVED")).isEqualTo(8L * 30 * 60);
        assertThat(receivable(s.tenant())).isEqualByComparingTo(quote(booked).subtract(new BigDecimal("8.0000")));
        assertThat(unbalancedTransactions()).isZero();
    }

    private long outages(String node) {
        return jdbc.sql("SELECT count(*) FROM node_outage WHERE hostname = ?")
                .param(node)
                .query(Long.class)
                .single();
    }

    @Test
    void aRateChangeAppliesFromItsEffectiveDateAndNoHourMixesTwoPrices() {
        Instant t0 = newMonth();
        Setup s = setup(2, 16, 16, false);
        Api.Response booked = book(s, 16, at(t0, 22, 0), at(t0, 26, 30));
        UUID id = id(booked);
        LocalDate nextDay = LocalDate.ofInstant(t0, ZoneOffset.UTC).plusDays(1);
        assertThat(api.put(
                                "/api/v1/rate-cards/" + s.gpuType(),
                                adminToken(),
                                Map.of(
                                        "effectiveFrom",
                                        nextDay.toString(),
                                        "currency",
                                        "USD",
                                        "prices",
                                        Map.of("RESERVED", 3.00, "BORROWED", 2.00, "ON_DEMAND", 5.00)))
                        .status())
                .isEqualTo(200);

        CLOCK.set(at(t0, 27, 0));
        metering.meterDue(CLOCK.instant());

        // 2 hours at 2.00 and 2.5 hours at 3.00, for 16 GPUs
        assertThat(receivable(s.tenant())).isEqualByComparingTo("184.0000");
        assertThat(jdbc.sql("""
				SELECT count(*) FROM (SELECT transaction_id FROM ledger_entry WHERE reservation_id = ? AND line = 'USAGE'
				                      GROUP BY transaction_id HAVING count(DISTINCT unit_price) > 1) x""").param(id).query(Long.class).single()).isZero();
        assertThat(jdbc.sql("""
				SELECT count(*) FROM ledger_entry WHERE reservation_id = ? AND line = 'USAGE' AND unit_price = 3.00
				  AND period_start < ?""")
                        .params(id, Timestamp.from(at(t0, 24, 0)))
                        .query(Long.class)
                        .single())
                .isZero();
    }

    @Test
    void aFailedProvisioningCostsNothingEvenAfterHoursWereMetered() {
        Instant t0 = newMonth();
        Setup s = setup(2, 16, 16, false);
        Api.Response booked = book(s, 16, at(t0, 1, 0), at(t0, 6, 0));
        UUID id = id(booked);
        CLOCK.set(at(t0, 3, 10));
        metering.meterDue(CLOCK.instant());
        assertThat(receivable(s.tenant())).isEqualByComparingTo("64.0000");

        lifecycle.failed(id, CLOCK.instant(), "driver gave up after 5 attempts");
        lifecycle.failed(id, CLOCK.instant(), "redelivered event");
        CLOCK.set(at(t0, 7, 0));
        metering.meterDue(CLOCK.instant());

        assertThat(receivable(s.tenant())).isZero();
        assertThat(jdbc.sql("""
				SELECT count(*) FROM ledger_transaction x JOIN tenant t ON t.id = x.tenant_id
				WHERE t.slug = ? AND x.kind = 'REVERSAL' AND x.reason LIKE 'provisioning failed%' AND x.actor = 'system'""").param(s.tenant()).query(Long.class).single()).isEqualTo(2);
        assertThat(unbalancedTransactions()).isZero();
    }

    @Test
    void aClusterReadyLateThroughAllotsFaultIsNotCharged() {
        Instant t0 = newMonth();
        Setup s = setup(2, 16, 16, false);
        Instant start = at(t0, 1, 0);
        Api.Response booked = book(s, 8, start, at(t0, 3, 0));
        UUID id = id(booked);
        lifecycle.clusterReady(id, start.plus(Duration.ofMinutes(25)).plusSeconds(5));

        CLOCK.set(at(t0, 4, 0));
        metering.meterDue(CLOCK.instant());

        assertThat(gpuSeconds(id, "USAGE", "RESERVED")).isEqualTo(8L * 94 * 60);
        assertThat(MINUTE).isEqualTo(Duration.ofSeconds(60));
    }
}
