#!/usr/bin/env bash
# The CLI as a pipeline uses it, against $BASE (in CI: through the validating proxy, after the API guide's
# walk-through made the vision-lab tenant and the h100-us pool): a service account of its own, then login, pools,
# earliest, quote, book --wait READY, status, extend, list, usage and cancel. Fails on the first command that does.
set -euo pipefail
cd "$(dirname "$0")/.."
CLI=cli/target/allot-cli.jar
[ -f "$CLI" ] || { echo "no $CLI: ./mvnw verify builds it"; exit 1; }
ADMIN=$(curl -fsS -u "$ALLOT_BOOTSTRAP_CLIENT_ID:$ALLOT_BOOTSTRAP_CLIENT_SECRET" -d grant_type=client_credentials \
  "$BASE/oauth2/token" | jq -r .access_token)
SA=$(curl -fsS -H "Authorization: Bearer $ADMIN" -H 'Content-Type: application/json' \
  -d '{"name":"cli-in-ci","role":"MEMBER"}' "$BASE/api/v1/tenants/vision-lab/service-accounts")
export ALLOT_CONFIG; ALLOT_CONFIG=$(mktemp -d)/allot
export ALLOT_CLIENT_SECRET; ALLOT_CLIENT_SECRET=$(jq -r .clientSecret <<<"$SA")
allot() { echo "+ allot $*" >&2; java -jar "$CLI" "$@"; }
allot login --url "$BASE" --client-id "$(jq -r .clientId <<<"$SA")"
allot pools -o json > /dev/null
allot earliest --pool h100-us --gpus 8 --duration PT1H -o json > /dev/null
allot quote --project nightly --pool h100-us --gpus 8 --duration PT1H -o json > /dev/null
ID=$(allot book --project nightly --pool h100-us --gpus 8 --duration PT1H --orchestrator SLURM \
  --idempotency-key "cli-in-ci-$(date +%s)" --wait READY --wait-timeout PT5M -o json | jq -r .reservation.id)
trap 'allot cancel "$ID" > /dev/null || true' EXIT
allot status "$ID" -o json > /dev/null
allot extend "$ID" --by PT1H -o json > /dev/null
allot list -o json > /dev/null
allot usage -o json > /dev/null
allot cancel "$ID" -o json | jq -r .status
echo "CLI flow: passed"
