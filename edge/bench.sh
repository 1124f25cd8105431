#!/usr/bin/env bash
# Bounded load run on loopback: builds the worker (as deployed: no test-only routes), starts it
# in workerd on a free 127.0.0.1 port, then edge/bench (a Go client) sends N requests at
# concurrency C, then SEQ requests one at a time, to it and to the same handler in net/http
# (on every core, and again with GOMAXPROCS=1 for the per-core figure),
# and prints requests/s, p50/p99 latency, errors, the throughput ratios, and workerd's CPU time
# per request (its process's user + system time, /proc/<pid>/stat) beside the Workers free
# plan's 10 ms. Stops workerd on exit. Exits non-zero on any error or wrong answer.
# Usage: edge/bench.sh [-n 2000] [-c 8] [-seq 300] [-warm 1500] [-timeout 5m]
set -euo pipefail
edge="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$edge/.." && pwd)"
cd "$root"

"$edge/npm-deps.sh"
export EDGE_BUILD_TAGS= # what is deployed
bin="$(mktemp -d "${TMPDIR:-/tmp}/fitclaim-bench.XXXXXX")"
go build -o "$bin/bench" ./edge/bench
# shellcheck source=edge/worker.sh
source "$edge/worker.sh"
edge_start
trap 'edge_stop; rm -rf "$bin"' EXIT
echo "workerd $("$edge/node_modules/.bin/workerd" --version | awk '{print $2}'), $(go version | awk '{print $3}'), $(nproc) cores"
"$bin/bench" -edge "$EDGE_URL" -edge-pid "$EDGE_PID" "$@"
