package dev.allot.billing.metering;

import java.math.BigDecimal;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import dev.allot.billing.budgets.Notifications;
import dev.allot.inventory.Inventory;
import dev.allot.shared.AllotException;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.InvalidInputException.FieldError;
import dev.allot.shared.security.Caller;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * GPU-utilisation samples from the fleet's exporters, and idle detection: a live reservation is flagged
 * ("reserved but idle") once every one of its nodes has reported and none of its GPUs reached the threshold
 * for the configured time, having been watched at least that long. Flagged once, told to its tenant (a
 * notification, and its webhook) and to admins (the platform report).
 */
@Service
@Transactional
public class Telemetry {

	/** What an ingestion did. */
	public record Ingested(int accepted, List<UUID> flagged) {
	}

	private static final int MAX_SAMPLES = 10_000;

	private final JdbcClient jdbc;

	private final Inventory inventory;

	private final Notifications notifications;

	private final BillingProperties properties;

	private final Clock clock;

	Telemetry(JdbcClient jdbc, Inventory inventory, Notifications notifications, BillingProperties properties,
			Clock clock) {
		this.jdbc = jdbc;
		this.inventory = inventory;
		this.notifications = notifications;
		this.properties = properties;
		this.clock = clock;
	}

	public Ingested ingest(Caller caller, List<GpuSample> samples) {
		caller.requirePlatformAdmin();
		validate(caller, samples);
		for (GpuSample s : samples) {
			jdbc.sql("""
					INSERT INTO gpu_utilisation_sample (hostname, gpu, at, utilisation) VALUES (?, ?, ?, ?)
					ON CONFLICT DO NOTHING""")
				.params(s.node(), s.gpu(), Timestamp.from(s.time()), s.utilisation())
				.update();
		}
		Set<String> hosts = new LinkedHashSet<>();
		samples.forEach(s -> hosts.add(s.node()));
		Instant latest = samples.stream().map(GpuSample::time).max(Comparator.naturalOrder()).orElseThrow();
		return new Ingested(samples.size(), flagIdle(hosts, latest));
	}

	/**
	 * Deletes samples older than the retention, in batches (each its own short statement, so a large purge
	 * neither holds locks long nor bloats one transaction); answers how many went.
	 */
	@Transactional(propagation = Propagation.NOT_SUPPORTED)
	public long purge(Instant now) {
		Timestamp before = Timestamp.from(now.minus(properties.telemetryRetention()));
		long purged = 0;
		int batch;
		do {
			batch = jdbc.sql("""
					DELETE FROM gpu_utilisation_sample WHERE ctid = ANY (ARRAY(
					    SELECT ctid FROM gpu_utilisation_sample WHERE at < ? LIMIT 10000))""")
				.param(before)
				.update();
			purged += batch;
		}
		while (batch > 0);
		return purged;
	}

	private List<UUID> flagIdle(Set<String> hosts, Instant at) {
		Instant since = at.minus(properties.idleAfter());
		record Candidate(UUID id, UUID tenantId, String tenant, BigDecimal max) {
		}
		List<Candidate> idle = jdbc.sql("""
				SELECT r.reservation_id, r.tenant_id, r.tenant_slug, w.max_utilisation
				FROM billable_reservation r
				CROSS JOIN LATERAL (
				    SELECT max(s.utilisation) AS max_utilisation, count(DISTINCT s.hostname) AS nodes_seen
				    FROM gpu_utilisation_sample s WHERE s.hostname = ANY (r.nodes) AND s.at BETWEEN :since AND :at) w
				WHERE r.nodes && string_to_array(:hosts, ',') AND r.failed_at IS NULL
				  AND greatest(r.starts_at, coalesce(r.ready_at, r.starts_at)) <= :since
				  AND least(r.ends_at, coalesce(r.stopped_at, r.ends_at)) > :at
				  AND w.nodes_seen = cardinality(r.nodes) AND w.max_utilisation < :threshold
				  AND EXISTS (SELECT 1 FROM gpu_utilisation_sample s WHERE s.hostname = ANY (r.nodes)
				              AND s.at >= greatest(r.starts_at, coalesce(r.ready_at, r.starts_at)) AND s.at <= :since)
				  AND NOT EXISTS (SELECT 1 FROM idle_flag f WHERE f.reservation_id = r.reservation_id)""")
			.param("since", Timestamp.from(since))
			.param("at", Timestamp.from(at))
			.param("hosts", String.join(",", hosts))
			.param("threshold", properties.idleThreshold())
			.query((rs, n) -> new Candidate(rs.getObject(1, UUID.class), rs.getObject(2, UUID.class), rs.getString(3),
					rs.getBigDecimal(4)))
			.list();
		List<UUID> flagged = new ArrayList<>();
		Instant now = clock.instant();
		for (Candidate c : idle) {
			int inserted = jdbc.sql("""
					INSERT INTO idle_flag (reservation_id, tenant_id, idle_since, flagged_at, max_utilisation)
					VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING""")
				.params(c.id(), c.tenantId(), Timestamp.from(since), Timestamp.from(now), c.max())
				.update();
			if (inserted == 1) {
				String webhook = jdbc.sql("SELECT webhook_url FROM tenant_budget WHERE tenant_id = ?")
					.param(c.tenantId())
					.query(String.class)
					.optional()
					.orElse(null);
				notifications.raise(c.tenantId(), Notifications.Kind.IDLE_RESERVATION, "idle:" + c.id(),
						"Reservation " + c.id() + " is reserved but idle: its GPUs stayed under "
								+ properties.idleThreshold() + " % since " + since,
						Map.of("reservationId", c.id().toString(), "idleSince", since.toString(), "maxUtilisation",
								c.max(), "threshold", properties.idleThreshold()),
						webhook, now);
				flagged.add(c.id());
			}
		}
		return flagged;
	}

	private void validate(Caller caller, List<GpuSample> samples) {
		if (samples.isEmpty() || samples.size() > MAX_SAMPLES) {
			throw InvalidInputException.of("samples", "must hold 1 to " + MAX_SAMPLES + " samples");
		}
		List<FieldError> errors = new ArrayList<>();
		Set<String> known = new LinkedHashSet<>();
		Instant latest = clock.instant().plus(Duration.ofMinutes(5));
		for (int i = 0; i < samples.size() && errors.size() < 50; i++) {
			GpuSample s = samples.get(i);
			String at = "samples[" + i + "].";
			if (s.node() == null || s.node().isBlank()) {
				errors.add(new FieldError(at + "node", "is required"));
			}
			else if (!known.contains(s.node())) {
				if (exists(caller, s.node())) {
					known.add(s.node());
				}
				else {
					errors.add(new FieldError(at + "node", "no such node"));
				}
			}
			if (s.gpu() == null || s.gpu() < 0 || s.gpu() > 63) {
				errors.add(new FieldError(at + "gpu", "must be a GPU index from 0 to 63"));
			}
			if (s.utilisation() == null || s.utilisation().signum() < 0
					|| s.utilisation().compareTo(BigDecimal.valueOf(100)) > 0) {
				errors.add(new FieldError(at + "utilisation", "must be a percentage from 0 to 100"));
			}
			if (s.time() == null || s.time().isAfter(latest)) {
				errors.add(new FieldError(at + "time", "is required and may not be in the future"));
			}
		}
		if (!errors.isEmpty()) {
			throw new InvalidInputException(errors);
		}
	}

	private boolean exists(Caller caller, String hostname) {
		try {
			inventory.node(caller, hostname);
			return true;
		}
		catch (AllotException ex) {
			if (ex.status() == 404) {
				return false;
			}
			throw ex;
		}
	}

}
