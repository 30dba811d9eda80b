package dev.allot.provisioning.driver.slurm;

import dev.allot.provisioning.driver.BuildStep;
import dev.allot.provisioning.driver.ClusterBlueprint;
import dev.allot.provisioning.driver.ClusterRef;
import dev.allot.provisioning.driver.DriverFailedException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The booked shared memory on Slurm. Checked before anything is created: a job's {@code /dev/shm} is a tmpfs on the
 * node, bounded by the node's memory, so every reserved node must declare ({@code RealMemory} in slurm.conf, as its
 * slurmd reports) at least the booked size; a node that cannot is a booking Slurm cannot honour, refused for good.
 * <p>
 * Enforced when the pool has a {@code slurm.shm-dir}: the controller must run {@code job_container/tmpfs} with
 * {@code PrologFlags=Contain} and a {@code Prolog} (the nodes' {@code ops/slurm/allot-shm-prolog.sh}), and the
 * driver writes the booked size, in GiB, to {@code <shm-dir>/allot-<reservation id>}; the Prolog then gives every
 * job of that reservation (or partition) a private tmpfs {@code /dev/shm} of exactly that size. Teardown removes
 * the file.
 */
final class SlurmSharedMemory {

    private final SlurmCommands slurm;

    private final SlurmErrors errors;

    private final @Nullable Path dir;

    SlurmSharedMemory(SlurmCommands slurm, SlurmErrors errors, @Nullable Path dir) {
        this.slurm = slurm;
        this.errors = errors;
        this.dir = dir;
    }

    /** Refuses (not retryable) nodes whose memory cannot hold the booked /dev/shm. */
    void requireFits(ClusterBlueprint spec) {
        long askedMiB = spec.sharedMemoryGi() * 1024L;
        Map<String, Long> memory = new SlurmNodes(slurm, errors).realMemoryMiB();
        List<String> tooSmall = new ArrayList<>();
        for (String node : spec.nodes()) {
            Long mib = memory.get(node);
            if (mib != null && mib < askedMiB) {
                tooSmall.add(node + " (RealMemory=" + mib + " MiB)");
            }
        }
        if (!tooSmall.isEmpty()) {
            throw new DriverFailedException(
                    "cluster.sharedMemoryGi: " + spec.sharedMemoryGi() + " GiB of /dev/shm ("
                            + askedMiB + " MiB) does not fit in the memory of Slurm node(s) "
                            + String.join(", ", tooSmall)
                            + "; see scontrol show node",
                    false);
        }
    }

    /**
     * Refuses (not retryable) a controller that would not size /dev/shm per job, before anything is created; empty
     * when the pool does not enforce the size.
     */
    Optional<String> requireEnforcing() {
        if (dir == null) {
            return Optional.empty();
        }
        SlurmCommands.Result config = slurm.run("scontrol", "show", "config");
        if (!config.ok()) {
            throw errors.failed("scontrol show config", config, List.of());
        }
        String container = SlurmRecord.setting(config.stdout(), "JobContainerType");
        String flags = SlurmRecord.setting(config.stdout(), "PrologFlags");
        String prolog = SlurmRecord.setting(config.stdout(), "Prolog");
        List<String> problems = new ArrayList<>();
        if (!container.equals("job_container/tmpfs")) {
            problems.add("JobContainerType is " + orNone(container) + ", not job_container/tmpfs");
        }
        if (!Set.of(flags.toLowerCase(Locale.ROOT).split(",")).contains("contain")) {
            problems.add("PrologFlags is " + orNone(flags) + ", without Contain");
        }
        if (prolog.isEmpty()) {
            problems.add("no Prolog is set (the nodes need ops/slurm/allot-shm-prolog.sh)");
        }
        if (!problems.isEmpty()) {
            throw new DriverFailedException(
                    "slurm.shm-dir is set, so each job's /dev/shm must be sized, but the Slurm " + "controller cannot: "
                            + String.join("; ", problems) + " (see scontrol show config)",
                    false);
        }
        return Optional.of(prolog);
    }

    /** Writes the booked size for the reservation's jobs and reads it back; empty when the pool does not enforce it. */
    Optional<BuildStep> enforce(ClusterBlueprint spec, String prolog) {
        if (dir == null) {
            return Optional.empty();
        }
        String file = file(spec.ref());
        String size = Integer.toString(spec.sharedMemoryGi());
        run(size + "\n", "dd", "of=" + file + ".new", "status=none");
        run("", "mv", "-f", "--", file + ".new", file);
        String read = run("", "cat", "--", file).stdout().strip();
        if (!read.equals(size)) {
            throw new DriverFailedException(file + " holds '" + read + "' after writing " + size, true);
        }
        return Optional.of(new BuildStep(
                "Every job of Slurm reservation " + spec.ref().name() + " (and of its partition)"
                        + " gets a private tmpfs /dev/shm of " + size + " GiB: " + file + " holds " + size
                        + ", which the Prolog "
                        + prolog + " mounts under job_container/tmpfs with PrologFlags=Contain",
                "cat " + file + "; in a job: df -h /dev/shm"));
    }

    /** Whether the reservation's size file is there (always, when the pool does not enforce the size). */
    boolean present(ClusterRef ref) {
        return dir == null || slurm.run("test", "-f", file(ref)).ok();
    }

    /** Removes the reservation's size file, if any. */
    void remove(ClusterRef ref) {
        if (dir != null) {
            run("", "rm", "-f", "--", file(ref));
        }
    }

    private String file(ClusterRef ref) {
        return dir + "/" + ref.name();
    }

    private SlurmCommands.Result run(String input, String... command) {
        SlurmCommands.Result result = slurm.runWithInput(input, command);
        if (!result.ok()) {
            throw errors.failed(String.join(" ", command), result, List.of());
        }
        return result;
    }

    private static String orNone(String value) {
        return value.isEmpty() ? "unset" : value;
    }
}
