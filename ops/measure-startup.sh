#!/usr/bin/env bash
# Start-up to readiness, measured: from process start to the first UP of /actuator/health/readiness, with the
# resident memory (RSS, of the JVM alone) at that moment, the CPU seconds the JVM used until then (user + system,
# all its threads: the JIT compilers' too, not the embedded PostgreSQL's) and the load average. Prints one line
# per start. The CPU seconds barely move with the load, the wall time does: compare builds by both.
#
#   ops/measure-startup.sh [JAR]                        # the packaged jar (target/allot-*.jar) by default
#   MODES="external" ops/measure-startup.sh             # only some of: embedded external (default: both)
#   AOT=no ops/measure-startup.sh                       # skip the runs with a JDK AOT cache
#
# embedded: the quick start (no datasource), on a fresh data folder, then again on that folder (a restart).
# external: the database in $DB_URL (default jdbc:postgresql://127.0.0.1:5432/allot_startup, dropped and created
#           anew with psql), user $DB_USER (postgres) / $DB_PASSWORD. Migrations are applied before measuring.
# With AOT (the default) each mode is measured twice: plain, and with the JDK AOT cache (-XX:AOTCache, JDK 25)
# from a training run of the same jar, as the Dockerfile does. Needs java 25, curl; psql for the external mode.
set -euo pipefail
cd "$(dirname "$0")/.."
JAR=${1:-$(ls target/allot-*.jar 2>/dev/null | grep -v original | head -1)}
[ -f "$JAR" ] || { echo "no jar: build one with ./mvnw -DskipTests package" >&2; exit 2; }
JAVA=${JAVA:-java}
MODES=${MODES:-embedded external}
AOT=${AOT:-yes}
DB_URL=${DB_URL:-jdbc:postgresql://127.0.0.1:5432/allot_startup}
DB_USER=${DB_USER:-postgres}
DB_PASSWORD=${DB_PASSWORD:-}
PORT=${PORT:-18089}
WORK=$(mktemp -d /tmp/allot-startup.XXXXXX)
APP=""
trap '[ -n "$APP" ] && kill "$APP" 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"' EXIT

# The AOT cache needs the jar's classes on a plain class path: Boot's extracted layout (as in the Dockerfile).
"$JAVA" -Djarmode=tools -jar "$JAR" extract --destination "$WORK/app" >/dev/null
RUN_JAR="$WORK/app/$(basename "$JAR")"

external_env() {
  export SPRING_DATASOURCE_URL=$DB_URL SPRING_DATASOURCE_USERNAME=$DB_USER SPRING_DATASOURCE_PASSWORD=$DB_PASSWORD
  export ALLOT_SEALING_KEY=${ALLOT_SEALING_KEY:-$(head -c 32 /dev/urandom | base64)}
}
embedded_env() { unset SPRING_DATASOURCE_URL SPRING_DATASOURCE_USERNAME SPRING_DATASOURCE_PASSWORD ALLOT_SEALING_KEY; }

# start once, print "seconds rss_mib"; $1 = label, $2 = data folder of the embedded database, then JVM options
measure() {
  local label=$1 data=$2; shift 2
  local load; load=$(cut -d' ' -f1-3 /proc/loadavg)
  local t0; t0=$(date +%s%N)
  "$JAVA" "$@" -jar "$RUN_JAR" --server.port="$PORT" --allot.embedded-postgres.data-directory="$data" \
    > "$WORK/$label.log" 2>&1 &
  APP=$!
  local up=""
  while kill -0 "$APP" 2>/dev/null; do
    if curl -fsS -m 1 "http://127.0.0.1:$PORT/actuator/health/readiness" 2>/dev/null | grep -q '"UP"'; then up=yes; break; fi
    sleep 0.05
  done
  local t1; t1=$(date +%s%N)
  if [ -z "$up" ]; then echo "$label: did not become ready; last lines:" >&2; tail -20 "$WORK/$label.log" >&2; exit 1; fi
  local rss; rss=$(awk '/VmRSS/ {printf "%d", $2/1024}' "/proc/$APP/status")
  local cpu; cpu=$(awk -v hz="$(getconf CLK_TCK)" '{printf "%.1f", ($14 + $15) / hz}' "/proc/$APP/stat")
  printf '%-34s %6.2f s   CPU %5.1f s   RSS %4d MiB   load average %s\n' "$label" "$(echo "($t1-$t0)/1000000000" | bc -l)" \
    "$cpu" "$rss" "$load"
  kill "$APP"; wait "$APP" 2>/dev/null || true; APP=""
}

# the training run: start, refresh the context (connect, migrate, create every bean), exit, write the cache
train() {
  local data=$1
  "$JAVA" -XX:AOTCacheOutput="$WORK/app.aot" -Dspring.context.exit=onRefresh -jar "$RUN_JAR" \
    --server.port="$PORT" --allot.embedded-postgres.data-directory="$data" > "$WORK/training.log" 2>&1 \
    || { tail -20 "$WORK/training.log" >&2; exit 1; }
}

echo "jar: $JAR ($(du -m "$JAR" | cut -f1) MB); java: $("$JAVA" -version 2>&1 | head -1); cores: $(nproc)"
if [ "$AOT" = yes ]; then
  embedded_env; case " $MODES " in *" external "*) external_env ;; esac
  [[ " $MODES " == *" embedded "* ]] && embedded_env
  train "$WORK/pg-training"
  echo "AOT cache: $(du -m "$WORK/app.aot" | cut -f1) MB from a training run"
fi
for mode in $MODES; do
  if [ "$mode" = embedded ]; then
    embedded_env
    measure "embedded, fresh data folder" "$WORK/pg-plain"
    measure "embedded, restart" "$WORK/pg-plain"
    if [ "$AOT" = yes ]; then
      measure "embedded, fresh, AOT cache" "$WORK/pg-aot" -XX:AOTCache="$WORK/app.aot"
      measure "embedded, restart, AOT cache" "$WORK/pg-aot" -XX:AOTCache="$WORK/app.aot"
    fi
  else
    external_env
    db=${DB_URL##*/}; db=${db%%\?*}
    # a fresh database each run: its signing keys are sealed with this run's random ALLOT_SEALING_KEY
    if command -v psql >/dev/null; then
      psql -h 127.0.0.1 -U "$DB_USER" -d postgres -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db"
    fi
    measure "external, first start (migrates)" "$WORK/unused"
    measure "external" "$WORK/unused"
    [ "$AOT" = yes ] && measure "external, AOT cache" "$WORK/unused" -XX:AOTCache="$WORK/app.aot"
  fi
done
