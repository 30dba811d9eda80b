/**
 * What a health check runs on a node and how its output is judged: one parser per tool's documented output
 * format ({@code nvidia-smi --query-gpu ... --format=csv} with the kernel's Xid lines, {@code dcgmi diag -r N -j},
 * gpu-burn, nccl-tests' {@code all_reduce_perf}, nvbandwidth), each giving a {@link Verdict}; the thresholds per
 * GPU type come from {@link HealthThresholds}.
 */
@NullMarked
package dev.allot.provisioning.health.checks;

import org.jspecify.annotations.NullMarked;
