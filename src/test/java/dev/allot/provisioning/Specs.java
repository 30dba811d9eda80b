package dev.allot.provisioning;

import dev.allot.booking.spec.ClusterSpec.Orchestrator;
import dev.allot.provisioning.driver.ClusterBlueprint;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/** Cluster specs for driver tests: each with its own reservation and tenant, so tests never share state. */
public final class Specs {

    private Specs() {}

    public static ClusterBlueprint kubernetes(List<String> nodes) {
        return spec(
                Orchestrator.KUBERNETES,
                nodes,
                Instant.now().plus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.HOURS),
                List.of(new ClusterBlueprint.Volume("data", 100), new ClusterBlueprint.Volume("scratch", 20)));
    }

    /** A window far ahead, at a random hour, so that leftovers of an earlier run never overlap it. */
    public static ClusterBlueprint slurm(List<String> nodes) {
        Instant start = Instant.parse("2031-01-01T00:00:00Z")
                .plus(ThreadLocalRandom.current().nextInt(0, 24 * 365 * 5), ChronoUnit.HOURS);
        return slurm(newTenant(), nodes, start, start.plus(4, ChronoUnit.HOURS));
    }

    public static ClusterBlueprint slurm(String tenant, List<String> nodes, Instant startsAt, Instant endsAt) {
        return new ClusterBlueprint(
                UUID.randomUUID(),
                tenant,
                "training",
                nodes,
                8,
                startsAt,
                endsAt,
                Orchestrator.SLURM,
                "550.54.15",
                64,
                List.of(),
                List.of("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBx test@allot"));
    }

    public static ClusterBlueprint spec(
            Orchestrator orchestrator, List<String> nodes, Instant startsAt, List<ClusterBlueprint.Volume> volumes) {
        return new ClusterBlueprint(
                UUID.randomUUID(),
                newTenant(),
                "training",
                nodes,
                8,
                startsAt,
                startsAt.plus(2, ChronoUnit.DAYS),
                orchestrator,
                "550.54.15",
                64,
                volumes,
                List.of("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBx test@allot"));
    }

    public static String newTenant() {
        return "t" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    }
}
