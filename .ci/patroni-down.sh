#!/usr/bin/env bash
# Stops what .ci/patroni-up.sh started under the base folder: both Patroni nodes (and their PostgreSQL), then etcd.
set -uo pipefail
B="$(realpath -m "${1:-/tmp/allot-patroni}")"
[ -d "$B" ] || exit 0
stop() { # pid file
	local pid
	pid=$(cat "$1" 2>/dev/null) || return 0
	kill "$pid" 2>/dev/null || return 0
	for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
	kill -9 "$pid" 2>/dev/null || true
}
for node in pg1 pg2; do
	stop "$B/$node/pid"
	# a PostgreSQL left behind by a killed Patroni
	if [ -f "$B/$node/data/postmaster.pid" ]; then
		pid=$(head -1 "$B/$node/data/postmaster.pid")
		kill -QUIT "$pid" 2>/dev/null || true
	fi
done
stop "$B/etcd/pid"
exit 0
