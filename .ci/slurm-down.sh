#!/usr/bin/env bash
# Stops the cluster that .ci/slurm-up.sh started under a base folder (default /tmp/allot-slurm), each daemon
# by its pid file. With --purge also drops its accounting database and deletes the folder.
#
#   .ci/slurm-down.sh [base-folder] [--purge]
set -uo pipefail

B="$(realpath -m "${1:-/tmp/allot-slurm}")"
PURGE="${2:-}"

stop() { # pid file, name
	[[ -f "$1" ]] || return 0
	local pid
	pid="$(cat "$1")"
	if kill -0 "$pid" 2>/dev/null; then
		kill "$pid" 2>/dev/null
		for ((i = 0; i < 100; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
		kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null
		echo "slurm-down: stopped $2 ($pid)" >&2
	fi
	rm -f "$1"
}

for pidfile in "$B"/slurm/run/slurmd-*.pid; do
	[[ -e "$pidfile" ]] && stop "$pidfile" "slurmd $(basename "$pidfile" .pid | cut -d- -f2-)"
done
stop "$B/slurm/run/slurmctld.pid" slurmctld
stop "$B/slurm/run/slurmdbd.pid" slurmdbd
stop "$B/munge/run/munged.pid" munged

if [[ "$PURGE" == "--purge" ]]; then
	DB_NAME="allot_slurm_$(echo -n "$B" | md5sum | cut -c1-10)"
	mysql -h "${SLURM_DB_HOST:-127.0.0.1}" -P "${SLURM_DB_PORT:-3306}" -u "${SLURM_DB_USER:-root}" \
		${SLURM_DB_PASS:+-p"$SLURM_DB_PASS"} -e "DROP DATABASE IF EXISTS \`$DB_NAME\`" || true
	rm -rf "$B"
	# .ci/slurm-up.sh keeps a cluster asked for below /tmp elsewhere, behind a link
	[[ -L "${1:-/tmp/allot-slurm}" ]] && rm -f "${1:-/tmp/allot-slurm}"
	echo "slurm-down: purged $B and database $DB_NAME" >&2
fi
