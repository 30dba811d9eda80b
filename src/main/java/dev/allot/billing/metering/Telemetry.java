package dev.allot.billing.metering;

import dev.allot.billing.budgets.Notifications;
import dev.allot.billing.config.BillingProperties;
import dev.allot.inventory.Inventory;
import dev.allot.shared.AllotException;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.InvalidInputException.FieldError;
import dev.allot.shared.security.Caller;
import java.math.BigDecimal;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
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
    public record Ingested(int accepted, List<UUID> flagged) {}

    /** What a collector's scrape stored, and how many of its samples were refused (and dropped). */
    public record Collected(int stored, int refused, List<UUID> flagged) {}

    private static final int MAX_SAMPLES = 10_000;

    private final JdbcClient jdbc;

    private final Inventory inventory;

    private final Notifications notifications;

    private final BillingProperties properties;

    private final Clock clock;

    Telemetry(
            JdbcClient jdbc,
            Inventory inventory,
            Notifications notifications,
            BillingProperties properties,
            Clock clock) {
        this.jdbc = jdbc;
        this.inventory = inventory;
        this.notifications = notifications;
        this.properties = properties;
        this.clock = clock;
    }

    public Ingested ingest(Caller caller, List<GpuSample> samples) {
        caller.requirePlatformAdmin();
        if (samples.isEmpty() || samples.size() > MAX_SAMPLES) {
            throw InvalidInputException.of("samples", "must hold 1 to " + MAX_SAMPLES + " samples");
        }
        List<Refusal> refusals = check(samples);
        if (!refusals.isEmpty()) {
            refuse(refusals);
        }
        return store(samples);
    }

    /**
     * Stores what a scrape of a pool's exporter read, less the samples the API would refuse and those of nodes
     * outside the pool, which are dropped and counted.
     */
    public Collected collect(String pool, List<GpuSample> samples) {
        Set<Integer> refused = new HashSet<>();
        check(samples).forEach(r -> refused.add(r.index()));
        Map<String, Boolean> inPool = new HashMap<>();
        List<GpuSample> kept = new ArrayList<>();
        for (int i = 0; i < samples.size(); i++) {
            GpuSample s = samples.get(i);
            if (!refused.contains(i)
                    && inPool.computeIfAbsent(
                            s.node(),
                            node -> inventory
                                    .findNode(node)
                                    .map(n -> n.pool().equals(pool))
                                    .orElse(false))) {
                kept.add(s);
            }
        }
        if (kept.isEmpty()) {
            return new Collected(0, samples.size(), List.of());
        }
        return new Collected(
                kept.size(), samples.size() - kept.size(), store(kept).flagged());
    }

    private Ingested store(List<GpuSample> samples) {
        for (GpuSample s : samples) {
            jdbc.sql("""
					INSERT INTO gpu_utilisation_sample (hostname, gpu, at, utilisation) VALUES (?, ?, ?, ?)
					ON CONFLICT DO NOTHING""")
                    .params(s.node(), s.gpu(), Timestamp.from(s.time()), s.utilisation())
                    .update();
        }
        Set<String> hosts = new LinkedHashSet<>();
        samples.forEach(s -> hosts.add(s.node()));
        Instant latest = samples.stream()
                .map(GpuSample::time)
                .max(Comparator.naturalOrder())
                .orElseThrow();
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
					    SELECT ctid FROM gpu_utilisation_sample WHERE at < ? LIMIT 10000))""").param(before).update();
            purged += batch;
        } while (batch > 0);
        return purged;
    }

    private List<UUID> flagIdle(Set<String> hosts, Instant at) {
        Instant since = at.minus(properties.idleAfter());
        record Candidate(UUID id, UUID tenantId, String tenant, BigDecimal max) {}
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
                .query((rs, n) -> new Candidate(
                        rs.getObject(1, UUID.class), rs.getObject(2, UUID.class), rs.getString(3), rs.getBigDecimal(4)))
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
                String webhook = notifications.webhookOf(c.tenantId());
                notifications.raise(
                        c.tenantId(),
                        Notifications.Kind.IDLE_RESERVATION,
                        "idle:" + c.id(),
                        "Reservation " + c.id() + " is reserved but idle: its GPUs stayed under "
                                + properties.idleThreshold() + " % since " + since,
                        Map.of(
                                "reservationId",
                                c.id().toString(),
                                "idleSince",
                                since.toString(),
                                "maxUtilisation",
                                c.max(),
                                "threshold",
                                properties.idleThreshold()),
                        webhook,
                        now);
                flagged.add(c.id());
            }
        }
        return flagged;
    }

    /**
     * What is wrong with each sample of a batch, by index (empty when all may be stored): malformed fields
     * (a missing or unknown node, a GPU index or utilisation out of range, no time), or a sample that cannot be
     * true: stamped ahead of Allot's clock by more than the allowed skew, or at an instant when no reservation
     * held its node. The API refuses a whole batch on any of them; the collector drops just those samples.
     */
    List<Refusal> check(List<GpuSample> samples) {
        List<Refusal> refusals = new ArrayList<>();
        Set<String> known = new LinkedHashSet<>();
        Set<String> unknown = new LinkedHashSet<>();
        Instant latest = clock.instant().plus(properties.telemetryClockSkew());
        List<Integer> placed = new ArrayList<>();
        for (int i = 0; i < samples.size(); i++) {
            GpuSample s = samples.get(i);
            String at = "samples[" + i + "].";
            boolean nodeKnown = false;
            if (s.node() == null || s.node().isBlank()) {
                refusals.add(Refusal.malformed(i, at + "node", "is required"));
            } else if (known.contains(s.node())
                    || !unknown.contains(s.node())
                            && inventory.findNode(s.node()).isPresent()) {
                known.add(s.node());
                nodeKnown = true;
            } else {
                unknown.add(s.node());
                refusals.add(Refusal.malformed(i, at + "node", "no such node"));
            }
            if (s.gpu() == null || s.gpu() < 0 || s.gpu() > 63) {
                refusals.add(Refusal.malformed(i, at + "gpu", "must be a GPU index from 0 to 63"));
            }
            if (s.utilisation() == null
                    || s.utilisation().signum() < 0
                    || s.utilisation().compareTo(BigDecimal.valueOf(100)) > 0) {
                refusals.add(Refusal.malformed(i, at + "utilisation", "must be a percentage from 0 to 100"));
            }
            if (s.time() == null) {
                refusals.add(Refusal.malformed(i, at + "time", "is required"));
            } else if (s.time().isAfter(latest)) {
                refusals.add(Refusal.implausible(
                        i,
                        at + "time",
                        "is in the future (more than "
                                + properties.telemetryClockSkew().toSeconds() + " s ahead of Allot's clock)"));
            } else if (nodeKnown) {
                placed.add(i);
            }
        }
        for (int i : unreserved(samples, placed)) {
            refusals.add(Refusal.implausible(
                    i,
                    "samples[" + i + "].time",
                    "node " + samples.get(i).node() + " was under no reservation at "
                            + samples.get(i).time()));
        }
        refusals.sort(Comparator.comparingInt(Refusal::index));
        return refusals;
    }

    /** Which of the samples at these indices fall outside every reservation that held their node. */
    private List<Integer> unreserved(List<GpuSample> samples, List<Integer> indices) {
        if (indices.isEmpty()) {
            return List.of();
        }
        String[] hosts = indices.stream().map(i -> samples.get(i).node()).toArray(String[]::new);
        String[] times = indices.stream()
                .map(i -> Objects.requireNonNull(samples.get(i).time(), "a checked sample has its time")
                        .toString())
                .toArray(String[]::new);
        return jdbc.sql("""
				SELECT s.n FROM unnest(CAST(? AS text[]), CAST(CAST(? AS text[]) AS timestamptz[]))
				    WITH ORDINALITY AS s(hostname, at, n)
				WHERE NOT EXISTS (SELECT 1 FROM billable_reservation r
				    WHERE s.hostname = ANY (r.nodes) AND r.starts_at <= s.at
				      AND s.at < least(r.ends_at, coalesce(r.stopped_at, r.ends_at), coalesce(r.failed_at, r.ends_at)))
				ORDER BY s.n""")
                .params(hosts, times)
                .query((rs, n) -> indices.get(rs.getInt(1) - 1))
                .list();
    }

    private static void refuse(List<Refusal> refusals) {
        List<FieldError> errors =
                refusals.stream().limit(50).map(Refusal::error).toList();
        if (refusals.stream().anyMatch(Refusal::malformed)) {
            throw new InvalidInputException(errors);
        }
        throw AllotException.unprocessable(
                        "implausible_sample",
                        errors.stream()
                                .map(e -> e.field() + ": " + e.message())
                                .reduce((a, b) -> a + "; " + b)
                                .orElse(""))
                .with("errors", errors);
    }

    /** One refused field of one sample; malformed (400) or well-formed but implausible (422). */
    record Refusal(int index, FieldError error, boolean malformed) {

        static Refusal malformed(int index, String field, String message) {
            return new Refusal(index, new FieldError(field, message), true);
        }

        static Refusal implausible(int index, String field, String message) {
            return new Refusal(index, new FieldError(field, message), false);
        }
    }
}
