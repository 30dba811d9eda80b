package dev.allot.cli;

import dev.allot.client.ApiException;
import dev.allot.client.api.ClustersApi;
import dev.allot.client.model.ClusterStatusBody;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * Waits for a cluster state with the server's long-poll (GET .../cluster?waitFor=...&timeout=PT10M): one
 * request per ten minutes instead of polling, repeated until the state, a state from which it will not come, or
 * the caller's deadline. An answer that comes back early without either (a server restarting, a proxy cutting the
 * poll short) is followed by a growing pause, never at once by the next request.
 */
final class ClusterWait {

    static final Duration LONG_POLL = Duration.ofMinutes(10);

    /** States after which no other wanted one comes. */
    private static final Set<String> FINAL = Set.of("FAILED", "DELETING", "DELETED");

    /** Reservation statuses after which the cluster is not built (again). */
    private static final Set<String> OVER =
            Set.of("CANCELLED", "COMPLETED", "FAILED", "PREEMPTED", "DENIED", "EXPIRED", "ENDING");

    private static final Duration FIRST_PAUSE = Duration.ofSeconds(2);

    private static final Duration LONGEST_PAUSE = Duration.ofMinutes(1);

    /** How a wait ended; {@code cluster} is the state last seen ({@code null}: none answered). */
    record Outcome(Result result, ClusterStatusBody cluster, String reason) {

        boolean reached() {
            return this.result == Result.REACHED;
        }

        int exitCode() {
            return switch (this.result) {
                case REACHED -> ExitCodes.OK;
                case TIMED_OUT -> ExitCodes.WAIT_TIMED_OUT;
                case ENDED -> ExitCodes.WAIT_ENDED;
            };
        }
    }

    enum Result {
        REACHED,
        TIMED_OUT,
        ENDED
    }

    private ClusterWait() {}

    /** {@link #until(Session, String, UUID, String, Duration, Consumer)}, saying on stderr why it ended without. */
    static Outcome until(Session session, String tenant, UUID reservation, String state, Duration limit)
            throws ApiException {
        Outcome waited = until(session, tenant, reservation, state, limit, (seen) -> {});
        if (!waited.reached()) {
            session.err().println("allot: " + waited.reason());
            session.err().flush();
        }
        return waited;
    }

    /**
     * Waits until the cluster of {@code reservation} is in {@code state}, cannot get there, or {@code limit} has
     * passed; {@code seen} gets every answer (so an interrupted wait can still print the last). Throws only when
     * the server or the network fails after the retries.
     */
    static Outcome until(
            Session session,
            String tenant,
            UUID reservation,
            String state,
            Duration limit,
            Consumer<ClusterStatusBody> seen)
            throws ApiException {
        ClustersApi clusters = new ClustersApi(session.client(LONG_POLL.plus(Duration.ofMinutes(1))));
        Instant deadline = Instant.now().plus(limit);
        Duration pause = FIRST_PAUSE;
        ClusterStatusBody status = null;
        while (true) {
            Duration left = Duration.between(Instant.now(), deadline);
            if (left.isNegative() || left.isZero()) {
                return new Outcome(
                        Result.TIMED_OUT,
                        status,
                        "cluster of " + reservation + " not " + state + " within " + limit
                                + (status != null ? " (it is " + status.getState() + reason(status) + ")" : ""));
            }
            Duration poll = left.compareTo(LONG_POLL) < 0 ? left : LONG_POLL;
            long asked = System.nanoTime();
            status = clusters.getClusterStatus(
                    tenant,
                    reservation,
                    state,
                    Duration.ofSeconds(Math.max(1, poll.toSeconds())).toString());
            seen.accept(status);
            if (state.equals(String.valueOf(status.getState()))) {
                return new Outcome(Result.REACHED, status, null);
            }
            String ended = ended(status, state);
            if (ended != null) {
                return new Outcome(
                        Result.ENDED, status, "cluster of " + reservation + " will not be " + state + ": " + ended);
            }
            Duration answeredIn = Duration.ofNanos(System.nanoTime() - asked);
            if (answeredIn.plusSeconds(1).compareTo(poll) < 0) {
                Duration rest = Duration.between(Instant.now(), deadline);
                sleep(rest.compareTo(pause) < 0 ? rest : pause);
                pause = pause.multipliedBy(2).compareTo(LONGEST_PAUSE) > 0 ? LONGEST_PAUSE : pause.multipliedBy(2);
            }
        }
    }

    /** Why {@code wanted} will not come after this answer, or {@code null} while it still may. */
    static String ended(ClusterStatusBody status, String wanted) {
        String now = status.getState() != null ? status.getState().getValue() : null;
        if (now != null && FINAL.contains(now) && !FINAL.contains(wanted)) {
            return "it is " + now + reason(status);
        }
        if ("DEGRADED".equals(now) && "READY".equals(wanted)) {
            return "it is DEGRADED" + reason(status) + " (handed over, but a node is being remediated)";
        }
        if (status.getReservationStatus() != null
                && OVER.contains(status.getReservationStatus().getValue())
                && !FINAL.contains(wanted)) {
            return "the reservation is " + status.getReservationStatus() + " (cluster " + now + reason(status) + ")";
        }
        return null;
    }

    static String reason(ClusterStatusBody status) {
        String why = status.getFailureReason() != null ? status.getFailureReason() : status.getStateReason();
        return why != null && !why.isBlank() ? ": " + why : "";
    }

    private static void sleep(Duration pause) {
        try {
            Thread.sleep(pause);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new CliFailure(ExitCodes.FAILED, "interrupted");
        }
    }
}
