#!/usr/bin/env bash
# Times the call into Go of built edge workers under Node (cold.mjs says how): each round is a
# Node process of its own with every build, taking turns request by request (so a change of
# the machine's speed falls on all alike), instantiated in a turning order. An instance's own
# placement moves its figures by up to a quarter (two instances of one build in one process:
# 0.73-1.0x of each other in one run), so only the median over several rounds means anything. Prints per build the median over the
# rounds of its calls' median and 10th percentile (each the mean over the mix's routes of the
# route's own), and the median over the rounds of that median divided by the first build's in
# the same round. Each NAME=DIR is a dist-edge directory
# (edge/build.sh DIR).
# Usage: edge/bench/cold/run.sh [-thrash KB] [-rounds 7] [-warm 5000] [-n 3000] NAME=DIR NAME=DIR ...
set -euo pipefail
dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$dir/../../.."
thrash=4096 rounds=7 warm=5000 n=3000 builds=()
while (($#)); do
  case "$1" in
  -thrash) thrash=$2; shift 2 ;;
  -rounds) rounds=$2; shift 2 ;;
  -warm) warm=$2; shift 2 ;;
  -n) n=$2; shift 2 ;;
  *) builds+=("$1"); shift ;;
  esac
done
mapfile -t paths < <(go run ./edge/bench -print-mix)
load0="$(cut -d' ' -f1-3 /proc/loadavg)"
out="$(for ((r = 0; r < rounds; r++)); do
  # Every build in one Node process per round, instantiated in a turning order.
  k=$((r % ${#builds[@]}))
  COLD_TSV=1 node "$dir/cold.mjs" "$thrash" "$warm" "$n" "${builds[@]:k}" "${builds[@]:0:k}" -- "${paths[@]}" | sed "s/^/$r\t/"
done)"
echo "$rounds rounds, a Node process each with every build: $warm warm-up, $n timed calls of the mix per build, $thrash KB written before each call; node $(node --version); load $load0 -> $(cut -d' ' -f1-3 /proc/loadavg)"
node -e '
const rows = require("fs").readFileSync(0, "utf8").trim().split("\n").map((l) => l.split("\t"));
const names = [...new Set(rows.map((r) => r[1]))];
const med = (a) => a.slice().sort((x, y) => x - y)[a.length >> 1];
const by = (name, col) => rows.filter((r) => r[1] === name).map((r) => Number(r[col]));
const first = by(names[0], 3);
console.log(["build".padEnd(16), "p10 µs".padStart(8), "median".padStart(8), "÷ first".padStart(9), "  medians by round"].join(" "));
for (const name of names) {
  const m = by(name, 3);
  console.log([name.padEnd(16), med(by(name, 2)).toFixed(1).padStart(8), med(m).toFixed(1).padStart(8), (med(m.map((x, i) => x / first[i])).toFixed(3) + "x").padStart(9), "  " + m.map((x) => x.toFixed(0)).join(" ")].join(" "));
}' <<<"$out"
