#!/usr/bin/env bash
# Where the edge worker's CPU time per request goes beyond workerd's floor, by subtraction
# rather than by sampling (perf and the inspector attribute workerd's, V8's and the kernel's
# time to whatever code ran, not to what caused it): four builds in workerds of their own,
# timed over alternating rounds of the bench's mix by edge/bench/ab (CPU time per request from
# /proc, lowest and median):
#   floor   edge/bench/floor/ok.mjs: a JS worker answering "ok", workerd's own cost
#   replay  the worker, each URL's answer asked of Go once and then replayed from JS with the
#           same status, headers and bytes (replay.mjs): workerd and entry.mjs, no Go call
#   worker  the worker as deployed
#   twice   the worker serving every request twice (twice.mjs): one more, warm, Go call
# and prints the differences: the answer's shape and entry.mjs's JS (replay - floor), the Go
# call as a request makes it (worker - replay) and as a second call in the same request does
# (twice - worker). The replay and twice workers exist only in this script's work directory.
# Usage: edge/bench/split/run.sh [ab flags, default -rounds 5 -n 1500 -warm 5000]
set -euo pipefail
dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
edge="$(cd "$dir/../.." && pwd)"
cd "$edge/.."
"$edge/npm-deps.sh"
work="$(mktemp -d "${TMPDIR:-/tmp}/fitclaim-split.XXXXXX")"
trap 'rm -rf "$work"' EXIT
EDGE_BUILD_TAGS= "$edge/build.sh" "$work/worker" >&2
for variant in replay twice; do
  cp -r "$work/worker" "$work/$variant"
  if [[ "$(grep -c '^export default {$' "$work/worker/entry.mjs")" != 1 ]]; then
    echo "split: entry.mjs has no single 'export default {' line to rename" >&2
    exit 1
  fi
  sed 's/^export default {$/const fitclaim = {/' "$work/worker/entry.mjs" >"$work/$variant/entry.mjs"
  cat "$dir/$variant.mjs" >>"$work/$variant/entry.mjs"
done
cp -r "$work/worker" "$work/floor"
cp "$edge/bench/floor/ok.mjs" "$work/floor/entry.mjs"
flags=("$@")
((${#flags[@]})) || flags=(-rounds 5 -n 1500 -warm 5000)
out="$("$edge/bench/ab/run.sh" -check=false "${flags[@]}" floor="$work/floor" replay="$work/replay" worker="$work/worker" twice="$work/twice")"
echo "$out"
awk '$1 ~ /^(floor|replay|worker|twice)$/ { min[$1] = $2; med[$1] = $4 }
END {
  printf "CPU time per request, µs (lowest / median of the rounds):\n"
  printf "  workerd floor (JS \"ok\")                            %5d / %5d\n", min["floor"], med["floor"]
  printf "  + the answer and entry.mjs, no Go (replay - floor)  %5d / %5d\n", min["replay"] - min["floor"], med["replay"] - med["floor"]
  printf "  + the call into Go (worker - replay)                %5d / %5d\n", min["worker"] - min["replay"], med["worker"] - med["replay"]
  printf "  = the worker                                        %5d / %5d\n", min["worker"], med["worker"]
  printf "  a second call into Go in the same request, warm (twice - worker): %d / %d\n", min["twice"] - min["worker"], med["twice"] - med["worker"]
}' <<<"$out"
