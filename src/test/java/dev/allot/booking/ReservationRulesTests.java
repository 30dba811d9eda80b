package dev.allot.booking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.allot.booking.spec.ClusterSpec;
import dev.allot.quota.QuotaDecision;
import dev.allot.shared.AllotException;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The reservation's own rules, against a clock the test sets. */
class ReservationRulesTests {

    private static final Instant START = Instant.parse("2027-01-05T09:00:00Z");

    private static final Instant END = Instant.parse("2027-01-05T12:00:00Z");

    private final Reservation reservation = new Reservation(
            UUID.randomUUID(),
            "acme",
            "training",
            "pool",
            "H100",
            16,
            START,
            END,
            null,
            false,
            ClusterSpec.kubernetes(),
            new QuotaDecision("H100", "USD", BigDecimal.ZERO, List.of(), false, List.of()),
            List.of("n1", "n2"),
            0,
            START.minusSeconds(3600),
            Map.of());

    @Test
    void aReservationProvisioningNeverTouchedIsConfirmedUntilItsWindowHasPassed() {
        assertThat(reservation.status(START.minusSeconds(1))).isEqualTo(ReservationStatus.CONFIRMED);
        assertThat(reservation.status(START)).isEqualTo(ReservationStatus.CONFIRMED);
        assertThat(reservation.status(END)).isEqualTo(ReservationStatus.COMPLETED);
    }

    /** The reservation as read while its cluster says {@code stage} (ReservationStages), since {@code at}. */
    private static Reservation read(Reservation r, ReservationStatus stage, Instant at) {
        return new Reservation(
                r.id(),
                r.tenant(),
                r.project(),
                r.pool(),
                r.gpuType(),
                r.gpus(),
                r.startsAt(),
                r.endsAt(),
                r.cancelledAt(),
                r.preemptible(),
                r.cluster(),
                r.quote(),
                r.nodes(),
                r.version(),
                r.createdAt(),
                new Reservation.Progress(stage, null, at),
                r.labels());
    }

    @Test
    void theStageReadFromTheClusterWinsOverTheClockAndChangesNoVersion() {
        Reservation active = read(reservation, ReservationStatus.ACTIVE, START.minusSeconds(60));
        assertThat(active.status(END.plusSeconds(3600))).isEqualTo(ReservationStatus.ACTIVE);
        assertThat(active.etag()).isEqualTo(reservation.etag());
        assertThat(read(reservation, ReservationStatus.COMPLETED, END).status(START))
                .isEqualTo(ReservationStatus.COMPLETED);
    }

    @Test
    void onlyAPreemptibleReservationIsPreemptedAndPreemptedIsFinal() {
        assertThatThrownBy(() -> reservation.markPreempted("reclaimed", START))
                .isInstanceOf(IllegalStateException.class);
        Reservation preemptible = new Reservation(
                reservation.id(),
                "acme",
                "training",
                "pool",
                "H100",
                16,
                START,
                END,
                null,
                true,
                ClusterSpec.kubernetes(),
                reservation.quote(),
                List.of("n1", "n2"),
                0,
                START,
                Map.of());
        Reservation active = read(preemptible, ReservationStatus.ACTIVE, START);
        Reservation preempted = active.markPreempted("reclaimed", START.plusSeconds(60));
        assertThat(preempted.status(START.plusSeconds(60))).isEqualTo(ReservationStatus.PREEMPTED);
        assertThat(preempted.preemption()).isEqualTo(new Reservation.Preemption(START.plusSeconds(60), "reclaimed"));
        assertThat(preempted.markPreempted("again", END)).isSameAs(preempted);
        assertThat(preempted.markFailed("too late", END)).isSameAs(preempted);
        assertThatThrownBy(() -> preempted.cancel(START.plusSeconds(120))).isInstanceOf(AllotException.class);
        assertThat(reservation.preemption()).isNull();
    }

    @Test
    void askingForTheCurrentStageAgainChangesNothing() {
        Reservation provisioning = read(reservation, ReservationStatus.PROVISIONING, START.minusSeconds(600));
        Reservation failed = provisioning.markFailed("driver unreachable", START);
        assertThat(failed.markFailed("another reason", START.plusSeconds(1))).isSameAs(failed);
        assertThat(failed.failureReason()).isEqualTo("driver unreachable");
    }

