#!/usr/bin/env bash
# Tests the edge worker in Cloudflare's runtime: builds it (into a private temporary
# directory), starts workerd on a free loopback port, runs edge/api's tests with FITCLAIM_EDGE_URL set (every route with good and hostile
# input, bytes and headers compared with the same handler in net/http and with the engine),
# then stops workerd (also on failure or Ctrl-C).
# Usage: edge/test.sh [go test flags]      (also: part of ./build.sh test)
set -euo pipefail
edge="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$edge/.." && pwd)"
cd "$root"

"$edge/npm-deps.sh"
# The test build has the test-only routes (wasm/edge/hooks_edgetest.go: a panic, an instance
# that ends, a body echo); FITCLAIM_EDGE_HOOKS tells the tests they are there.
export EDGE_BUILD_TAGS=edgetest FITCLAIM_EDGE_HOOKS=1
# shellcheck source=edge/worker.sh
source "$edge/worker.sh"
edge_start

status=0
node "$edge/plainurl_test.mjs" || status=$?
# -p 1: one package at a time against the one workerd, since edge/api's instance tests count
# the requests the instance answers (edge/bench's test would add its own to the count).
FITCLAIM_EDGE_URL="$EDGE_URL" EDGE_BUILD_TAGS= go test -count=1 -p 1 "$@" ./edge/... || status=$?
if ! kill -0 "$EDGE_PID" 2>/dev/null; then
  echo "edge: workerd died during the tests" >&2
  status=1
fi
if [[ $status != 0 ]]; then
  echo "edge: workerd log ($EDGE_LOG):" >&2
  tail -n 50 "$EDGE_LOG" >&2
fi
exit "$status"
