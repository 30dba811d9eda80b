package dev.allot.provisioning.driver;

import java.util.Objects;

/**
 * One thing a driver actually did (or found already done) while building a cluster, and where it can be seen on
 * the infrastructure, so that the cluster's timeline claims nothing the driver did not do.
 *
 * @param done what was done, e.g. {@code Slurm reservation allot-… created on gpu-001,gpu-002}
 * @param seeWith the command (or place) that shows it, e.g. {@code scontrol show reservation allot-…}
 */
public record BuildStep(String done, String seeWith) {

    public BuildStep {
        Objects.requireNonNull(done, "done");
        Objects.requireNonNull(seeWith, "seeWith");
    }

    /** As the timeline prints it: {@code <done> (see: <seeWith>).} */
    public String line() {
        return done + " (see: " + seeWith + ").";
    }
}
