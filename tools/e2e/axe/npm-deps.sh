#!/usr/bin/env bash
# Installs the e2e suite's pinned npm package (axe-core, for TestAxeAudit) with `npm ci` when it
# is missing, as edge/npm-deps.sh does for the edge runtime. node_modules stays out of git.
set -euo pipefail
dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [[ ! -f "$dir/node_modules/axe-core/axe.min.js" ]]; then
  command -v npm >/dev/null 2>&1 || { echo "tools/e2e/axe: npm is missing (apt-get install npm)" >&2; exit 1; }
  echo "tools/e2e/axe: npm ci (axe-core)" >&2
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >&2)
fi
