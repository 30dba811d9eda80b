/**
 * Health checks of one node, or of several together, run through the pool's driver ({@link NodeChecks},
 * {@link ClusterAllReduce}) and judged: one parser per tool's documented output format ({@code nvidia-smi
 * --query-gpu ... --format=csv} with the kernel's Xid lines, {@code dcgmi diag -r N -j}, gpu-burn, nccl-tests'
 * {@code all_reduce_perf}, nvbandwidth), each giving a {@link Verdict}; the thresholds per GPU type come from
 * {@link HealthThresholds}, the rest of {@code allot.provisioning.health} from {@link HealthProperties}. Used by the
 * lifecycle's acceptance and by the health package's on-demand checks and remediation; knows neither.
 */
@NullMarked
package dev.allot.provisioning.checks;

import org.jspecify.annotations.NullMarked;
