package dev.allot.booking.api;

import dev.allot.booking.BookingRequest;
import dev.allot.booking.Reservation;
import dev.allot.booking.ReservationStatus;
import dev.allot.booking.queue.BookingQueue;
import dev.allot.booking.spec.ClusterSpec;
import dev.allot.booking.spec.Labels;
import dev.allot.booking.spec.SshPublicKeys;
import dev.allot.quota.QuotaDecision;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.TimeWindow;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** Request and response bodies of reservations and quotes. */
final class ReservationBodies {

    /**
     * An OpenSSH public key line: a known key type, its base64 blob, and an optional comment without control
     * characters. The first gate; booking then checks the blob itself ({@link dev.allot.booking.spec.SshPublicKeys}).
     */
    static final String SSH_PUBLIC_KEY =
            "^(ssh-ed25519|ssh-rsa|ecdsa-sha2-nistp(256|384|521)|sk-ssh-ed25519@openssh\\.com"
                    + "|sk-ecdsa-sha2-nistp256@openssh\\.com) AAAA[A-Za-z0-9+/]+={0,3}( [^\\x00-\\x1F\\x7F]{0,200})?$";

    private ReservationBodies() {}

    /** {@code retain}: the volume outlives the reservation until the tenant deletes it (Slurm pools). */
    record VolumeBody(
            @NotNull
            @Pattern(
                    regexp = "^[a-z]([a-z0-9-]{0,61}[a-z0-9])?$",
                    message =
                            "must be 1-63 lower-case letters, digits or hyphens, starting with a letter and not ending with a hyphen")
            String name,

            @NotNull @Min(1) @Max(1_000_000) Integer sizeGi,
            @Nullable Boolean retain) {}

    record ClusterBody(
            @NotNull ClusterSpec.Orchestrator orchestrator,
            @Nullable @Size(max = 40) String cudaDriver,
            @Nullable @Min(0) @Max(4096) Integer sharedMemoryGi,
            @Nullable @Size(max = 16) List<@NotNull @Valid VolumeBody> volumes,

            @Nullable @Size(max = SshPublicKeys.MAX_KEYS)
            List<
                            @NotBlank @Size(max = SshPublicKeys.MAX_LENGTH)
                            @Pattern(
                                    regexp = SSH_PUBLIC_KEY,
                                    message = "is not an OpenSSH public key (type, base64 key, optional comment)")
                            String>
                    sshPublicKeys) {

        ClusterSpec toSpec() {
            return new ClusterSpec(
                    orchestrator,
                    cudaDriver,
                    sharedMemoryGi,
                    volumes == null
                            ? List.of()
                            : volumes.stream()
                                    .map(v -> new ClusterSpec.Volume(
                                            v.name(), v.sizeGi(), Boolean.TRUE.equals(v.retain())))
                                    .toList(),
                    sshPublicKeys == null ? List.of() : sshPublicKeys);
        }

        static ClusterBody of(ClusterSpec spec) {
            return new ClusterBody(
                    spec.orchestrator(),
                    spec.cudaDriver(),
                    spec.sharedMemoryGi(),
                    spec.volumes().stream()
                            .map(v -> new VolumeBody(v.name(), v.sizeGi(), v.retain()))
                            .toList(),
                    spec.sshPublicKeys());
        }
    }

    /** What a booking does when it does not fit: answered {@code 409} ({@code FAIL}, the default) or queued. */
    enum WhenUnavailable {
        FAIL,
        QUEUE
    }

    /** The starts a queued booking accepts, as UTC instants to the minute. */
    record StartWindowBody(
            @NotNull String earliest, @NotNull String latest) {}

