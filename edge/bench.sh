#!/usr/bin/env bash
# Bounded load run on loopback: builds the worker (as deployed: no test-only routes), starts it
# in workerd on free 127.0.0.1 ports, one workerd process per core (EDGE_PROCS; workerd runs
# an isolate on one thread), then edge/bench (a Go client) sends N requests at concurrency C,
# then SEQ requests one at a time, to them (spread over the processes; and to the first alone,
# for the per-core figure) and to the same handler in net/http (on every core, and again with
# GOMAXPROCS=1 for the per-core figure),
# and prints requests/s, p50/p99 latency, errors, the throughput ratios, and workerd's CPU time
# per request (its process's user + system time, /proc/<pid>/stat) beside the Workers free
# plan's 10 ms; and, for scale, what the same workerd serves with a JS worker that only
# answers "ok" (edge/bench/floor): its floor on this machine. Stops workerd on exit. Exits
# non-zero on any error or wrong answer.
# Usage: edge/bench.sh [-n 2000] [-c 8] [-seq 300] [-warm 5000] [-timeout 5m]
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
# The first workerd serves the per-core run alone; with more than one core, EDGE_PROCS more
# serve the headline run together.
procs="${EDGE_PROCS:-$(nproc)}"
EDGE_URLS="$EDGE_URL" EDGE_PIDS="$EDGE_PID"
if ((procs > 1)); then
  edge_start_more "$procs"
fi
# The floor: the same workerd serving edge/bench/floor/ok.mjs, a JS worker that answers "ok".
floor_port="$(edge_free_port)"
"$edge/node_modules/.bin/workerd" serve "$edge/bench/floor/floor.capnp" \
  --socket-addr "http=127.0.0.1:$floor_port" >"$bin/floor.log" 2>&1 &
floor_pid=$!
trap 'kill "$floor_pid" 2>/dev/null; wait "$floor_pid" 2>/dev/null; edge_stop; rm -rf "$bin"' EXIT
for _ in $(seq 1 100); do
  edge_ready "$floor_port" && break
  sleep 0.1
done
echo "workerd $("$edge/node_modules/.bin/workerd" --version | awk '{print $2}'), $(go version | awk '{print $3}'), $(nproc) cores; uptime:$(uptime | sed 's/.*load/ load/')"
"$bin/bench" -edge "$EDGE_URLS" -edge-pid "$EDGE_PIDS" -floor "http://127.0.0.1:$floor_port" -floor-pid "$floor_pid" "$@"
