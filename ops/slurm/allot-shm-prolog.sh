#!/usr/bin/env bash
# Slurm Prolog (slurmd runs it as root on each node of a job, before the job's first step) that gives every job of
# an Allot reservation a private, memory-backed /dev/shm of the size booked for that reservation.
#
# The node needs, in slurm.conf:
#   JobContainerType=job_container/tmpfs
#   PrologFlags=Contain
#   Prolog=/path/to/allot-shm-prolog.sh
# and beside slurm.conf:
#   job_container.conf   BasePath=... (or NodeName=<nodes> BasePath=... lines), as job_container/tmpfs wants it
#   allot-shm.conf       SizeDir=<folder>: where Allot's Slurm driver writes, per reservation, a file named like the
#                        reservation (allot-<reservation id>) holding the booked size in GiB. Every node must see it
#                        (a shared filesystem, or one the driver's command prefix reaches); it is the pool's
#                        allot.provisioning.pools.<pool>.slurm.shm-dir.
#
# Why a Prolog: Slurm 22.05's job_container/tmpfs gives each job a private mount namespace with its own /tmp and a
# fresh /dev/shm tmpfs, but mounts that tmpfs without a size (the kernel's default: half the node's memory) and has
# no hook inside the namespace before the job's steps start. Its step daemon, though, reuses a namespace that
# already exists under <BasePath>/<job id> (the path it keeps for sbcast). So for a job of an Allot reservation (or
# of its partition, which bears the same name) this Prolog builds that namespace exactly as the plugin would, with
# /dev/shm mounted size=<booked>G; every step of the job then joins it, and the plugin removes it when the job
# ends. Any other job is left to the plugin. A job whose namespace cannot be built fails its Prolog (Slurm
# requeues it and drains the node) rather than run without the size it booked.
set -euo pipefail
# slurmd gives its Prolog only Slurm's variables
export PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:${PATH:-}"

fail() {
	echo "allot-shm-prolog: job ${SLURM_JOB_ID:-?} on ${SLURMD_NODENAME:-?}: $*" >&2
	exit 1
}

CONF_DIR="$(dirname "${SLURM_CONF:-/etc/slurm/slurm.conf}")"
[[ -r "$CONF_DIR/allot-shm.conf" ]] || exit 0
SIZE_DIR="$(sed -n 's/^[[:space:]]*SizeDir=\([^[:space:]#]*\).*/\1/p' "$CONF_DIR/allot-shm.conf" | tail -n 1)"
[[ -n "$SIZE_DIR" ]] || fail "allot-shm.conf has no SizeDir="

# The reservation the job runs in, else its partition (a tenant's check jobs before the window): both are named
# allot-<reservation id> by the driver.
NAME=""
for candidate in "${SLURM_JOB_RESERVATION:-}" "${SLURM_JOB_PARTITION:-}"; do
	if [[ "$candidate" =~ ^allot-[A-Za-z0-9-]+$ && -f "$SIZE_DIR/$candidate" ]]; then
		NAME="$candidate"
		break
	fi
done
[[ -n "$NAME" ]] || exit 0

GI="$(tr -d '[:space:]' <"$SIZE_DIR/$NAME")"
[[ "$GI" =~ ^[1-9][0-9]{0,5}$ ]] || fail "$SIZE_DIR/$NAME holds '$GI', not a size in GiB"
[[ "${SLURM_JOB_ID:-}" =~ ^[0-9]+$ && "${SLURM_JOB_UID:-}" =~ ^[0-9]+$ ]] || fail "no SLURM_JOB_ID or SLURM_JOB_UID"

# This node's BasePath, read as job_container/tmpfs reads it: the last line that applies to the node wins.
BASE=""
while read -r line || [[ -n "$line" ]]; do
	line="${line%%#*}"
	path="$(sed -n 's/.*BasePath=\([^[:space:]]*\).*/\1/p' <<<"$line")"
	[[ -n "$path" ]] || continue
	if [[ "$line" =~ ^[[:space:]]*NodeName=([^[:space:]]+) ]]; then
		scontrol show hostnames "${BASH_REMATCH[1]}" | grep -qxF "$SLURMD_NODENAME" && BASE="$path"
	else
		BASE="$path"
	fi
done <"$CONF_DIR/job_container.conf"
[[ "$BASE" == /* ]] || fail "no BasePath for this node in $CONF_DIR/job_container.conf"
# A slurmd built for several slurmds per host (Debian's is) appends the node's name to its BasePath; the plugin
# then keeps its job folders (named by job id, never like a node) below <BasePath>/<node>, which must exist.
[[ -d "$BASE/$SLURMD_NODENAME" ]] && BASE="$BASE/$SLURMD_NODENAME"

JOB_MOUNT="$BASE/$SLURM_JOB_ID"
# Already there: a requeued job's leftovers or a second Prolog run; the plugin's namespace is kept as it is.
mkdir -m 0700 "$JOB_MOUNT" 2>/dev/null || exit 0
undo() {
	umount -l "$JOB_MOUNT/.ns" 2>/dev/null || true
	umount -l "$JOB_MOUNT" 2>/dev/null || true
	rm -rf --one-file-system "$JOB_MOUNT"
}
trap 'undo; fail "building the job namespace failed (line $LINENO)"' ERR

# As the plugin does: the job's folder is a private mount (a namespace can only be held on one), holding the
# namespace (.ns) and the job's /tmp (.<job id>, owned by the job's user).
mount --bind "$JOB_MOUNT" "$JOB_MOUNT"
mount --make-rprivate "$JOB_MOUNT"
touch "$JOB_MOUNT/.ns"
chmod 0700 "$JOB_MOUNT/.ns"
mkdir -m 0700 "$JOB_MOUNT/.$SLURM_JOB_ID"
chown "$SLURM_JOB_UID" "$JOB_MOUNT/.$SLURM_JOB_ID"
# unshare makes every mount of the new namespace private (nothing propagates back to the node) and holds the
# namespace on .ns once the command has run.
unshare --mount="$JOB_MOUNT/.ns" --propagation=private -- /bin/sh -euc '
	mount --rbind "$1" /tmp
	umount -l "$2"
	umount /dev/shm 2>/dev/null || true
	mount -t tmpfs -o "size=$3G,mode=1777,nosuid,nodev" tmpfs /dev/shm
' allot-shm "$JOB_MOUNT/.$SLURM_JOB_ID" "$JOB_MOUNT" "$GI"
trap - ERR
echo "allot-shm-prolog: job $SLURM_JOB_ID of $NAME on $SLURMD_NODENAME: /dev/shm is a private tmpfs of ${GI} GiB" >&2
