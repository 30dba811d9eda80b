#!/usr/bin/env bash
# Starts a single-host Slurm 22.05 cluster with accounting (munged, slurmdbd, slurmctld, slurmd) under one
# base folder, for the Slurm driver's tests. Idempotent: a cluster already running under that folder is reused.
#
#   .ci/slurm-up.sh [base-folder]        (default /tmp/allot-slurm)
#
# Prints `export SLURM_CONF=...` (and the folder) on stdout; everything else goes to stderr.
# Nodes: vm, gpu-[001-008] and gpu-[017-022], each with its own real slurmd on its own port (turn IDLE and run
# jobs, e.g. the health checks' stand-in executables; the GPUs are only counted, through gres.conf), and
# gpu-[009-016] (point at a closed port, stay DOWN). Every GPU node carries the feature cuda550 (CUDA driver
# 550), which the Slurm driver requires of a booking's nodes; the stand-in slurmds register without features,
# so the tests' SlurmCluster extension makes it active (scontrol update ... ActiveFeatures=cuda550). Every job gets a
# private /tmp and /dev/shm (job_container/tmpfs, PrologFlags=Contain; each node's BasePath is $B/slurm/jc/<node>,
# and a base folder asked for below /tmp is a link to one below /var/lib/allot-slurm, since jobs see their own
# /tmp), and a job of a reservation whose booked size
# the Slurm driver wrote to $B/shm (allot-shm.conf's SizeDir) gets a /dev/shm of that size from the Prolog
# ops/slurm/allot-shm-prolog.sh (copied to $B/etc). Accounting lives in MariaDB/MySQL
# (SLURM_DB_HOST, SLURM_DB_PORT, SLURM_DB_USER, SLURM_DB_PASS; default root@127.0.0.1:3306, no password),
# in a database named after the base folder so that several clusters can share one server.
set -euo pipefail

