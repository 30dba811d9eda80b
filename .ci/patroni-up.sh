#!/usr/bin/env bash
# Starts a PostgreSQL high-availability pair under Patroni, as production would run it: one etcd member holding
# the cluster state, and two PostgreSQL nodes (pg1, pg2) managed by Patroni in synchronous mode (a commit is
# acknowledged only once the synchronous standby has it). Everything lives under one base folder, on free ports.
#
#   .ci/patroni-up.sh [base-folder]        (default /tmp/allot-patroni)
#   .ci/patroni-down.sh [base-folder]
#
# Prints, on stdout, lines to eval:
#   export PATRONI_ETCD=127.0.0.1:<port>  PATRONI_PG1=127.0.0.1:<port>  PATRONI_PG2=127.0.0.1:<port>
#   export PATRONI_API1=127.0.0.1:<port>  PATRONI_API2=127.0.0.1:<port>  PATRONI_CONF1=... PATRONI_CONF2=...
#   export PATRONI_PASSWORD=<the postgres superuser's password>
# Needs Debian's patroni, etcd-server and etcd-client, and PostgreSQL's binaries (PG_BIN, default 15's).
# PostgreSQL refuses to run as root: as root, Patroni (and so PostgreSQL) runs as the postgres user.
set -euo pipefail

B="$(realpath -m "${1:-/tmp/allot-patroni}")"
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
PASSWORD=allot-ha-superuser
log() { printf '[patroni-up] %s\n' "$*" >&2; }

for tool in patroni patronictl etcd etcdctl; do
	command -v "$tool" >/dev/null || { log "$tool is not installed: apt-get install -y patroni etcd-server etcd-client"; exit 2; }
done
[ -x "$PG_BIN/postgres" ] || { log "no PostgreSQL binaries in $PG_BIN"; exit 2; }

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }
ETCD=$(free_port); ETCD_PEER=$(free_port)
PG1=$(free_port); PG2=$(free_port); API1=$(free_port); API2=$(free_port)

bash "$(dirname "$0")/patroni-down.sh" "$B" >/dev/null 2>&1 || true
rm -rf "$B"
mkdir -p "$B/etcd" "$B/pg1" "$B/pg2" "$B/log"
as_postgres=()
if [ "$(id -u)" = 0 ]; then
	# setpriv execs (runuser would fork): the pid file then holds Patroni's own pid
	as_postgres=(setpriv --reuid=postgres --regid=postgres --init-groups env HOME="$B")
	chown -R postgres: "$B/pg1" "$B/pg2" "$B/log"
	chmod 0755 "$B"
fi

log "starting etcd on 127.0.0.1:$ETCD"
etcd --name allot-ha --data-dir "$B/etcd/data" \
	--listen-client-urls "http://127.0.0.1:$ETCD" --advertise-client-urls "http://127.0.0.1:$ETCD" \
	--listen-peer-urls "http://127.0.0.1:$ETCD_PEER" --initial-advertise-peer-urls "http://127.0.0.1:$ETCD_PEER" \
	--initial-cluster "allot-ha=http://127.0.0.1:$ETCD_PEER" --enable-v2=true \
	> "$B/log/etcd.log" 2>&1 &
echo $! > "$B/etcd/pid"

wait_for() {
	local seconds=$1 what=$2; shift 2
	for _ in $(seq 1 $((seconds * 10))); do
		if "$@" >/dev/null 2>&1; then return 0; fi
		sleep 0.1
	done
	log "timed out waiting for $what; logs under $B/log"
	tail -30 "$B"/log/*.log >&2 || true
	exit 1
}
wait_for 30 "etcd" env ETCDCTL_API=3 etcdctl --endpoints "127.0.0.1:$ETCD" endpoint health

# one configuration per node; ttl 10 s, loop 2 s: an unplanned failover takes about ttl + loop_wait
node_conf() {
	local name=$1 pg=$2 api=$3
	cat > "$B/$name/patroni.yml" <<YAML
scope: allot-ha
name: $name
log:
  dir: $B/log
  file_size: 10000000
restapi:
  listen: 127.0.0.1:$api
  connect_address: 127.0.0.1:$api
etcd3:
  hosts: 127.0.0.1:$ETCD
bootstrap:
  dcs:
    ttl: 10
    loop_wait: 2
    retry_timeout: 4
    maximum_lag_on_failover: 1048576
    synchronous_mode: true
    postgresql:
      use_pg_rewind: true
      parameters:
        wal_level: replica
        hot_standby: "on"
        max_connections: 100
        max_wal_senders: 10
        max_replication_slots: 10
        wal_log_hints: "on"
  initdb:
    - encoding: UTF8
    - data-checksums
postgresql:
  listen: 127.0.0.1:$pg
  connect_address: 127.0.0.1:$pg
  data_dir: $B/$name/data
  bin_dir: $PG_BIN
  pgpass: $B/$name/pgpass
  authentication:
    superuser: {username: postgres, password: $PASSWORD}
    replication: {username: replicator, password: allot-ha-replication}
    rewind: {username: rewinder, password: allot-ha-rewind}
  parameters:
    unix_socket_directories: $B/$name
  pg_hba:
    - local all all trust
    - host replication replicator 127.0.0.1/32 scram-sha-256
    - host all all 127.0.0.1/32 scram-sha-256
tags:
  nofailover: false
  noloadbalance: false
  clonefrom: false
  nosync: false
YAML
	[ "$(id -u)" != 0 ] || chown postgres: "$B/$name/patroni.yml"
}
node_conf pg1 "$PG1" "$API1"
node_conf pg2 "$PG2" "$API2"

start_node() {
	local name=$1
	# started from the base folder: the postgres user may not enter the folder this script was run from (a
	# checkout in a home folder only its owner may enter), and initdb fails where it cannot read its own directory
	(cd "$B" && exec "${as_postgres[@]}" patroni "$B/$name/patroni.yml") > "$B/log/$name.out" 2>&1 &
	echo $! > "$B/$name/pid"
}
log "starting Patroni pg1 (PostgreSQL 127.0.0.1:$PG1, API $API1)"
start_node pg1
wait_for 60 "pg1 to lead" curl -fsS "http://127.0.0.1:$API1/primary"
log "starting Patroni pg2 (PostgreSQL 127.0.0.1:$PG2, API $API2)"
start_node pg2
wait_for 90 "pg2 as synchronous standby" curl -fsS "http://127.0.0.1:$API2/synchronous"

log "up: leader pg1, synchronous standby pg2"
cat <<EOF
export PATRONI_BASE=$B
export PATRONI_ETCD=127.0.0.1:$ETCD
export PATRONI_PG1=127.0.0.1:$PG1
export PATRONI_PG2=127.0.0.1:$PG2
export PATRONI_API1=127.0.0.1:$API1
export PATRONI_API2=127.0.0.1:$API2
export PATRONI_CONF1=$B/pg1/patroni.yml
export PATRONI_CONF2=$B/pg2/patroni.yml
export PATRONI_PASSWORD=$PASSWORD
EOF
