#!/usr/bin/env bash
# Installs edge/'s pinned npm packages (workerd, wrangler) with `npm ci` when they are missing.
set -euo pipefail
edge="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export WRANGLER_SEND_METRICS=false CLOUDFLARE_CF_FETCH_ENABLED=false
if [[ ! -x "$edge/node_modules/.bin/workerd" || ! -x "$edge/node_modules/.bin/wrangler" ]]; then
  echo "edge: npm ci (workerd, wrangler)" >&2
  (cd "$edge" && npm ci --no-audit --no-fund --loglevel=error >&2)
fi
"$edge/node_modules/.bin/workerd" --version >/dev/null
