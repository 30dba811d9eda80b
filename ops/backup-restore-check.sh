#!/usr/bin/env bash
# Backup and restore, proven: pg_dump a live Allot database, pg_restore it into a new one, and check the copy.
#
#   SEALING_KEY=<the source's ALLOT_SEALING_KEY> ops/backup-restore-check.sh SOURCE_DB RESTORED_DB [JAR]
#
# PostgreSQL on $PGHOST:$PGPORT (127.0.0.1:5432) as a superuser ($PGUSER, postgres). The dump is taken while the
# application may keep writing (pg_dump reads one consistent snapshot). The restored copy must show:
#   1. the ledger balances: every transaction's entries sum to zero per currency (the ledger's own check,
#      ledger_check_balanced, run on each transaction), and the append-only triggers are in place;
#   2. the audit trail is intact: exactly the source's rows up to the snapshot, byte for byte, still append-only;
#   3. the capacity calendar is what a rebuild from the allocations makes: the jar is started on the copy and
#      POST /api/v1/capacity/rebuild runs for every pool; the calendar (pool_hour, pool_day) must not change.
set -euo pipefail
cd "$(dirname "$0")/.."
SRC=$1 DST=$2
JAR=${3:-$(ls target/allot-*.jar | grep -v original | head -1)}
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}
: "${SEALING_KEY:?set SEALING_KEY to the sealing key of the source application}"
PORT=${PORT:-18081}
DUMP=${DUMP:-target/$SRC.dump}
q() { psql -v ON_ERROR_STOP=1 -qAt -d "$1" -c "$2"; }
fail() { echo "backup/restore: FAILED: $*" >&2; exit 1; }

echo "pg_dump $SRC -> $DUMP"
pg_dump -Fc -f "$DUMP" "$SRC"
OWNER=$(q postgres "SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = '$SRC'")
q postgres "DROP DATABASE IF EXISTS $DST WITH (FORCE)"
q postgres "CREATE DATABASE $DST OWNER $OWNER"
echo "pg_restore -> $DST"
pg_restore --exit-on-error -d "$DST" "$DUMP"

# 1. the ledger
tx=$(q "$DST" "SELECT count(*) FROM ledger_transaction")
q "$DST" "SELECT count(ledger_check_balanced(id)) FROM ledger_transaction" >/dev/null || fail "a ledger transaction does not balance"
unbalanced=$(q "$DST" "SELECT count(*) FROM (SELECT currency FROM ledger_entry GROUP BY currency HAVING sum(amount) <> 0) u")
[ "$unbalanced" = 0 ] || fail "the ledger's entries do not sum to zero in $unbalanced currencies"
if [ "$tx" != 0 ] && q "$DST" "UPDATE ledger_entry SET amount = amount WHERE id = (SELECT min(id) FROM ledger_entry)" \
   >/dev/null 2>&1; then
  fail "the restored ledger accepted an update"
fi
echo "ledger: $tx transactions, each balanced"

# 2. the audit trail
last=$(q "$DST" "SELECT coalesce(max(id), 0) FROM audit_event")
digest="SELECT md5(coalesce(string_agg(a::text, E'\n' ORDER BY id), '')) FROM audit_event a WHERE id <= $last"
[ "$(q "$SRC" "$digest")" = "$(q "$DST" "$digest")" ] || fail "the restored audit trail differs from the source's"
if q "$DST" "UPDATE audit_event SET actor = actor WHERE id = $last" >/dev/null 2>&1 && [ "$last" != 0 ]; then
  fail "the restored audit trail accepted an update"
fi
next=$(q "$DST" "SELECT nextval(pg_get_serial_sequence('audit_event', 'id'))")
[ "$next" -gt "$last" ] || fail "the audit id sequence restarts below the last row"
echo "audit trail: $last rows identical to the source's, append-only, ids continue at $next"

# 3. the calendar: rebuilt by the application on the restored copy, it must not change. Compared per pool and hour
# (and day) summed over the stripes: a change writes its counts to a stripe chosen at random, a rebuild to one.
calendar="SELECT md5(coalesce(string_agg(c, E'\n' ORDER BY c), '')) FROM (
  SELECT format('h %s %s %s', pool_id, hour, sum(allocated_nodes)) c FROM pool_hour GROUP BY pool_id, hour
    HAVING sum(allocated_nodes) > 0
  UNION ALL SELECT format('d %s %s %s', pool_id, day, sum(allocated_nodes)) FROM pool_day GROUP BY pool_id, day
    HAVING sum(allocated_nodes) > 0) x"
before=$(q "$DST" "$calendar")
CLIENT=restore-check SECRET=$(head -c 24 /dev/urandom | base64 | tr -d '/+=')
SPRING_DATASOURCE_URL=jdbc:postgresql://$PGHOST:$PGPORT/$DST SPRING_DATASOURCE_USERNAME=$PGUSER \
SPRING_DATASOURCE_PASSWORD=${PGPASSWORD:-} ALLOT_SEALING_KEY=$SEALING_KEY \
ALLOT_BOOTSTRAP_CLIENT_ID=$CLIENT ALLOT_BOOTSTRAP_CLIENT_SECRET=$SECRET \
  java -jar "$JAR" --server.port="$PORT" --db-scheduler.enabled=false > "target/$DST.log" 2>&1 &
APP=$!
trap 'kill $APP 2>/dev/null || true; wait $APP 2>/dev/null || true' EXIT
for _ in $(seq 1 240); do
  curl -fsS "http://127.0.0.1:$PORT/actuator/health/readiness" 2>/dev/null | grep -q '"UP"' && break
  kill -0 $APP 2>/dev/null || { tail -30 "target/$DST.log"; fail "the application did not start on the restored copy"; }
  sleep 1
done
TOKEN=$(curl -fsS -u "$CLIENT:$SECRET" -d grant_type=client_credentials "http://127.0.0.1:$PORT/oauth2/token" \
  | sed -E 's/.*"access_token":"([^"]+)".*/\1/')
pools=0
for pool in $(q "$DST" "SELECT name FROM pool ORDER BY name"); do
  curl -fsS -X POST -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$PORT/api/v1/capacity/rebuild?pool=$pool" >/dev/null
  pools=$((pools + 1))
done
after=$(q "$DST" "$calendar")
[ "$before" = "$after" ] || fail "rebuilding the calendar of the restored copy changed it"
echo "calendar: $pools pools rebuilt on the restored copy, unchanged"
echo "backup/restore: passed"
