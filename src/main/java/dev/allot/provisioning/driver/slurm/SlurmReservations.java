package dev.allot.provisioning.driver.slurm;

import dev.allot.provisioning.driver.ClusterBlueprint;
import dev.allot.provisioning.driver.ClusterRef;
import dev.allot.provisioning.driver.DriverFailedException;
import dev.allot.provisioning.driver.NodesUnavailableException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A reservation's Slurm reservation ({@code allot-<reservation id>}) on exactly the reserved nodes for the window,
 * open to the tenant's account: {@code scontrol create}, {@code update}, {@code show} and {@code delete reservation}.
 * What Slurm made is read back and removed when it is not what was asked for.
 */
final class SlurmReservations {

    private static final Logger log = LoggerFactory.getLogger(SlurmReservations.class);

    private static final DateTimeFormatter SLURM_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss");

    private final String pool;

    private final ZoneId timeZone;

    private final SlurmCommands slurm;

    private final SlurmErrors errors;

    private final SlurmNodes nodes;

    SlurmReservations(String pool, ZoneId timeZone, SlurmCommands slurm, SlurmErrors errors, SlurmNodes nodes) {
        this.pool = pool;
        this.timeZone = timeZone;
        this.slurm = slurm;
        this.errors = errors;
        this.nodes = nodes;
    }

    /** Creates or adjusts the reservation; {@code done[0]} says which ({@code created}, {@code updated}, {@code found}). */
    SlurmReservation ensure(ClusterBlueprint spec, String[] done) {
        ClusterRef ref = spec.ref();
        Optional<SlurmReservation> existing = find(ref);
        Instant now = Instant.now();
        // A window that has begun (a late or repeated provision) starts now: Slurm refuses a start in the past.
        boolean started = !spec.startsAt().isAfter(now.plusSeconds(5));
        Instant end = spec.endsAt().truncatedTo(ChronoUnit.SECONDS);
        String startTime = started ? "now" : slurmTime(spec.startsAt());
        long seconds = Duration.between(spec.startsAt(), end).toSeconds();
        // Duration counts whole minutes; a window that is not (or that has begun) gets its exact end instead.
        String length = !started && seconds % 60 == 0 ? "Duration=" + seconds / 60 : "EndTime=" + slurmTime(end);
        String nodes = String.join(",", spec.nodes());
        if (existing.isEmpty()) {
            SlurmCommands.Result created = slurm.run(
                    "scontrol",
                    "create",
                    "reservation",
                    "ReservationName=" + ref.name(),
                    "StartTime=" + startTime,
                    length,
                    "Nodes=" + nodes,
                    "Accounts=" + ref.tenant(),
                    "Features=" + SlurmCudaFeature.of(spec));
            if (!created.ok()) {
                throw errors.failed("scontrol create reservation " + ref.name(), created, spec.nodes());
            }
            log.info("Created Slurm reservation {} on {} from {} ({})", ref.name(), nodes, startTime, length);
            done[0] = "created";
        } else if (!existing.get().matches(spec.nodes(), ref.tenant(), end)) {
            // An earlier attempt for a different window or node set (an extension or a migration): adjust it.
            SlurmCommands.Result updated = slurm.run(
                    "scontrol",
                    "update",
                    "ReservationName=" + ref.name(),
                    "EndTime=" + slurmTime(end),
                    "Nodes=" + nodes,
                    "Accounts=" + ref.tenant());
            if (!updated.ok()) {
                throw errors.failed("scontrol update reservation " + ref.name(), updated, spec.nodes());
            }
            done[0] = "updated";
        } else {
            done[0] = "found";
        }
        SlurmReservation actual = find(ref)
                .orElseThrow(() -> new DriverFailedException("Slurm reservation " + ref.name() + " vanished", true));
        verify(spec, actual, started);
        return actual;
    }

    /** Slurm reads times in the controller's time zone. */
    private String slurmTime(Instant instant) {
        return SLURM_TIME.format(LocalDateTime.ofInstant(instant, timeZone));
    }

    /** Fails, and removes what Slurm made, when it is not what was asked for. */
    private void verify(ClusterBlueprint spec, SlurmReservation actual, boolean started) {
        Set<String> missing = new LinkedHashSet<>(spec.nodes());
        missing.removeAll(actual.nodes());
        Set<String> extra = new LinkedHashSet<>(actual.nodes());
        extra.removeAll(spec.nodes());
        boolean startWrong =
                !started && !actual.startsAt().equals(spec.startsAt().truncatedTo(ChronoUnit.SECONDS));
        boolean endWrong = !actual.endsAt().equals(spec.endsAt().truncatedTo(ChronoUnit.SECONDS));
        if (missing.isEmpty()
                && extra.isEmpty()
                && !startWrong
                && !endWrong
                && actual.accounts().equals(List.of(spec.tenant()))) {
            return;
        }
        slurm.run("scontrol", "delete", "ReservationName=" + actual.name());
        if (!missing.isEmpty()) {
            throw new NodesUnavailableException(
                    List.copyOf(missing), "Slurm reserved only " + actual.nodes() + " of " + spec.nodes());
        }
        throw new DriverFailedException(
                "Slurm reservation " + actual.name() + " differs from the request: " + actual
                        + " (check allot.provisioning.pools." + pool + ".slurm.time-zone)",
                false);
    }

    Optional<SlurmReservation> find(ClusterRef ref) {
        SlurmCommands.Result shown = slurm.run("scontrol", "show", "reservation", ref.name(), "--oneliner");
        if (!shown.ok()) {
            if (SlurmErrors.notFound(shown)) {
                return Optional.empty();
            }
            throw errors.failed("scontrol show reservation", shown, List.of());
        }
        SlurmRecord record = SlurmRecord.parse(shown.stdout());
        return Optional.of(new SlurmReservation(
                record.get("ReservationName"),
                nodes.hostnames(record.get("Nodes")),
                List.of(record.get("Accounts").split(",")),
                Instant.ofEpochSecond(Long.parseLong(record.get("StartTime"))),
                Instant.ofEpochSecond(Long.parseLong(record.get("EndTime"))),
                record.get("Features")));
    }

    /** The reservation as it exists; fails (not retryable) when it does not. */
    SlurmReservation existing(ClusterRef ref) {
        return find(ref)
                .orElseThrow(
                        () -> new DriverFailedException("Slurm reservation " + ref.name() + " does not exist", false));
    }

    /** Moves the reservation onto {@code wanted} (after a {@code change} of nodes) and reads back what Slurm granted. */
    void moveTo(ClusterRef ref, Set<String> wanted, List<String> change) {
        String nodes = String.join(",", wanted);
        SlurmCommands.Result updated =
                slurm.run("scontrol", "update", "ReservationName=" + ref.name(), "Nodes=" + nodes);
        if (!updated.ok()) {
            throw errors.failed("scontrol update reservation " + ref.name(), updated, List.copyOf(change));
        }
        List<String> granted = find(ref).map(SlurmReservation::nodes).orElse(List.of());
        if (!Set.copyOf(granted).equals(wanted)) {
            throw new NodesUnavailableException(
                    List.copyOf(change), "Slurm holds " + granted + " instead of " + wanted);
        }
    }

    /** Deletes the reservation; a reservation already gone is no failure. */
    void delete(ClusterRef ref) {
        SlurmCommands.Result reservation = slurm.run("scontrol", "delete", "ReservationName=" + ref.name());
        if (!reservation.ok() && find(ref).isPresent()) {
            throw errors.failed("scontrol delete reservation " + ref.name(), reservation, List.of());
        }
    }
}
