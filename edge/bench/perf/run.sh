#!/usr/bin/env bash
# Where the edge worker's CPU time goes in workerd, from Linux perf: workerd has its symbols, and
# V8's --perf-basic-prof (a v8Flags line in a copy of edge/workerd.capnp) names the JIT code, so
# every sample lands on a function (the inspector's profiler, edge/bench/prof, doubles a
# request's cost and cannot see workerd's C++). Builds the worker as deployed, warms it up with
# edge/bench/ab's client (the bench's mix, 8 at a time), records workerd over N requests and
# prints the split per request (split.mjs). The Go functions are named from an unstripped build
# of the same code (the deployed one has no name section). Needs perf (perf_event_paranoid <= 2).
# Usage: edge/bench/perf/run.sh [N, default 6000] [DIST_EDGE dir to measure instead of a fresh build]
set -euo pipefail
dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
edge="$(cd "$dir/../.." && pwd)"
cd "$edge/.."
n="${1:-6000}" hz=4000
"$edge/npm-deps.sh"
work="$(mktemp -d "${TMPDIR:-/tmp}/fitclaim-perf.XXXXXX")"
pid=
trap '[[ -n "$pid" ]] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
if [[ -n "${2:-}" ]]; then
  cp -r "$2" "$work/dist"
else
  EDGE_BUILD_TAGS= "$edge/build.sh" "$work/dist" >&2
fi
GOOS=js GOARCH=wasm go build -trimpath -o "$work/named.wasm" ./wasm/edge
go build -o "$work/ab" ./edge/bench/ab
sed 's|\.\./dist-edge/|dist/|g; s|^const config :Workerd.Config = ($|&\n  v8Flags = ["--perf-basic-prof"],|' "$edge/workerd.capnp" >"$work/perf.capnp"
# shellcheck source=edge/worker.sh
source "$edge/worker.sh"
port="$(edge_free_port)"
# In the work directory: with --perf-basic-prof V8 also writes an isolate-*-v8.log there.
(cd "$work" && exec "$edge/node_modules/.bin/workerd" serve perf.capnp --socket-addr "http=127.0.0.1:$port" >workerd.log 2>&1) &
pid=$!
for _ in $(seq 1 600); do edge_ready "$port" && break; sleep 0.1; done
"$work/ab" -rounds 1 -n 3000 -warm 3000 "w=http://127.0.0.1:$port@$pid" >/dev/null
perf record -F "$hz" -p "$pid" -o "$work/perf.data" >/dev/null 2>&1 &
rec=$!
sleep 0.5
"$work/ab" -rounds 1 -n "$n" -warm 0 "w=http://127.0.0.1:$port@$pid" | tail -1 | awk '{ print "workerd CPU time per request (/proc, under perf): " $2 " µs, " $4 " req/s" }'
kill -INT "$rec"
wait "$rec" || true
perf report -i "$work/perf.data" --no-children --sort dso,sym -g none -n 2>/dev/null >"$work/report.txt"
echo "load:$(uptime | sed 's/.*load average://')"
node "$dir/split.mjs" "$work/report.txt" "$n" "$hz" "$work/named.wasm"
rm -f /tmp/perf-"$pid".map
