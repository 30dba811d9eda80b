package dev.allot.cli;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.Callable;

import dev.allot.client.ApiException;
import dev.allot.client.api.ReservationsApi;
import dev.allot.client.model.ReservationBody;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "cancel", description = "Cancel a reservation; its nodes are freed from the next whole minute.")
class CancelCommand implements Callable<Integer> {

	@Mixin
	Session session;

	@Parameters(paramLabel = "RESERVATION")
	UUID id;

	@Option(names = "--wait", paramLabel = "STATE",
			description = "Wait for the cluster state, e.g. DELETED (its nodes are then free for the next booking).")
	String waitFor;

	@Option(names = "--wait-timeout", defaultValue = "PT10M",
			description = "Give up waiting after (default: ${DEFAULT-VALUE}).")
	Duration waitTimeout;

	@Override
	public Integer call() throws ApiException {
		ReservationBody cancelled = new ReservationsApi(this.session.client()).cancelReservation(this.session.tenant(),
				this.id, null);
		if (this.waitFor != null) {
			ClusterWait.until(this.session, this.session.tenant(), this.id, this.waitFor, this.waitTimeout);
		}
		if (this.session.json()) {
			this.session.printJson(cancelled);
		}
		else {
			this.session.println(cancelled.getId() + " " + cancelled.getStatus());
		}
		return ExitCodes.OK;
	}

}
