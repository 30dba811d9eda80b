package dev.allot.cli;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

import dev.allot.client.ApiException;
import dev.allot.client.api.ReservationsApi;
import dev.allot.client.model.ClusterStatusBody;
import dev.allot.client.model.ReservationBody;
import dev.allot.client.model.ReservationRequest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Books, and optionally waits for the cluster. With --idempotency-key a retried pipeline step gets the same
 * reservation back instead of a second one.
 */
@Command(name = "book", description = "Book whole nodes for a window; optionally wait until the cluster is READY.")
class BookCommand implements Callable<Integer> {

	@Mixin
	Session session;

	@Mixin
	BookingOptions booking;

	@Option(names = "--idempotency-key", description = "Retries of the same request with the same key return the same "
			+ "reservation; a retry must send the same window, so pass --start (the earliest window moves with time).")
	String idempotencyKey;

	@Option(names = "--wait", paramLabel = "STATE", description = "Wait for the cluster state, e.g. READY.")
	String waitFor;

	@Option(names = "--wait-timeout", defaultValue = "PT30M",
			description = "Give up waiting after (default: ${DEFAULT-VALUE}).")
	Duration waitTimeout;

	@Override
	public Integer call() throws ApiException {
		ReservationRequest request = this.booking.request(this.session);
		String tenant = this.session.tenant();
		ReservationBody reservation = new ReservationsApi(this.session.client()).createReservation(tenant, request,
				this.idempotencyKey);
		if (!this.session.json()) {
			this.session.println("Booked " + reservation.getId() + ": " + reservation.getGpus() + " GPUs in "
					+ reservation.getPool() + " " + reservation.getStartsAt().toInstant() + " .. "
					+ reservation.getEndsAt().toInstant() + ", " + BookingOptions.price(reservation.getQuote()));
		}
		ClusterStatusBody cluster = null;
		if (this.waitFor != null) {
			cluster = ClusterWait.until(this.session, tenant, reservation.getId(), this.waitFor, this.waitTimeout);
			if (!this.session.json()) {
				this.session.println("Cluster " + cluster.getState() + StatusCommand.endpoints(cluster));
			}
		}
		if (this.session.json()) {
			Map<String, Object> out = new LinkedHashMap<>();
			out.put("reservation", reservation);
			if (cluster != null) {
				out.put("cluster", cluster);
			}
			this.session.printJson(out);
		}
		return ExitCodes.OK;
	}

}
