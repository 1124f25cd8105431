#!/usr/bin/env bash
# Runs the fitclaim edge worker locally in workerd (Cloudflare's runtime, from npm) on
# 127.0.0.1:$PORT (default 8787), with no outbound network (see edge/workerd.capnp).
# Builds first unless EDGE_NO_BUILD=1; installs the pinned npm packages with `npm ci` when
# edge/node_modules is missing. Stops on Ctrl-C / SIGTERM.
# Usage: PORT=8787 edge/serve.sh      (also: ./build.sh edge-serve)
set -euo pipefail
edge="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$edge/.." && pwd)"
export WRANGLER_SEND_METRICS=false CLOUDFLARE_CF_FETCH_ENABLED=false
port="${PORT:-8787}"

"$edge/npm-deps.sh"
if [[ "${EDGE_NO_BUILD:-0}" != 1 || ! -f "$root/dist-edge/app.wasm" ]]; then
  "$edge/build.sh"
fi
echo "edge: serving on http://127.0.0.1:$port/api/v1/version (workerd $("$edge/node_modules/.bin/workerd" --version | awk '{print $2}'))" >&2
exec "$edge/node_modules/.bin/workerd" serve "$edge/workerd.capnp" --socket-addr "http=127.0.0.1:$port"
