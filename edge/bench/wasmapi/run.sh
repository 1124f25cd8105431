#!/usr/bin/env bash
# Times edge/api's handler on the edge bench's request mix, natively and as Go wasm under Node,
# and prints them side by side (medians per route; see main.go). Arguments go to both runs
# (e.g. -rounds 500 -only claim). PROF=dir also writes a V8 CPU profile of the wasm run there
# (node --cpu-prof; the wasm keeps its function names: it is built without -ldflags=-s).
set -euo pipefail
cd "$(dirname "$0")/../../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/native" ./edge/bench/wasmapi
GOOS=js GOARCH=wasm go build -o "$work/wasmapi.wasm" ./edge/bench/wasmapi
wasmexec="$(go env GOROOT)/lib/wasm"
[ -f "$wasmexec/wasm_exec_node.js" ] || wasmexec="$(go env GOROOT)/misc/wasm"
prof=()
if [ -n "${PROF:-}" ]; then
	mkdir -p "$PROF"
	prof=(--cpu-prof --cpu-prof-dir="$PROF")
fi
# One core for the native run, as wasm has: its CPU time then leaves out the scheduler's
# spinning threads (the GC still runs beside the handler on that one core, as in wasm).
GOMAXPROCS=1 "$work/native" -tsv "$@" >"$work/native.tsv"
node --stack-size=8192 "${prof[@]}" "$wasmexec/wasm_exec_node.js" "$work/wasmapi.wasm" -tsv "$@" >"$work/wasm.tsv"
echo "edge/api's handler per request by route, µs: median and 10th percentile of the clock over the mix interleaved"
echo "(node $(node --version), $(go version | cut -d' ' -f3), native with GOMAXPROCS=1; load: $(cut -d' ' -f1-3 /proc/loadavg))"
printf '%-20s %17s %17s %13s %9s %7s %7s\n' route "native p50/p10" "wasm p50/p10" "wasm/native" "alloc B" allocs "body B"
join -t $'\t' <(nl -ba -nrz -w3 "$work/native.tsv" | sed 's/^\([0-9]*\)\t/\1:/' | sort) <(nl -ba -nrz -w3 "$work/wasm.tsv" | sed 's/^\([0-9]*\)\t/\1:/' | sort) |
	awk -F'\t' '{ split($1, k, ":"); printf "%-20s %8.1f /%7.1f %8.1f /%7.1f %5.1fx /%5.1fx %9s %7s %7s\n", k[2], $2, $7, $9, $14, ($2 > 0 ? $9 / $2 : 0), ($7 > 0 ? $14 / $7 : 0), $11, $12, $13 }'
awk -F'\t' 'FNR == NR { if ($1 == "mix") n = $8; next } $1 == "mix" { printf "the process'"'"'s CPU time per request over the mix: native %.1f µs, wasm %.1f µs (%.1fx); wasm mean clock time with GC %.1f µs\n", n, $8, ($8 / n), $3 }' "$work/native.tsv" "$work/wasm.tsv"