B="$(realpath -m "${1:-/tmp/allot-slurm}")"
# Jobs see a /tmp of their own (job_container/tmpfs), so nothing they need (slurm.conf, munge's socket) may live
# below /tmp: a folder asked for there is a link to one below /var/lib/allot-slurm, and the cluster uses that one.
if [[ "$B" == /tmp || "$B" == /tmp/* ]]; then
	REAL="/var/lib/allot-slurm/$(echo -n "$B" | md5sum | cut -c1-10)"
	mkdir -p "$REAL"
	chmod 0755 /var/lib/allot-slurm "$REAL"
	if [[ -d "$B" && ! -L "$B" ]]; then
		echo "slurm-up: $B is the folder of an older cluster: stop it first (.ci/slurm-down.sh $B --purge)" >&2
		exit 1
	fi
	mkdir -p "$(dirname "$B")"
	ln -sfn "$REAL" "$B"
	B="$REAL"
fi
DB_HOST="${SLURM_DB_HOST:-127.0.0.1}"
DB_PORT="${SLURM_DB_PORT:-3306}"
DB_USER="${SLURM_DB_USER:-root}"
DB_PASS="${SLURM_DB_PASS:-}"
CONF="$B/etc/slurm.conf"
SOCKET="$B/munge/run/munge.socket"

log() { echo "slurm-up: $*" >&2; }

print_env() {
	echo "export SLURM_CONF=$CONF"
	echo "export ALLOT_SLURM_BASE=$B"
}

alive() { [[ -f "$1" ]] && kill -0 "$(cat "$1")" 2>/dev/null; }

if [[ -f "$CONF" ]] && alive "$B/slurm/run/slurmctld.pid" && SLURM_CONF="$CONF" timeout 5 scontrol ping 2>/dev/null | grep -q UP; then
	log "already running under $B"
	print_env
	exit 0
fi

if ! command -v slurmctld >/dev/null && ! [[ -x /usr/sbin/slurmctld ]]; then
	log "installing slurm-wlm, slurmrestd, slurmdbd, munge"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >&2
	apt-get install -y -qq slurm-wlm slurmrestd slurmdbd munge >&2
fi
export PATH="$PATH:/usr/sbin"

# A port nobody listens on; several picks in one run never repeat.
declare -A taken=()
free_port() {
	local p
	while :; do
		p=$((20000 + RANDOM % 40000))
		[[ -n "${taken[$p]:-}" ]] && continue
		if ! ss -Htln "sport = :$p" | grep -q .; then
			taken[$p]=1
			echo "$p"
			return
		fi
	done
}

# slurmdbd needs the database; say so plainly instead of timing out on slurmdbd's port.
if command -v mysql >/dev/null && ! mysql -h "$DB_HOST" -P "$DB_PORT" -u "$DB_USER" ${DB_PASS:+-p"$DB_PASS"} \
	-e 'SELECT 1' >/dev/null 2>&1; then
	log "MariaDB/MySQL is not reachable at $DB_USER@$DB_HOST:$DB_PORT (set SLURM_DB_HOST, SLURM_DB_PORT," \
		"SLURM_DB_USER, SLURM_DB_PASS, or start it: apt-get install -y mariadb-server && service mariadb start)"
	exit 1
fi

# Stop leftovers of an earlier, half-started run under this folder before rewriting its configuration.
for pidfile in "$B"/slurm/run/slurmd-*.pid "$B/slurm/run/slurmctld.pid" "$B/slurm/run/slurmdbd.pid"; do
	if alive "$pidfile"; then kill "$(cat "$pidfile")" 2>/dev/null || true; fi
done

mkdir -p "$B/etc" "$B/munge/key" "$B/munge/run" "$B/munge/log" "$B/slurm/state" "$B/slurm/spool" \
	"$B/slurm/run" "$B/slurm/log"
chmod 0700 "$B/munge/key"
chmod 0755 "$B" "$B/munge" "$B/munge/run"

if ! alive "$B/munge/run/munged.pid"; then
	[[ -f "$B/munge/key/munge.key" ]] || mungekey --create --keyfile="$B/munge/key/munge.key" >&2
	chmod 0400 "$B/munge/key/munge.key"
	log "starting munged"
	munged --force --socket="$SOCKET" --key-file="$B/munge/key/munge.key" \
		--pid-file="$B/munge/run/munged.pid" --log-file="$B/munge/log/munged.log" \
		--seed-file="$B/munge/key/munged.seed" >&2
fi

CTLD_PORT=$(free_port)
SLURMD_PORT=$(free_port)
DBD_PORT=$(free_port)
CLOSED_PORT=$(free_port)
GPU_NODES=(gpu-001 gpu-002 gpu-003 gpu-004 gpu-005 gpu-006 gpu-007 gpu-008 gpu-017 gpu-018 gpu-019 gpu-020 gpu-021 gpu-022)
declare -A GPU_PORT=()
for node in "${GPU_NODES[@]}"; do GPU_PORT[$node]=$(free_port); done
DB_NAME="allot_slurm_$(echo -n "$B" | md5sum | cut -c1-10)"
JC_BASE="$B/slurm/jc"

cat >"$CONF" <<EOF
ClusterName=allot
SlurmctldHost=vm(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$SOCKET
StateSaveLocation=$B/slurm/state
SlurmdSpoolDir=$B/slurm/spool/%n
SlurmctldPidFile=$B/slurm/run/slurmctld.pid
SlurmdPidFile=$B/slurm/run/slurmd-%n.pid
SlurmctldLogFile=$B/slurm/log/slurmctld.log
SlurmdLogFile=$B/slurm/log/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
GresTypes=gpu
ReturnToService=2
PrivateData=accounts,jobs,reservations,usage,users
EnforcePartLimits=ALL
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=127.0.0.1
AccountingStoragePort=$DBD_PORT
AccountingStoragePass=$SOCKET
AccountingStorageEnforce=associations
AccountingStorageTRES=gres/gpu
JobAcctGatherType=jobacct_gather/none
JobContainerType=job_container/tmpfs
PrologFlags=Contain
Prolog=$B/etc/allot-shm-prolog.sh
MailProg=/bin/true
# The slurmd of a fake GPU node reports the configured CPUs, memory and GPUs instead of this host's.
SlurmdParameters=config_overrides
RebootProgram=/bin/true
# A fake node's reboot (/bin/true) never registers a new boot: once ResumeTimeout (60 s by default) has passed,
# slurmctld stops waiting for one and the node's next response returns it to service (seen within two minutes), as if
# it had rebooted, while a loaded test is still between its steps. Allot counts a node back only once its slurmd has
# started again (a new SlurmdStartTime); the tests bring a rebooted node back themselves by restarting its slurmd
# (SlurmCluster.backInService).
ResumeTimeout=3600
NodeName=vm NodeAddr=127.0.0.1 CPUs=2 RealMemory=1000 State=UNKNOWN
$(for node in "${GPU_NODES[@]}"; do
	echo "NodeName=$node NodeAddr=127.0.0.1 Port=${GPU_PORT[$node]} CPUs=64 RealMemory=512000 Gres=gpu:8 Features=cuda550 State=UNKNOWN"
done)
NodeName=gpu-[009-016] NodeAddr=127.0.0.1 Port=$CLOSED_PORT CPUs=64 RealMemory=512000 Gres=gpu:8 Features=cuda550 State=UNKNOWN
PartitionName=batch Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF

# Stand-in device files (Slurm drops a GPU without one): the GPUs are only counted, so that jobs can ask for
# --gres=gpu:N and see CUDA_VISIBLE_DEVICES.
mkdir -p "$B/dev"
for i in 0 1 2 3 4 5 6 7; do touch "$B/dev/nvidia$i"; done
cat >"$B/etc/gres.conf" <<EOF
AutoDetect=off
NodeName=gpu-[001-022] Name=gpu File=$B/dev/nvidia[0-7]
EOF

# A private /tmp and /dev/shm per job; the Prolog sizes /dev/shm for the reservations the driver wrote a size for.
mkdir -p "$B/shm" "$JC_BASE"
chmod 0755 "$B/shm"
cp "$(dirname "$0")/../ops/slurm/allot-shm-prolog.sh" "$B/etc/allot-shm-prolog.sh"
chmod 0755 "$B/etc/allot-shm-prolog.sh"
echo "SizeDir=$B/shm" >"$B/etc/allot-shm.conf"
{
	echo "AutoBasePath=true"
	for node in vm "${GPU_NODES[@]}"; do echo "NodeName=$node BasePath=$JC_BASE/$node"; done
} >"$B/etc/job_container.conf"

cat >"$B/etc/slurmdbd.conf" <<EOF
AuthType=auth/munge
AuthInfo=socket=$SOCKET
DbdAddr=127.0.0.1
DbdHost=localhost
DbdPort=$DBD_PORT
SlurmUser=root
PidFile=$B/slurm/run/slurmdbd.pid
LogFile=$B/slurm/log/slurmdbd.log
StorageType=accounting_storage/mysql
StorageHost=$DB_HOST
StoragePort=$DB_PORT
StorageUser=$DB_USER
StorageLoc=$DB_NAME
EOF
[[ -n "$DB_PASS" ]] && echo "StoragePass=$DB_PASS" >>"$B/etc/slurmdbd.conf"
chmod 0600 "$B/etc/slurmdbd.conf"
export SLURM_CONF="$CONF"

wait_for() { # seconds, description, command...
	local limit=$1 what=$2
	shift 2
	for ((i = 0; i < limit * 10; i++)); do
		if "$@" >/dev/null 2>&1; then return 0; fi
		sleep 0.1
	done
	log "timed out waiting for $what; logs under $B/slurm/log"
	exit 1
}

log "starting slurmdbd on port $DBD_PORT (database $DB_NAME)"
slurmdbd >&2
wait_for 30 "slurmdbd" bash -c "ss -Htln 'sport = :$DBD_PORT' | grep -q ."

log "starting slurmctld on port $CTLD_PORT"
slurmctld -f "$CONF" -R >&2
log "starting slurmd (vm) on port $SLURMD_PORT"
slurmd -f "$CONF" -N vm >&2
for node in "${GPU_NODES[@]}"; do
	log "starting slurmd ($node) on port ${GPU_PORT[$node]}"
	slurmd -f "$CONF" -N "$node" >&2
done
wait_for 30 "scontrol ping" bash -c "scontrol ping | grep -q UP"
# The cluster registers itself in slurmdbd on its first start; accounts need it.
wait_for 30 "cluster registration" bash -c "sacctmgr -n -P show cluster format=cluster | grep -qx allot"

log "up: $CONF"
print_env
