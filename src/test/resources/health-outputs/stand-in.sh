#!/usr/bin/env bash
# Stand-in for a GPU check tool (nvidia-smi, dcgmi, gpu_burn, all_reduce_perf, nvbandwidth) on test nodes that
# have no GPUs: prints a recorded output of the real tool, so that everything around it (the job pinned to the
# node, its output coming back, parsing, the decision) is real.
#
#   stand-in.sh <folder> <kind>
#
# Prints <folder>/<node>.<kind> if it exists, else <folder>/default.<kind>, without its "@@" header lines; <node>
# is the node the job runs on ($SLURMD_NODENAME under Slurm, $NODE_NAME in a Kubernetes pod). A recording whose
# first line is "@@ hang" sleeps instead (a hung check); "@@ exit N" as first line exits N after printing.
#
# A job across several nodes (srun --nodes=N --ntasks-per-node=1, as nccl-tests built with MPI run) prints only
# from its first task, as all_reduce_perf prints only from rank 0: <folder>/across-<the job's Slurm hostlist,
# e.g. gpu-[004,017]>.<kind> if it exists, else <folder>/across.<kind>.
set -u
node="${SLURMD_NODENAME:-${NODE_NAME:-unknown}}"
if [[ "${SLURM_JOB_NUM_NODES:-1}" -gt 1 ]]; then
	[[ "${SLURM_PROCID:-0}" == 0 ]] || exit 0
	file="$1/across-${SLURM_JOB_NODELIST:-}.$2"
	[[ -f "$file" ]] || file="$1/across.$2"
else
	file="$1/$node.$2"
	[[ -f "$file" ]] || file="$1/default.$2"
fi
first="$(head -n 1 "$file")"
if [[ "$first" == "@@ hang" ]]; then
	exec sleep 3600
fi
grep -v '^@@' "$file"
if [[ "$first" == "@@ exit "* ]]; then
	exit "${first#@@ exit }"
fi
