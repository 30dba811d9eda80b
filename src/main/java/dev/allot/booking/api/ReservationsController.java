package dev.allot.booking.api;

import dev.allot.booking.Bookings;
import dev.allot.booking.Reservation;
import dev.allot.booking.ReservationStatus;
import dev.allot.booking.api.ReservationBodies.ExtendRequest;
import dev.allot.booking.api.ReservationBodies.ReservationBody;
import dev.allot.booking.api.ReservationBodies.ReservationRequest;
import dev.allot.booking.approval.Approvals;
import dev.allot.booking.queue.BookingQueue;
import dev.allot.booking.spec.Labels;
import dev.allot.shared.CursorPage;
import dev.allot.shared.IdempotencyKey;
import dev.allot.shared.ListQuery;
import dev.allot.shared.security.Caller;
import dev.allot.shared.web.KeepsItsIdempotencyKey;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/v1/tenants/{tenant}/reservations")
class ReservationsController {

    private final Bookings bookings;

    private final Clock clock;

    private final Approvals approvals;

    private final BookingQueue queue;

    ReservationsController(Bookings bookings, Approvals approvals, BookingQueue queue, Clock clock) {
        this.bookings = bookings;
        this.approvals = approvals;
        this.queue = queue;
        this.clock = clock;
    }

    /**
     * The booking keeps its Idempotency-Key on its reservation, in its own transaction, and a retry with the same key
     * is answered from there (the reservation as it is now, marked {@code Idempotent-Replayed}); the shared filter
     * claims nothing for it. A queued booking answers 202 with its place in the queue.
     */
    @PostMapping
    @KeepsItsIdempotencyKey
    @ApiResponse(
            responseCode = "201",
            description = "Booked",
            content = @Content(schema = @Schema(implementation = ReservationBody.class)))
    @ApiResponse(
            responseCode = "202",
            description = "Queued (whenUnavailable QUEUE): status QUEUED with queuePosition, holding nothing until "
                    + "capacity frees within its startWindow",
            content = @Content(schema = @Schema(implementation = ReservationBody.class)))
    ResponseEntity<ReservationBody> book(
            Caller caller,
            @PathVariable String tenant,
            @Nullable IdempotencyKey idempotencyKey,
            @Valid @RequestBody ReservationRequest body) {
        Bookings.Booked booked = bookings.book(caller, tenant, idempotencyKey, body.toRequest(), body.queueWithin());
        Reservation reservation = booked.reservation();
        var now = clock.instant();
        ResponseEntity.BodyBuilder response = ResponseEntity.status(
                        booked.queued() ? HttpStatus.ACCEPTED : HttpStatus.CREATED)
                .location(URI.create("/api/v1/tenants/" + tenant + "/reservations/" + reservation.id()))
                .eTag(reservation.etag());
        if (booked.replayed()) {
            response.header("Idempotent-Replayed", "true");
        }
        return response.body(body(reservation, now));
    }

    /** The reservation as answered, with its place in the queue while it is queued. */
    private ReservationBody body(Reservation reservation, Instant now) {
        return ReservationBody.of(
                reservation, now, queue.positions(List.of(reservation)).get(reservation.id()));
    }

    @GetMapping
    CursorPage<ReservationBody> list(
            Caller caller,
            @PathVariable String tenant,
            @RequestParam(required = false) @Nullable ReservationStatus status,
            @RequestParam(required = false) @Nullable String from,
            @RequestParam(required = false) @Nullable String to,
            @RequestParam(required = false) @Nullable String project,
            @Parameter(
                            description = "key=value (the label has that value) or key (the "
                                    + "reservation has the label); several, comma-separated, must all hold (as a Kubernetes label "
                                    + "selector)")
                    @RequestParam(required = false)
                    @Nullable
                    String label,
            @RequestParam(required = false) @Nullable Integer limit,
            @RequestParam(required = false) @Nullable String cursor,
            @RequestParam(required = false) @Nullable Integer page,
            @RequestParam(required = false) @Nullable Integer size) {
        var now = clock.instant();
        CursorPage<Reservation> found = bookings.list(
                caller,
                tenant,
                status,
                UtcInstants.optional("from", from),
                UtcInstants.optional("to", to),
                project == null || project.isBlank() ? null : project,
                label == null || label.isBlank()
                        ? List.of()
                        : Arrays.stream(label.split(","))
                                .map(Labels.Filter::parse)
                                .toList(),
                ListQuery.of(page, size, limit, cursor, 2));
        Map<UUID, Integer> positions = queue.positions(found.items());
        return found.map(r -> ReservationBody.of(r, now, positions.get(r.id())));
    }

    @GetMapping("/{id}")
    ResponseEntity<ReservationBody> get(Caller caller, @PathVariable String tenant, @PathVariable UUID id) {
        Reservation reservation = bookings.get(caller, tenant, id);
        return ResponseEntity.ok().eTag(reservation.etag()).body(body(reservation, clock.instant()));
    }

    @PatchMapping("/{id}")
    ResponseEntity<ReservationBody> extend(
            Caller caller,
            @PathVariable String tenant,
            @PathVariable UUID id,
            @RequestHeader(name = "If-Match", required = false) @Nullable String ifMatch,
            @Valid @RequestBody ExtendRequest body) {
        Reservation reservation =
                bookings.extend(caller, tenant, id, UtcInstants.minute("endsAt", body.endsAt()), ifMatch);
        return ResponseEntity.ok().eTag(reservation.etag()).body(ReservationBody.of(reservation, clock.instant()));
    }

    /** A decision's reason: required to deny, optional to approve. */
    record DecisionRequest(@Nullable @Size(max = 1000) String reason) {}

    record DenialRequest(@NotBlank @Size(max = 1000) String reason) {}

    /** Approves a booking waiting for approval: a tenant admin other than its requester, or a platform admin. */
    @PostMapping("/{id}/approve")
    ResponseEntity<ReservationBody> approve(
            Caller caller,
            @PathVariable String tenant,
            @PathVariable UUID id,
            @Valid @RequestBody(required = false) @Nullable DecisionRequest body) {
        Reservation reservation = approvals.approve(caller, tenant, id, body == null ? null : body.reason());
        return ResponseEntity.ok().eTag(reservation.etag()).body(ReservationBody.of(reservation, clock.instant()));
    }

    /** Denies a booking waiting for approval: its nodes and quota are freed, nothing is charged. */
    @PostMapping("/{id}/deny")
    ResponseEntity<ReservationBody> deny(
            Caller caller, @PathVariable String tenant, @PathVariable UUID id, @Valid @RequestBody DenialRequest body) {
        Reservation reservation =
                approvals.deny(caller, tenant, id, body.reason().strip());
        return ResponseEntity.ok().eTag(reservation.etag()).body(ReservationBody.of(reservation, clock.instant()));
    }

    @PostMapping("/{id}/cancel")
    ResponseEntity<ReservationBody> cancel(
            Caller caller,
            @PathVariable String tenant,
            @PathVariable UUID id,
            @RequestBody(required = false) @Nullable Map<String, Object> ignored) {
        Reservation reservation = bookings.cancel(caller, tenant, id);
        return ResponseEntity.ok().eTag(reservation.etag()).body(ReservationBody.of(reservation, clock.instant()));
    }
}