    @Test
    void aTransitionTheLifecycleDoesNotAllowIsRefused() {
        Reservation active = read(reservation, ReservationStatus.ACTIVE, START);
        assertThatThrownBy(() -> active.markFailed("too late", START))
                .isInstanceOfSatisfying(AllotException.class, ex -> {
                    assertThat(ex.code()).isEqualTo("reservation_transition_refused");
                    assertThat(ex.properties()).containsEntry("reservationStatus", ReservationStatus.ACTIVE);
                });
        Reservation cancelled = read(reservation, ReservationStatus.PROVISIONING, START)
                .cancel(START)
                .cancelled();
        assertThatThrownBy(() -> cancelled.markFailed("gone", START.plusSeconds(60)))
                .isInstanceOf(AllotException.class);
        assertThat(cancelled.status(START)).isEqualTo(ReservationStatus.CANCELLED);
    }

    @Test
    void aFailedOrEndingReservationCannotBeCancelledOrExtended() {
        Reservation failed = reservation.markFailed("nodes gone", START.minusSeconds(60));
        assertThatThrownBy(() -> failed.cancel(START))
                .isInstanceOfSatisfying(
                        AllotException.class, ex -> assertThat(ex.code()).isEqualTo("reservation_failed"));
        Reservation ending = read(reservation, ReservationStatus.ENDING, END);
        assertThatThrownBy(() -> ending.requireExtensible(END.plusSeconds(3600), ending.etag(), END))
                .isInstanceOfSatisfying(
                        AllotException.class, ex -> assertThat(ex.code()).isEqualTo("reservation_ending"));
    }

    @Test
    void cancellingOrExtendingKeepsTheLifecycleStage() {
        Reservation active = read(reservation, ReservationStatus.ACTIVE, START);
        assertThat(active.extendTo(END.plusSeconds(3600), reservation.quote(), START)
                        .status(START))
                .isEqualTo(ReservationStatus.ACTIVE);
        assertThat(active.cancel(START.plusSeconds(60)).cancelled().progress()).isEqualTo(active.progress());
    }

    @Test
    void cancellingBeforeTheStartFreesTheWholeWindow() {
        Reservation.Cancellation cancellation = reservation.cancel(START.minusSeconds(600));
        assertThat(cancellation.freedFrom()).isEqualTo(START);
        assertThat(cancellation.cancelled().status(START)).isEqualTo(ReservationStatus.CANCELLED);
        assertThat(cancellation.cancelled().version()).isEqualTo(1);
    }

    @Test
    void cancellingDuringTheWindowFreesTheNodesFromTheNextMinute() {
        Reservation.Cancellation cancellation = reservation.cancel(Instant.parse("2027-01-05T10:15:30Z"));
        assertThat(cancellation.freedFrom()).isEqualTo(Instant.parse("2027-01-05T10:16:00Z"));
    }

    @Test
    void cancellingAFinishedOrCancelledReservationIsRefused() {
        assertThatThrownBy(() -> reservation.cancel(END))
                .isInstanceOfSatisfying(
                        AllotException.class, ex -> assertThat(ex.code()).isEqualTo("reservation_completed"));
        Reservation cancelled = reservation.cancel(START).cancelled();
        assertThatThrownBy(() -> cancelled.cancel(START.plusSeconds(60)))
                .isInstanceOfSatisfying(
                        AllotException.class, ex -> assertThat(ex.code()).isEqualTo("reservation_cancelled"));
    }

    @Test
    void extendingNeedsTheCurrentETagAndALaterEnd() {
        assertThatThrownBy(() -> reservation.requireExtensible(END.plusSeconds(3600), null, START))
                .isInstanceOfSatisfying(
                        AllotException.class, ex -> assertThat(ex.status()).isEqualTo(428));
        assertThatThrownBy(() -> reservation.requireExtensible(END.plusSeconds(3600), "\"7\"", START))
                .isInstanceOfSatisfying(
                        AllotException.class, ex -> assertThat(ex.status()).isEqualTo(412));
        assertThatThrownBy(() -> reservation.requireExtensible(END, "\"0\"", START))
                .isInstanceOfSatisfying(
                        AllotException.class, ex -> assertThat(ex.status()).isEqualTo(400));
        reservation.requireExtensible(END.plusSeconds(3600), "\"0\"", START);
    }
}
