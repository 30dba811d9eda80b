package dev.allot.billing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.allot.billing.metering.LateOutageCredits;
import dev.allot.provisioning.NodeDegradationEnded;
import dev.allot.provisioning.NodeDegraded;
import dev.allot.support.Api;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Node-hours a failed node sat DEGRADED under a reservation's cluster are credited at once, without a quarantine,
 * and never twice (redelivered events, reruns of metering and of the correction).
 */
class DegradedHoursCreditTests extends BillingTest {

    @Autowired
    LateOutageCredits lateCredits;

    @Autowired
    TransactionTemplate transactions;

    @Autowired
    ApplicationEventPublisher events;

    /** Publishes as provisioning's remediation does: in a transaction, through the event publication registry. */
    private void publish(Object event) {
        transactions.executeWithoutResult(status -> events.publishEvent(event));
    }

    private long degradedSpans(UUID id) {
        return jdbc.sql("SELECT count(*) FROM node_degraded WHERE reservation_id = ?")
                .param(id)
                .query(Long.class)
                .single();
    }

    private long pendingEvents(UUID id) {
        return jdbc.sql("SELECT count(*) FROM event_publication WHERE completion_date IS NULL "
                        + "AND event_type LIKE 'dev.allot.provisioning.NodeDegrad%' AND serialized_event LIKE ?")
                .param("%" + id + "%")
                .query(Long.class)
                .single();
    }

    private int correctAgain(UUID id, Instant since) {
        Integer corrected = transactions.execute(status -> lateCredits.correct(id, since));
        return corrected == null ? -1 : corrected;
    }

    @Test
    void degradedNodeHoursAreCreditedWithoutAQuarantineAndNeverTwice() {
        Instant t0 = newMonth();
        Setup s = setup(2, 16, 16, false);
        // 16 GPUs from 01:00 to 05:00 at 2.00: 128.00
        Api.Response booked = book(s, 16, t0.plus(Duration.ofHours(1)), t0.plus(Duration.ofHours(5)));
        UUID id = UUID.fromString(booked.json().get("id").asString());
        String node = booked.json().get("nodes").get(0).asString();
        String other = booked.json().get("nodes").get(1).asString();

        // a check failed on the node at 02:00; it was replaced at 03:30: 8 GPUs for 1.5 hours are not charged
        publish(new NodeDegraded(id, s.tenant(), node, t0.plus(Duration.ofHours(2)), "XID 79"));
        await().until(() -> degradedSpans(id) == 1);
        publish(new NodeDegradationEnded(id, node, t0.plus(Duration.ofMinutes(210)), "replaced"));
        await().until(() ->
                jdbc.sql("SELECT count(*) FROM node_degraded WHERE reservation_id = ? AND NOT upper_inf(during)")
                                .param(id)
                                .query(Long.class)
                                .single()
                        == 1);
        CLOCK.set(t0.plus(Duration.ofHours(6)));
        metering.meterDue(CLOCK.instant());

        assertThat(gpuSeconds(id, "CREDIT", "RESERVED")).isEqualTo(8L * 90 * 60);
        assertThat(receivable(s.tenant())).isEqualByComparingTo("104");

        // redelivered events, another metering run and a correction change nothing
        long postings = transactionsOf(s.tenant());
        publish(new NodeDegraded(id, s.tenant(), node, t0.plus(Duration.ofHours(2)), "XID 79"));
        publish(new NodeDegradationEnded(id, node, t0.plus(Duration.ofMinutes(210)), "replaced"));
        await().until(() -> pendingEvents(id) == 0);
        assertThat(degradedSpans(id)).isEqualTo(1);
        assertThat(correctAgain(id, t0)).isZero();
        CLOCK.set(t0.plus(Duration.ofHours(7)));
        metering.meterDue(CLOCK.instant());
        assertThat(transactionsOf(s.tenant())).isEqualTo(postings);
        assertThat(receivable(s.tenant())).isEqualByComparingTo("104");

        // the other node failed at 04:00 and is still failed, reported after the hours were metered: credited
        // until the reservation's end (8 GPUs for one hour), once
        publish(new NodeDegraded(id, s.tenant(), other, t0.plus(Duration.ofHours(4)), "DCGM health event"));
        await().until(() -> gpuSeconds(id, "CREDIT", "RESERVED") == 8L * 150 * 60);
        assertThat(receivable(s.tenant())).isEqualByComparingTo("88");
        publish(new NodeDegraded(id, s.tenant(), other, t0.plus(Duration.ofHours(4)), "DCGM health event"));
        await().until(() -> pendingEvents(id) == 0);
        assertThat(correctAgain(id, t0)).isZero();
        assertThat(receivable(s.tenant())).isEqualByComparingTo("88");
        assertThat(unbalancedTransactions()).isZero();
    }
}
