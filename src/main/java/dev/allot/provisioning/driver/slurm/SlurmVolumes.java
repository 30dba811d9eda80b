package dev.allot.provisioning.driver.slurm;

import dev.allot.provisioning.driver.ClusterBlueprint;
import dev.allot.provisioning.driver.ClusterRef;
import dev.allot.provisioning.driver.DriverFailedException;
import dev.allot.provisioning.driver.ProvisionedVolume;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.jspecify.annotations.Nullable;

/**
 * A Slurm pool's volumes: directories {@code <root>/allot-<reservation id>/<volume>} on a filesystem its nodes
 * share, made and removed with plain commands through the pool's command prefix (so on the cluster's side, as
 * {@code scontrol} runs). The reservation's directory is {@code 0711} (no listing of other tenants' volumes); a
 * volume's is owned by the tenant's group with {@code 2770} when a group is configured, else {@code 0700}.
 * Paths are built only from the configured root, a reservation id and a DNS-label name, so no path leaves the
 * root; removal and measuring never follow symbolic links nor cross into another filesystem.
 */
final class SlurmVolumes {

    private final @Nullable Path root;

    private final @Nullable String group;

    private final SlurmCommands commands;

    private final SlurmErrors errors;

    SlurmVolumes(@Nullable Path root, @Nullable String group, SlurmCommands commands, SlurmErrors errors) {
        this.root = root;
        this.group = group;
        this.commands = commands;
        this.errors = errors;
    }

    /** Makes (or finds) each volume's directory with its ownership and mode, and reads back what is there. */
    List<ProvisionedVolume> ensure(ClusterBlueprint spec) {
        if (spec.volumes().isEmpty()) {
            return List.of();
        }
        String base = reservationDir(spec.ref());
        List<ProvisionedVolume> made = new ArrayList<>();
        for (ClusterBlueprint.Volume volume : spec.volumes()) {
            String dir = base + "/" + volume.name();
            run("mkdir", "-p", "--", dir);
            run("chmod", "0711", "--", base);
            if (group != null) {
                run("chgrp", "--no-dereference", "--", group.replace("{tenant}", spec.tenant()), dir);
                run("chmod", "2770", "--", dir);
            } else {
                run("chmod", "0700", "--", dir);
            }
            String shown = run("stat", "-c", "%U:%G %A", "--", dir).stdout().strip();
            made.add(new ProvisionedVolume(volume.name(), dir, "ls -ld " + dir, shown));
        }
        return made;
    }

    /** Removes the volumes' directories, and the reservation's directory once it holds no more. */
    void remove(ClusterRef ref, List<String> names) {
        if (root == null || names.isEmpty()) {
            return;
        }
        String base = root + "/" + ref.name();
        for (String name : names) {
            ClusterBlueprint.Volume checked = new ClusterBlueprint.Volume(name, 1);
            run("rm", "-rf", "--one-file-system", "--", base + "/" + checked.name());
        }
        // Still holds retained volumes, or already gone: either is fine.
        commands.run("rmdir", "--", base);
    }

    /** Bytes allocated on disk under the volume's directory ({@code du}: no links followed, one filesystem). */
    OptionalLong usage(ClusterRef ref, String name) {
        if (root == null) {
            return OptionalLong.empty();
        }
        String dir = root + "/" + ref.name() + "/" + new ClusterBlueprint.Volume(name, 1).name();
        SlurmCommands.Result du = commands.run("du", "-s", "-B1", "-P", "-x", "--", dir);
        if (!du.ok()) {
            throw errors.failed("du " + dir, du, List.of());
        }
        return OptionalLong.of(Long.parseLong(du.stdout().strip().split("\\s+")[0]));
    }

    private String reservationDir(ClusterRef ref) {
        if (root == null) {
            throw new DriverFailedException("This Slurm pool has no slurm.volume-root: it cannot make volumes", false);
        }
        return root + "/" + ref.name();
    }

    private SlurmCommands.Result run(String... command) {
        SlurmCommands.Result result = commands.run(command);
        if (!result.ok()) {
            throw errors.failed(String.join(" ", command), result, List.of());
        }
        return result;
    }
}
