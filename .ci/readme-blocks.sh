#!/usr/bin/env bash
# Runs the API guide's "Using the API from CI" walk-through as written, then its "Governance" examples: every
# ```bash block under those two "## " headings (exact text), in order, as one script (```sh blocks are shown, not
# run). The file is the first argument, docs/api-guide.md by default (the README held them before issue 32). Needs
# BASE and the bootstrap client's id and secret in the environment, as the guide says.
set -euo pipefail
readme=${1:-docs/api-guide.md}
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
