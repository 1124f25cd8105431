#!/usr/bin/env bash
# Does a call from JS into Go wasm (GOOS=js) grow its goroutine's stack each time? Builds
# edge/bench/stackcopies with a copy of the runtime's stack.go that counts copystack (every
# stack growth or shrink), newstack and shrinkstack, and serves the edge bench's mix from Node
# through go:wasmexport calls (as wasm/edge's fitclaimServe), the same with a runtime.Gosched
# after each (as its yieldIfDue, which lets the GC finish), and through a js.FuncOf callback;
# each with and without a 64 KB stack grown up front, in interleaved rounds, and once at the
# page's GC percent (100) rather than the edge worker's (400). Prints, per run,
# the process's CPU time per request and the stack copies.
# Usage: edge/bench/stackcopies/run.sh [rounds, default 2] [timed requests, default 5000]
set -euo pipefail
dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$dir/../../.."
rounds="${1:-2}" n="${2:-5000}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
stack="$(go env GOROOT)/src/runtime/stack.go"
sed -e 's/^func copystack(gp \*g, newsize uintptr) {$/var StackCopies, StackGrows, StackShrinks uint32\n\n&\n\tStackCopies++/' \
	-e 's/^func newstack() {$/&\n\tStackGrows++/' \
	-e 's/^func shrinkstack(gp \*g) {$/&\n\tStackShrinks++/' "$stack" >"$work/stack.go"
if [[ "$(grep -c 'Stack\(Copies\|Grows\|Shrinks\)++' "$work/stack.go")" != 3 ]]; then
	echo "stackcopies: this Go's runtime/stack.go lacks copystack, newstack or shrinkstack as expected" >&2
	exit 1
fi
printf '{"Replace":{"%s":"%s"}}\n' "$stack" "$work/stack.go" >"$work/overlay.json"
GOOS=js GOARCH=wasm go build -tags stackcopies -overlay "$work/overlay.json" -ldflags=-checklinkname=0 -o "$work/x.wasm" ./edge/bench/stackcopies
export WASM_EXEC="$(go env GOROOT)/lib/wasm/wasm_exec.js"
echo "(node $(node --version), $(go version | cut -d' ' -f3); load: $(cut -d' ' -f1-3 /proc/loadavg))"
for ((r = 1; r <= rounds; r++)); do
	for how in serve yield funcof; do
		for kb in 0 64; do
			node "$dir/drive.mjs" "$work/x.wasm" "$how" "$kb" "$n"
		done
	done
done
for how in serve yield; do
	node "$dir/drive.mjs" "$work/x.wasm" "$how" 0 "$n" 100
done
echo "(load after: $(cut -d' ' -f1-3 /proc/loadavg))"
