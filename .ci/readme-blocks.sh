#!/usr/bin/env bash
# Runs the README's "Using the API from CI" walk-through as written, then its "Governance" examples: every
# ```bash block of those sections, in order, as one script (```sh blocks are shown, not run). Needs BASE and the bootstrap client's id and secret
# in the environment, as the README says.
set -euo pipefail
readme=${1:-README.md}
script=$(awk '
  /^## / { inside = ($0 == "## Using the API from CI" || $0 == "## Governance") }
  inside && /^```bash$/ { block = 1; next }
  block && /^```$/ { block = 0; print ""; next }
  block { print }
' "$readme")
if [ -z "$script" ]; then
  echo "no bash blocks under '## Using the API from CI' in $readme" >&2
  exit 1
fi
bash -euo pipefail -c "$script"
