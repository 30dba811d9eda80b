#!/usr/bin/env bash
# Runs a command with every REST call going through a validating proxy (issue 29): Prism checks each request and
# each answer against openapi.yaml and, with --errors, answers a violation with an error instead of forwarding it,
# so a request the contract would refuse fails the command. The OAuth2 endpoints (not REST, not in the contract)
# go straight to the app (clients/contract-proxy/router.js). The command gets BASE set to the proxy.
#   APP_URL=http://127.0.0.1:18080 .ci/contract-proxy.sh bash -c '...'
# Fails when the command fails or Prism logged any violation. npx takes Prism from the npm registry.
set -euo pipefail
cd "$(dirname "$0")/.."
PRISM_PORT=${PRISM_PORT:-18084}
ROUTER_PORT=${ROUTER_PORT:-18085}
mkdir -p target
LOG=target/contract-proxy.log
# each in a process group of its own, so that stopping it stops npx's child too
setsid npx -y @stoplight/prism-cli@5.14.2 proxy openapi.yaml "$APP_URL" --errors -p "$PRISM_PORT" > "$LOG" 2>&1 &
PRISM=$!
ROUTER_PORT=$ROUTER_PORT PRISM_URL="http://127.0.0.1:$PRISM_PORT" APP_URL="$APP_URL" \
  setsid node clients/contract-proxy/router.js > target/contract-router.log 2>&1 &
ROUTER=$!
stop() { kill -- "-$PRISM" "-$ROUTER" 2>/dev/null || true; }
trap stop EXIT
for _ in $(seq 1 120); do grep -q "Prism is listening" "$LOG" && break; kill -0 "$PRISM" 2>/dev/null || break; sleep 1; done
grep -q "Prism is listening" "$LOG" || { echo "Prism did not start"; cat "$LOG"; exit 1; }

BASE="http://127.0.0.1:$ROUTER_PORT" "$@"

requests=$(grep -ac "Request received" "$LOG" || true)
violations=$(grep -aE "violation|✖" "$LOG" | grep -av "NO_PATH_MATCHED" || true)
echo "validating proxy: $requests requests checked against openapi.yaml"
if [ -n "$violations" ]; then
  echo "the contract and the server disagree:"; echo "$violations"; exit 1
fi
echo "validating proxy: 0 violations"
