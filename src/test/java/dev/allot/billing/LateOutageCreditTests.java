package dev.allot.billing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.allot.billing.metering.LateOutageCredits;
import dev.allot.inventory.NodeState;
import dev.allot.inventory.events.NodeStateChanged;
import dev.allot.support.Api;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.transaction.support.TransactionTemplate;

/** A node event that arrives after the hours it concerns were metered still credits (or charges back) them. */
class LateOutageCreditTests extends BillingTest {

    @Autowired
    LateOutageCredits lateCredits;

    @Autowired
    TransactionTemplate transactions;

    @Autowired
    ApplicationEventPublisher events;

    /** Publishes as inventory does (in a transaction, through the event publication registry), only late. */
    private void deliverLate(NodeStateChanged event) {
        transactions.executeWithoutResult(status -> events.publishEvent(event));
    }

    @Test
    void aQuarantineReportedAfterMeteringIsCreditedAndALateReleaseChargesBackTheExcess() {
        Instant t0 = newMonth();
        Setup s = setup(2, 16, 16, false);
        // 16 GPUs from 01:00 to 04:00 at 2.00: 96.00
        Api.Response booked = book(s, 16, t0.plus(Duration.ofHours(1)), t0.plus(Duration.ofHours(4)));
        UUID id = UUID.fromString(booked.json().get("id").asString());
        String node = booked.json().get("nodes").get(0).asString();
        CLOCK.set(t0.plus(Duration.ofHours(5)));
        metering.meterDue(CLOCK.instant());
        assertThat(receivable(s.tenant())).isEqualByComparingTo("96");

        // the node went out of service at 02:00, but the event is only delivered now (say, redelivered from the
        // event publication registry after a crash): 8 GPUs for 2 hours
        deliverLate(new NodeStateChanged(
                node, s.pool(), NodeState.AVAILABLE, NodeState.QUARANTINED, "XID 79", t0.plus(Duration.ofHours(2))));
        await().until(() -> gpuSeconds(id, "CREDIT", "RESERVED") == 8L * 2 * 3600);
        assertThat(receivable(s.tenant())).isEqualByComparingTo("64");

        // it was back at 02:30: the credit shrinks to 8 GPUs for 30 minutes
        deliverLate(new NodeStateChanged(
                node,
                s.pool(),
                NodeState.QUARANTINED,
                NodeState.AVAILABLE,
                "repaired",
                t0.plus(Duration.ofMinutes(150))));
        await().until(() -> gpuSeconds(id, "CREDIT", "RESERVED") == 8L * 30 * 60);
        assertThat(receivable(s.tenant())).isEqualByComparingTo(new BigDecimal("88"));

        // a redelivered event, or metering again, changes nothing
        long postings = transactionsOf(s.tenant());
        Integer corrected = transactions.execute(status -> lateCredits.correct(node, t0.plus(Duration.ofHours(2))));
        assertThat(corrected).isZero();
        CLOCK.set(t0.plus(Duration.ofHours(6)));
        metering.meterDue(CLOCK.instant());
        assertThat(transactionsOf(s.tenant())).isEqualTo(postings);
        assertThat(receivable(s.tenant())).isEqualByComparingTo("88");
        assertThat(unbalancedTransactions()).isZero();
    }
}
