#!/usr/bin/env bash
# Measures the worker's upload as Cloudflare would take it, without uploading anything:
# `wrangler deploy --dry-run --outdir <tmp>` (which also runs edge/build.sh). Fails when the
# gzip size reaches the free plan's 3 MB limit, or when the test-only routes are in it.
# Telemetry, the banner's update check and the cf fetch are turned off.
# Usage: edge/size.sh
set -euo pipefail
edge="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export WRANGLER_SEND_METRICS=false CLOUDFLARE_CF_FETCH_ENABLED=false WRANGLER_HIDE_BANNER=true
"$edge/npm-deps.sh"
out="$(mktemp -d "${TMPDIR:-/tmp}/fitclaim-edge-dry.XXXXXX")"
trap 'rm -rf "$out"' EXIT
log="$out/wrangler.log"
(cd "$edge" && ./node_modules/.bin/wrangler deploy --dry-run --outdir "$out/bundle") >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
line="$(grep -a 'Total Upload' "$log")" || { cat "$log" >&2; exit 1; }
echo "edge: wrangler deploy --dry-run: $line"
ls -l "$out/bundle" | awk 'NR>1 && $NF !~ /README|\.map$/ {printf "  %10d  %s\n", $5, $NF}'
# The test-only routes (wasm/edge/hooks_edgetest.go, built only by edge/test.sh) must not ship.
if grep -aq "__edgetest/" "$out"/bundle/*.wasm; then
  echo "edge: the upload contains the test-only routes (/__edgetest/); build without -tags edgetest" >&2
  exit 1
fi
echo "edge: no test-only routes in the upload"
gz_kib="$(sed -E 's/.*gzip: ([0-9.]+) KiB.*/\1/' <<<"$line")"
limit_kib=2929 # 3,000,000 bytes, the stricter reading of "3 MB"
if awk -v g="$gz_kib" -v l="$limit_kib" 'BEGIN{exit !(g >= l)}'; then
  echo "edge: gzip upload $gz_kib KiB is over the free plan's 3 MB ($limit_kib KiB)" >&2
  exit 1
fi
echo "edge: under the 3 MB free-plan limit ($gz_kib KiB of $limit_kib KiB gzipped)"
