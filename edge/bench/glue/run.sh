#!/usr/bin/env bash
# Counts the calls between JS and Go per request and times the edge worker's two request paths
# under Node (glue.mjs says how), on the edge bench's request mix. Builds the worker as
# deployed (edge/build.sh) into a temporary directory.
# Usage: edge/bench/glue/run.sh [rounds, default 5]   (GLUE_FLAT=50000: the memory over 50,000 requests)
set -euo pipefail
cd "$(dirname "$0")/../../.."
work=$(mktemp -d "${TMPDIR:-/tmp}/fitclaim-glue.XXXXXX")
trap 'rm -rf "$work"' EXIT
EDGE_BUILD_TAGS= edge/build.sh "$work/dist-edge" >&2
mapfile -t paths < <(go run ./edge/bench -print-mix)
node edge/bench/glue/glue.mjs "$work/dist-edge" "${1:-5}" "${paths[@]}"
