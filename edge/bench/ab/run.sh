#!/usr/bin/env bash
# Compares builds of the edge worker (main.go says how): each NAME=DIR is a built dist-edge
# directory (edge/build.sh DIR), served by a workerd of its own; the rest of the arguments go to
# ab (-n, -c, -rounds, -warm).
# Usage: edge/bench/ab/run.sh [ab flags] NAME=DIR NAME=DIR ...
set -euo pipefail
dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
edge="$(cd "$dir/../.." && pwd)"
cd "$edge/.."
"$edge/npm-deps.sh"
# shellcheck source=edge/worker.sh
source "$edge/worker.sh"
work="$(mktemp -d "${TMPDIR:-/tmp}/fitclaim-ab.XXXXXX")"
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; rm -rf "$work"' EXIT
go build -o "$work/ab" ./edge/bench/ab
flags=() targets=()
for arg in "$@"; do
  if [[ "$arg" == *=* && "$arg" != -* ]]; then
    name="${arg%%=*}" dist="$(cd "${arg#*=}" && pwd)"
    ln -s "$dist" "$work/$name" # capnp embeds are relative to the config
    sed "s|\.\./dist-edge/|$name/|g" "$edge/workerd.capnp" >"$work/$name.capnp"
    port="$(edge_free_port)"
    "$edge/node_modules/.bin/workerd" serve "$work/$name.capnp" --socket-addr "http=127.0.0.1:$port" >"$work/$name.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 1 600); do edge_ready "$port" && break; sleep 0.1; done
    targets+=("$name=http://127.0.0.1:$port@${pids[-1]}")
  else
    flags+=("$arg")
  fi
done
"$work/ab" "${flags[@]}" "${targets[@]}"
