#!/usr/bin/env bash
# A V8 CPU profile of the edge worker in workerd under the edge bench's request mix, and where
# its time goes (summary.mjs): builds the worker as deployed but with Go's symbols (so the
# profile names Go's functions), starts workerd with its inspector on a loopback port,
# profile.mjs warms it up and then sends N requests at concurrency C while the inspector's
# Profiler samples the isolate every 50 µs.
# Usage: edge/bench/prof/run.sh [outdir] [N, default 6000] [C, default 8] [warm, default 3000]
set -euo pipefail
prof="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
edge="$(cd "$prof/../.." && pwd)"
cd "$edge/.."
out="${1:-$(mktemp -d "${TMPDIR:-/tmp}/fitclaim-prof.XXXXXX")}"
mkdir -p "$out"
"$edge/npm-deps.sh"
export EDGE_BUILD_TAGS= EDGE_LDFLAGS=
# shellcheck source=edge/worker.sh
source "$edge/worker.sh"
iport="$(edge_free_port)"
EDGE_WORKERD_FLAGS="--inspector-addr=127.0.0.1:$iport"
edge_start
mapfile -t paths < <(go run ./edge/bench -print-mix)
node --experimental-websocket --no-warnings "$prof/profile.mjs" "127.0.0.1:$iport" "$EDGE_URL" "$EDGE_PID" \
  "$out/workerd.cpuprofile" "${4:-3000}" "${2:-6000}" "${3:-8}" "${paths[@]}"
node "$prof/summary.mjs" "$out/workerd.cpuprofile"
