/**
 * The Slurm adapter: a tenant's Slurm account, and per reservation a partition restricted to that account and a
 * Slurm reservation on exactly the reserved nodes for the window, through {@code sacctmgr} and {@code scontrol}
 * run locally or behind a command prefix such as {@code ssh}.
 */
@NullMarked
package dev.allot.provisioning.driver.slurm;

import org.jspecify.annotations.NullMarked;
