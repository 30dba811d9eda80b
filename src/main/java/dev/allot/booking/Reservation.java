package dev.allot.booking;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;

import dev.allot.quota.QuotaDecision;
import dev.allot.shared.AllotException;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.TimeWindow;
import org.jspecify.annotations.Nullable;

/** A tenant's hold on whole nodes of a pool for a window, and the rules of changing it. {@code version} is its ETag. */
public record Reservation(UUID id, String tenant, String project, String pool, String gpuType, int gpus,
		Instant startsAt, Instant endsAt, @Nullable Instant cancelledAt, boolean preemptible, ClusterSpec cluster,
		QuotaDecision quote, List<String> nodes, long version, Instant createdAt) {

	/** A cancellation, and from when the nodes are free again ({@code null}: nothing left to free). */
	public record Cancellation(Reservation cancelled, @Nullable Instant freedFrom) {
	}

	public Reservation {
		nodes = List.copyOf(nodes);
	}

	public ReservationStatus status(Instant now) {
		if (cancelledAt != null) {
			return ReservationStatus.CANCELLED;
		}
		if (now.isBefore(startsAt)) {
			return ReservationStatus.CONFIRMED;
		}
		return now.isBefore(endsAt) ? ReservationStatus.ACTIVE : ReservationStatus.COMPLETED;
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
		Instant nextMinute = now.truncatedTo(ChronoUnit.MINUTES).equals(now) ? now
				: now.truncatedTo(ChronoUnit.MINUTES).plus(Duration.ofMinutes(1));
		Instant freedFrom = nextMinute.isAfter(startsAt) ? nextMinute : startsAt;
		Reservation cancelled = new Reservation(id, tenant, project, pool, gpuType, gpus, startsAt, endsAt, now,
				preemptible, cluster, quote, nodes, version + 1, createdAt);
		return new Cancellation(cancelled, freedFrom.isBefore(endsAt) ? freedFrom : null);
	}

	/** The reservation ending later, with the extension's quote added; only a live one, only later. */
	Reservation extendTo(Instant newEnd, QuotaDecision extension, Instant now) {
		requireChangeable(now);
		requireLaterEnd(newEnd);
		return new Reservation(id, tenant, project, pool, gpuType, gpus, startsAt, newEnd, cancelledAt, preemptible,
				cluster, quote.plus(extension), nodes, version + 1, createdAt);
	}

	void requireExtensible(Instant newEnd, @Nullable String ifMatch, Instant now) {
		if (ifMatch != null && !ifMatch.equals(etag())) {
			throw AllotException.preconditionFailed("Reservation " + id + " has changed; its ETag is " + etag());
		}
		requireChangeable(now);
		requireLaterEnd(newEnd);
	}

	private void requireLaterEnd(Instant newEnd) {
		if (!newEnd.isAfter(endsAt)) {
			throw InvalidInputException.of("endsAt", "must be later than the current endsAt " + endsAt);
		}
	}

	private void requireChangeable(Instant now) {
		ReservationStatus status = status(now);
		if (status == ReservationStatus.CANCELLED || status == ReservationStatus.COMPLETED) {
			throw AllotException.conflict("reservation_" + status.name().toLowerCase(),
					"Reservation " + id + " is " + status + " and cannot change").with("status", status);
		}
	}

}
