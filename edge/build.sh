#!/usr/bin/env bash
# Builds the fitclaim edge worker (Go, GOOS=js GOARCH=wasm, syumai/workers) into dist-edge/:
#   dist-edge/app.wasm      the Go program (wasm/edge, which mounts edge/api)
#   dist-edge/entry.mjs     the worker's entry module (edge/entry.mjs: one Go instance per
#                           isolate, every request dispatched into it)
#   dist-edge/runtime.mjs, wasm_exec.js   syumai/workers' glue that entry.mjs uses
# Needs only Go: the JS glue comes from the syumai/workers module pinned in go.mod (its
# worker.mjs, which starts an instance per request, is left out: entry.mjs replaces it).
# EDGE_BUILD_TAGS=edgetest adds the test-only routes (edge/test.sh sets it; nothing else may).
# EDGE_LDFLAGS replaces the linker flags ("-s -w": no symbols; edge/bench/prof/run.sh sets it
# empty so that a CPU profile names Go's functions).
# EDGE_GCFLAGS, when set, is passed as -gcflags (experiments: edge/README.md's seventh session).
# EDGE_MERGE_DATA=0 skips merging app.wasm's data segments (tools/cmd/wasmmerge; edge/README.md).
# Usage: edge/build.sh [outdir]    (also: ./build.sh edge); outdir defaults to dist-edge/
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
out="${1:-$root/dist-edge}"
mkdir -p "$(dirname "$out")"
out="$(cd "$(dirname "$out")" && pwd)/$(basename "$out")"

# workers-assets-gen empties its output directory, so it runs first, into a staging dir.
stage="$(mktemp -d "${TMPDIR:-/tmp}/fitclaim-edge.XXXXXX")"
trap 'rm -rf "$stage"' EXIT
go run github.com/syumai/workers/cmd/workers-assets-gen -mode=go -o "$stage/assets"
rm "$stage/assets/worker.mjs"
cp "$root/edge/entry.mjs" "$stage/assets/entry.mjs"
GOOS=js GOARCH=wasm go build -trimpath ${EDGE_GCFLAGS:+"-gcflags=$EDGE_GCFLAGS"} -ldflags="${EDGE_LDFLAGS--s -w}" -tags "${EDGE_BUILD_TAGS:-}" -o "$stage/assets/app.wasm" ./wasm/edge
# Go's linker writes the data section as ~85,000 small segments; merged (the same memory image,
# tools/internal/wasmdata) the upload's gzip is ~150 KB smaller, further under the free plan's
# 3 MB (edge/README.md, the ninth session's data segments).
if [[ "${EDGE_MERGE_DATA:-1}" != 0 ]]; then
  (cd "$root/tools" && go run ./cmd/wasmmerge "$stage/assets/app.wasm")
fi

# Builds running at once (several developers' test runs) must not nest one output in another.
exec 9>"${TMPDIR:-/tmp}/fitclaim-edge-build.lock"
flock 9
rm -rf "$out"
mv -T "$stage/assets" "$out"
exec 9>&-
size=$(wc -c < "$out/app.wasm")
gz=$(gzip -9 -c "$out/app.wasm" | wc -c)
echo "edge: built $out (app.wasm $size bytes, $gz gzipped${EDGE_BUILD_TAGS:+, tags $EDGE_BUILD_TAGS})"
