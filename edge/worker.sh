# Sourced by edge/test.sh and edge/bench.sh: start the built worker in workerd on a free
# loopback port, wait until it answers, and stop it when the calling script exits.
# edge_build builds into a private directory (so runs at the same time do not share
# dist-edge/) and writes a workerd config for it; edge_start runs that build.
# After edge_start: EDGE_URL=http://127.0.0.1:PORT, EDGE_PID, EDGE_LOG.
# edge_start_more N (after edge_start; edge/bench.sh) starts N more workerd processes serving
# the same build, each on a port of its own: EDGE_URLS and EDGE_PIDS list all of them,
# comma-separated, the first being EDGE_URL's.
# Debugging: EDGE_KEEP_LOG=1 keeps workerd's log; EDGE_WORKERD_FLAGS=--verbose adds to it.

edge_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export WRANGLER_SEND_METRICS=false CLOUDFLARE_CF_FETCH_ENABLED=false

# edge_free_port prints a loopback TCP port nobody listens on (bash's /dev/tcp, no other tool).
edge_free_port() {
  local p
  for _ in $(seq 1 200); do
    p=$((20000 + RANDOM % 40000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
      echo "$p"
      return 0
    fi
  done
  echo "edge: no free port found" >&2
  return 1
}

edge_build() {
  trap 'edge_stop' EXIT
  EDGE_WORK="$(mktemp -d "${TMPDIR:-/tmp}/fitclaim-edge-run.XXXXXX")"
  "$edge_dir/build.sh" "$EDGE_WORK/dist-edge"
  sed "s|\.\./dist-edge/|dist-edge/|g" "$edge_dir/workerd.capnp" >"$EDGE_WORK/workerd.capnp"
}

# edge_kill stops workerd (and those of edge_start_more); edge_stop also removes the log and
# the private build.
edge_kill() {
  local p
  for p in "${EDGE_MORE_PIDS[@]}"; do
    kill "$p" 2>/dev/null || true
    wait "$p" 2>/dev/null || true
  done
  EDGE_MORE_PIDS=()
  if [[ -n "${EDGE_PID:-}" ]] && kill -0 "$EDGE_PID" 2>/dev/null; then
    kill "$EDGE_PID" 2>/dev/null || true
    for _ in $(seq 1 50); do
      kill -0 "$EDGE_PID" 2>/dev/null || break
      sleep 0.1
    done
    kill -9 "$EDGE_PID" 2>/dev/null || true
    wait "$EDGE_PID" 2>/dev/null || true
  fi
  EDGE_PID=
}

edge_stop() {
  edge_kill
  if [[ -n "${EDGE_LOG:-}" && -z "${EDGE_KEEP_LOG:-}" ]]; then
    rm -f "$EDGE_LOG"
  fi
  if [[ -n "${EDGE_WORK:-}" ]]; then
    rm -rf "$EDGE_WORK"
  fi
}

# edge_start starts workerd in the background (tries a few ports) and waits up to 60 s for
# /api/v1/version to answer.
edge_start() {
  [[ -n "${EDGE_WORK:-}" ]] || edge_build
  EDGE_LOG="$(mktemp "${TMPDIR:-/tmp}/fitclaim-workerd.XXXXXX.log")"
  trap 'edge_stop' EXIT
  trap 'edge_stop; exit 130' INT TERM
  local port try
  for try in 1 2 3; do
    port="$(edge_free_port)"
    # shellcheck disable=SC2086 # EDGE_WORKERD_FLAGS (e.g. --verbose) is a word list
    "$edge_dir/node_modules/.bin/workerd" serve "$EDGE_WORK/workerd.capnp" ${EDGE_WORKERD_FLAGS:-} \
      --socket-addr "http=127.0.0.1:$port" >"$EDGE_LOG" 2>&1 &
    EDGE_PID=$!
    EDGE_URL="http://127.0.0.1:$port"
    for _ in $(seq 1 600); do
      if ! kill -0 "$EDGE_PID" 2>/dev/null; then
        break
      fi
      if edge_ready "$port"; then
        echo "edge: workerd $EDGE_PID serving $EDGE_URL (log $EDGE_LOG)" >&2
        return 0
      fi
      sleep 0.1
    done
    echo "edge: workerd did not start on port $port (try $try):" >&2
    cat "$EDGE_LOG" >&2
    edge_kill
  done
  return 1
}

EDGE_MORE_PIDS=()

edge_start_more() {
  local n="$1" port pid
  EDGE_URLS="$EDGE_URL" EDGE_PIDS="$EDGE_PID"
  for _ in $(seq 1 "$n"); do
    port="$(edge_free_port)"
    "$edge_dir/node_modules/.bin/workerd" serve "$EDGE_WORK/workerd.capnp" --socket-addr "http=127.0.0.1:$port" >>"$EDGE_LOG" 2>&1 &
    pid=$!
    EDGE_MORE_PIDS+=("$pid")
    for _ in $(seq 1 600); do
      kill -0 "$pid" 2>/dev/null || break
      edge_ready "$port" && break
      sleep 0.1
    done
    if ! edge_ready "$port"; then
      echo "edge: a second workerd did not start on port $port:" >&2
      tail -n 20 "$EDGE_LOG" >&2
      return 1
    fi
    EDGE_URLS+=",http://127.0.0.1:$port" EDGE_PIDS+=",$pid"
  done
  echo "edge: workerd $EDGE_PIDS serving $EDGE_URLS" >&2
}

# edge_ready sends one GET /api/v1/version over /dev/tcp and checks for a 200 status line.
edge_ready() (
  exec 4<>"/dev/tcp/127.0.0.1/$1" || exit 1
  printf 'GET /api/v1/version HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' >&4
  IFS= read -r -t 10 line <&4 || exit 1
  while IFS= read -r -t 10 _; do :; done <&4 # drain, so workerd finishes writing
  [[ "$line" == "HTTP/1.1 200"* ]]
) 2>/dev/null