    /** The body of a reservation or a quote; instants arrive as text so that only UTC is accepted. */
    record ReservationRequest(
            @NotBlank @Size(max = 40) String project,
            @NotBlank @Size(max = 40) String pool,
            @NotNull Integer gpus,
            @NotNull String startsAt,
            @NotNull String endsAt,
            @Nullable @Valid ClusterBody cluster,
            @Nullable Boolean preemptible,
            @Nullable Map<String, String> labels,
            @Nullable WhenUnavailable whenUnavailable,
            @Nullable @Valid StartWindowBody startWindow) {

        /** With {@code whenUnavailable: QUEUE}, the start window it may be booked in; {@code null} otherwise. */
        BookingQueue.@Nullable StartWindow queueWithin() {
            boolean queue = whenUnavailable == WhenUnavailable.QUEUE;
            if (startWindow == null) {
                if (queue) {
                    throw InvalidInputException.of("startWindow", "is required with whenUnavailable QUEUE");
                }
                return null;
            }
            if (!queue) {
                throw InvalidInputException.of("startWindow", "is only taken with whenUnavailable QUEUE");
            }
            return new BookingQueue.StartWindow(
                    UtcInstants.minute("startWindow.earliest", startWindow.earliest()),
                    UtcInstants.minute("startWindow.latest", startWindow.latest()));
        }

        BookingRequest toRequest() {
            List<InvalidInputException.FieldError> errors = new ArrayList<>();
            Instant start = null;
            Instant end = null;
            try {
                start = UtcInstants.minute("startsAt", startsAt);
            } catch (InvalidInputException ex) {
                errors.addAll(ex.errors());
            }
            try {
                end = UtcInstants.minute("endsAt", endsAt);
            } catch (InvalidInputException ex) {
                errors.addAll(ex.errors());
            }
            Map<String, String> checked = Map.of();
            try {
                checked = Labels.of(labels);
            } catch (InvalidInputException ex) {
                errors.addAll(ex.errors());
            }
            if (!errors.isEmpty() || start == null || end == null) {
                throw new InvalidInputException(errors); // each null has its error
            }
            return new BookingRequest(
                    project,
                    pool,
                    gpus,
                    new TimeWindow(start, end),
                    cluster == null ? ClusterSpec.kubernetes() : cluster.toSpec(),
                    Boolean.TRUE.equals(preemptible),
                    checked);
        }
    }

    record ExtendRequest(@NotNull String endsAt) {}

    record QuoteBody(
            String currency,
            BigDecimal total,
            boolean preemptible,
            List<QuotaDecision.Line> split,
            List<QuotaDecision.BudgetMonth> budget) {
        static QuoteBody of(QuotaDecision decision) {
            return new QuoteBody(
                    decision.currency(), decision.total(), decision.preemptible(), decision.lines(), decision.budget());
        }
    }

    record ReservationBody(
            UUID id,
            String tenant,
            ReservationStatus status,
            String project,
            String pool,
            String gpuType,
            int gpus,
            Instant startsAt,
            Instant endsAt,
            List<String> nodes,
            ClusterBody cluster,
            boolean preemptible,
            QuoteBody quote,
            Instant createdAt,
            @Nullable Instant cancelledAt,
            @Nullable String failureReason,
            Reservation.@Nullable Preemption preemption,
            Map<String, String> labels,

            @Schema(description = "Its place in its pool's queue (1: next), " + "while QUEUED") @Nullable
            Integer queuePosition) {
        static ReservationBody of(Reservation r, Instant now) {
            return of(r, now, null);
        }

        static ReservationBody of(Reservation r, Instant now, @Nullable Integer queuePosition) {
            return new ReservationBody(
                    r.id(),
                    r.tenant(),
                    r.status(now),
                    r.project(),
                    r.pool(),
                    r.gpuType(),
                    r.gpus(),
                    r.startsAt(),
                    r.endsAt(),
                    r.nodes(),
                    ClusterBody.of(r.cluster()),
                    r.preemptible(),
                    QuoteBody.of(r.quote()),
                    r.createdAt(),
                    r.cancelledAt(),
                    r.failureReason(),
                    r.preemption(),
                    new TreeMap<>(r.labels()),
                    queuePosition);
        }
    }
}
