package dev.allot.booking;

import dev.allot.booking.queue.BookingQueue;
import dev.allot.booking.spec.ClusterSpec;
import dev.allot.booking.spec.Labels;
import dev.allot.booking.store.ReservationStages;
import dev.allot.quota.QuotaDecision;
import dev.allot.shared.AllotException;
import dev.allot.shared.ETags;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.TimeWindow;
import dev.allot.shared.UtcText;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A tenant's hold on whole nodes of a pool for a window, and the rules of changing it. {@code version} is its ETag.
 * {@code progress} is its lifecycle stage as read ({@link ReservationStages}): a stored fact (failed, preempted) or
 * what its cluster says; {@code null} while nothing has happened to it. {@code labels} tag it for its tenant (a
 * pipeline, a commit, a kind of workload: {@link Labels}), to filter its lists and group its usage by. The
 * transitions below are public for booking's rooms (sharing, approval, queue): each answers the changed reservation,
 * which only booking stores.
 */
public record Reservation(
        UUID id,
        String tenant,
        String project,
        String pool,
        String gpuType,
        int gpus,
        Instant startsAt,
        Instant endsAt,
        @Nullable Instant cancelledAt,
        boolean preemptible,
        ClusterSpec cluster,
        QuotaDecision quote,
        List<String> nodes,
        long version,
        Instant createdAt,
        @Nullable Progress progress,
        Map<String, String> labels) {

    /** The same reservation on another node instead of {@code failed} (a node replaced after failing its checks). */
    public Reservation replacingNode(String failed, String replacement) {
        if (!nodes.contains(failed) || nodes.contains(replacement)) {
            throw new IllegalArgumentException(failed + " cannot be replaced by " + replacement + " in " + nodes);
        }
        List<String> replaced = nodes.stream()
                .map(node -> node.equals(failed) ? replacement : node)
                .toList();
        return changed(startsAt, endsAt, cancelledAt, preemptible, quote, replaced, version + 1, progress);
    }

    /** A cancellation, and from when the nodes are free again ({@code null}: nothing left to free). */
    public record Cancellation(
            Reservation cancelled, @Nullable Instant freedFrom) {}

    /** A lifecycle stage as read, why it was reached (a failure's or preemption's reason), and since when. */
    public record Progress(
            ReservationStatus status, @Nullable String reason, Instant at) {}

    public Reservation {
        nodes = List.copyOf(nodes);
        labels = Map.copyOf(labels);
    }

    /** A reservation provisioning has not touched yet. */
    public Reservation(
            UUID id,
            String tenant,
            String project,
            String pool,
            String gpuType,
            int gpus,
            Instant startsAt,
            Instant endsAt,
            @Nullable Instant cancelledAt,
            boolean preemptible,
            ClusterSpec cluster,
            QuotaDecision quote,
            List<String> nodes,
            long version,
            Instant createdAt,
            Map<String, String> labels) {
        this(
                id,
                tenant,
                project,
                pool,
                gpuType,
                gpus,
                startsAt,
                endsAt,
                cancelledAt,
                preemptible,
                cluster,
                quote,
                nodes,
                version,
                createdAt,
                null,
                labels);
    }

    /**
     * {@code CANCELLED} when cancelled, else the stage read ({@code FAILED} or {@code PREEMPTED} as stored, else
     * what its cluster says); before provisioning takes it up the reservation is {@code CONFIRMED}, and
     * {@code COMPLETED} once its window has passed untouched. The clock alone never makes a reservation
     * {@code ACTIVE}: only a ready cluster does.
     */
    public ReservationStatus status(Instant now) {
        if (cancelledAt != null) {
            return ReservationStatus.CANCELLED;
        }
        if (progress != null) {
            return progress.status();
        }
        return now.isBefore(endsAt) ? ReservationStatus.CONFIRMED : ReservationStatus.COMPLETED;
    }

    /** Why provisioning gave up, for a {@code FAILED} reservation. */
    public @Nullable String failureReason() {
        return progress != null && progress.status() == ReservationStatus.FAILED ? progress.reason() : null;
    }

    /** The stage transitions are decided on, whatever the clock says. */
    public ReservationStatus stage() {
        if (cancelledAt != null) {
            return ReservationStatus.CANCELLED;
        }
        return progress != null ? progress.status() : ReservationStatus.CONFIRMED;
    }

    // Booking's own facts, stored by the transitions that make them (each changes what the reservation holds):
    // provisioning gave up (FAILED), or a guaranteed booking reclaimed it (PREEMPTED). Each is idempotent and
    // refuses a transition the lifecycle does not allow. The other stages are read from the cluster
    // (ReservationStages).

    /** Provisioning gave up: only a reservation whose cluster never became ready can fail. */
    Reservation markFailed(String reason, Instant now) {
        return moveTo(
                ReservationStatus.FAILED, reason, now, ReservationStatus.CONFIRMED, ReservationStatus.PROVISIONING);
    }

    /** What a preempted reservation says of its end: when, and why (never naming the other tenant). */
    public record Preemption(Instant at, String reason) {}

    /** When and why it was preempted, for a {@code PREEMPTED} reservation. */
    public @Nullable Preemption preemption() {
        return progress != null && progress.status() == ReservationStatus.PREEMPTED
                ? new Preemption(progress.at(), String.valueOf(progress.reason()))
                : null;
    }

    /**
     * Reclaimed for a guaranteed booking: only a preemptible reservation that has not ended. Final: the stages its
     * cluster's teardown reports later leave it {@code PREEMPTED}.
     */
    public Reservation markPreempted(String reason, Instant now) {
        if (!preemptible) {
            throw new IllegalStateException("Reservation " + id + " is not preemptible");
        }
        return moveTo(
                ReservationStatus.PREEMPTED,
                reason,
                now,
                ReservationStatus.CONFIRMED,
                ReservationStatus.PROVISIONING,
                ReservationStatus.ACTIVE);
    }

    /** Booked under a policy that asks for approval: it waits for a decision, holding its nodes. */
    Reservation pendingApproval(Instant now) {
        return changed(
                startsAt,
                endsAt,
                cancelledAt,
                preemptible,
                quote,
                nodes,
                version,
                new Progress(ReservationStatus.PENDING_APPROVAL, null, now));
    }

    /** Approved: {@code CONFIRMED} from now on, provisioned and billed as any booking. Only a pending one. */
    public Reservation approved(Instant now) {
        requirePending(now);
        return changed(startsAt, endsAt, cancelledAt, preemptible, quote, nodes, version + 1, null);
    }

    /** Denied ({@code DENIED}) or undecided in time ({@code EXPIRED}), with why. Only a pending one. */
    public Reservation decidedAgainst(ReservationStatus outcome, String reason, Instant now) {
        requirePending(now);
        return moveTo(outcome, reason, now, ReservationStatus.PENDING_APPROVAL);
    }

    /** Did not fit and waits in its pool's queue ({@link BookingQueue}): holds no node, no quota, no price yet. */
    Reservation queued(Instant now) {
        return changed(
                startsAt,
                endsAt,
                cancelledAt,
                preemptible,
                quote,
                List.of(),
                version,
                new Progress(ReservationStatus.QUEUED, null, now));
    }

    /** Booked out of the queue for {@code window} on {@code booked} nodes: {@code CONFIRMED}, the same reservation. */
    Reservation dequeued(TimeWindow window, QuotaDecision decision, List<String> booked) {
        if (stage() != ReservationStatus.QUEUED) {
            throw new IllegalStateException("Reservation " + id + " is not queued");
        }
        return changed(
                window.start(),
                window.end(),
                cancelledAt,
                preemptible || decision.preemptible(),
                decision,
                booked,
                version + 1,
                null);
    }

    /** Its latest start passed before capacity freed: {@code EXPIRED}, having held nothing. */
    public Reservation expiredInQueue(String reason, Instant now) {
        return moveTo(ReservationStatus.EXPIRED, reason, now, ReservationStatus.QUEUED);
    }

    private void requirePending(Instant now) {
        ReservationStatus status = status(now);
        if (status != ReservationStatus.PENDING_APPROVAL) {
            throw AllotException.conflict(
                            "reservation_not_pending",
                            "Reservation " + id + " is " + status + ", not waiting for approval")
                    .with("reservationStatus", status);
        }
    }

    private Reservation moveTo(
            ReservationStatus next,
            @Nullable String reason,
            Instant now,
            ReservationStatus from,
            ReservationStatus... alsoFrom) {
        ReservationStatus current = stage();
        if (current == next || current == ReservationStatus.PREEMPTED) {
            return this;
        }
        Set<ReservationStatus> allowed = EnumSet.of(from, alsoFrom);
        if (!allowed.contains(current)) {
            throw AllotException.conflict(
                            "reservation_transition_refused",
                            "Reservation " + id + " is " + current + " and cannot become " + next)
                    .with("reservationStatus", current)
                    .with("requested", next);
        }
        return changed(
                startsAt, endsAt, cancelledAt, preemptible, quote, nodes, version + 1, new Progress(next, reason, now));
    }

    public String etag() {
        return "\"" + version + "\"";
    }

    public TimeWindow window() {
        return new TimeWindow(startsAt, endsAt);
    }

    /**
     * Cancels before or during the window: the nodes are freed from the next whole minute on (minutes already
     * begun stay held, as allocations have minute precision). A cancelled or finished reservation cannot be.
     */
    Cancellation cancel(Instant now) {
        requireChangeable(now);
        Instant nextMinute = now.truncatedTo(ChronoUnit.MINUTES).equals(now)
                ? now
                : now.truncatedTo(ChronoUnit.MINUTES).plus(Duration.ofMinutes(1));
        // a queued reservation holds nothing to free
        Instant freedFrom =
                stage() == ReservationStatus.QUEUED ? endsAt : nextMinute.isAfter(startsAt) ? nextMinute : startsAt;
        Reservation cancelled = changed(startsAt, endsAt, now, preemptible, quote, nodes, version + 1, progress);
        return new Cancellation(cancelled, freedFrom.isBefore(endsAt) ? freedFrom : null);
    }

    /** The reservation ending later, with the extension's quote added; only a live one, only later. */
    Reservation extendTo(Instant newEnd, QuotaDecision extension, Instant now) {
        requireChangeable(now);
        requireLaterEnd(newEnd);
        return changed(startsAt, newEnd, cancelledAt, preemptible, quote.plus(extension), nodes, version + 1, progress);
    }

    /** An extension names the version it extends: a blind change could undo one made since (a lost update). */
    void requireExtensible(Instant newEnd, @Nullable String ifMatch, Instant now) {
        if (ifMatch == null) {
            throw AllotException.preconditionRequired("Send the reservation's ETag in If-Match: GET it first");
        }
        if (!ETags.matches(ifMatch, etag())) {
            throw AllotException.preconditionFailed("Reservation " + id + " has changed; its ETag is " + etag());
        }
        requireChangeable(now);
        if (stage() == ReservationStatus.QUEUED) {
            throw AllotException.conflict(
                            "reservation_queued", "Reservation " + id + " is QUEUED: it holds no nodes to extend yet")
                    .with("reservationStatus", ReservationStatus.QUEUED);
        }
        requireLaterEnd(newEnd);
    }

    private void requireLaterEnd(Instant newEnd) {
        if (!newEnd.isAfter(endsAt)) {
            throw InvalidInputException.of("endsAt", "must be later than the current end, " + UtcText.of(endsAt));
        }
    }

    /** Cancelling or extending needs a live reservation whose cluster is not already being torn down. */
    private void requireChangeable(Instant now) {
        ReservationStatus status = status(now);
        if (status == ReservationStatus.CANCELLED
                || status == ReservationStatus.COMPLETED
                || status == ReservationStatus.FAILED
                || status == ReservationStatus.ENDING
                || status == ReservationStatus.PREEMPTED
                || status == ReservationStatus.DENIED
                || status == ReservationStatus.EXPIRED) {
            throw AllotException.conflict(
                            "reservation_" + status.name().toLowerCase(),
                            "Reservation " + id + " is " + status + " and cannot change")
                    .with("reservationStatus", status);
        }
    }

    /** This reservation with what a transition changes, the rest (who, where, what, its cluster) as it is. */
    private Reservation changed(
            Instant startsAt,
            Instant endsAt,
            @Nullable Instant cancelledAt,
            boolean preemptible,
            QuotaDecision quote,
            List<String> nodes,
            long version,
            @Nullable Progress progress) {
        return new Reservation(
                id,
                tenant,
                project,
                pool,
                gpuType,
                gpus,
                startsAt,
                endsAt,
                cancelledAt,
                preemptible,
                cluster,
                quote,
                nodes,
                version,
                createdAt,
                progress,
                labels);
    }
}
