#!/usr/bin/env bash
# Times pieces of edge/entry.mjs's JS around the Go call in workerd, each in a loop of N inside
# one request (glue.mjs), by workerd's CPU time over that request (/proc/<pid>/stat); prints µs
# per iteration, best of R rounds, variants interleaved.
# Usage: edge/bench/jsglue/run.sh [N, default 20000] [R, default 3] [variant ...]
set -euo pipefail
dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
edge="$(cd "$dir/../.." && pwd)"
"$edge/npm-deps.sh"
# shellcheck source=edge/worker.sh
source "$edge/worker.sh"
port="$(edge_free_port)"
"$edge/node_modules/.bin/workerd" serve "$dir/glue.capnp" --socket-addr "http=127.0.0.1:$port" >/dev/null 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null' EXIT
for _ in $(seq 1 100); do
  curl -s -o /dev/null "http://127.0.0.1:$port/?v=nothing" && break
  sleep 0.1
done
n="${1:-20000}" rounds="${2:-3}"
shift 2 || shift $#
variants=("$@")
[[ ${#variants[@]} -gt 0 ]] || read -r -a variants <<<"$(curl -s "http://127.0.0.1:$port/?v=list" | sed 's/^variants: //')"
cpu() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
declare -A best
for v in "${variants[@]}"; do curl -s -o /dev/null "http://127.0.0.1:$port/?v=$v&n=$n"; done # warm up
for _ in $(seq 1 "$rounds"); do
  for v in "${variants[@]}"; do
    a=$(cpu)
    curl -s -o /dev/null "http://127.0.0.1:$port/?v=$v&n=$n"
    b=$(cpu)
    us=$(( (b - a) * 10000 * 1000 / n )) # ticks of 10 ms -> ns per iteration
    if [[ -z "${best[$v]:-}" || $us -lt ${best[$v]} ]]; then best[$v]=$us; fi
  done
done
echo "µs per iteration in workerd, best of $rounds rounds of $n (load:$(uptime | sed 's/.*load average://'))"
for v in "${variants[@]}"; do printf '%-18s %8.2f\n' "$v" "$(echo "${best[$v]} / 1000" | bc -l)"; done
