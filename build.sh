#!/usr/bin/env bash
# The one entry point for building, serving, testing and benchmarking fitclaim.
#
#   ./build.sh [build]    build the static site into dist/
#   ./build.sh serve      build, then serve dist/ on http://127.0.0.1:$PORT (default 8080)
#                         with the headers and redirects of netlify.toml, and /api/* from the edge
#                         worker in workerd on $API_PORT (default 8787; SERVE_API=0: site only)
#   ./build.sh test       every test: vet, unit, wasm-in-Chromium, end-to-end, conformance, fuzzing, edge
#   ./build.sh bench      every figure: bytes, page and render times, wasm vs native, accuracy, Go and edge benchmarks (bench/bench.sh)
#   ./build.sh sizes      raw, gzip -9 and brotli sizes of each file in dist/ (not the precompressed copies)
#   ./build.sh edge       build the edge worker (edge/build.sh)
#   ./build.sh edge-serve serve the edge worker locally (edge/serve.sh)
#
# On a fresh Debian machine with Go installed, `serve` and `test` do all their own set-up
# (Chromium and brotli from apt, wasmbrowsertest built from the tools module into .cache/bin).
# Environment: PORT, FUZZTIME (per fuzz target, default 10s), WASM_PKG (default ./wasm/page).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
ROOT=$PWD

DIST=$ROOT/dist
BIN=$ROOT/.cache/bin
WASM_PKG=${WASM_PKG:-./wasm/page}
export FITCLAIM_ROOT=$ROOT FITCLAIM_DIST=$DIST FITCLAIM_ARTIFACTS=$ROOT/artifacts

say() { printf '==> %s\n' "$*" >&2; }
die() { printf 'build.sh: %s\n' "$*" >&2; exit 1; }

# ---------------------------------------------------------------------------
# set-up helpers

as_root() {
	if [ "$(id -u)" = 0 ]; then
		"$@"
	elif command -v sudo >/dev/null 2>&1; then
		sudo "$@"
	else
		die "need root to run: $* (install it yourself or run as root)"
	fi
}

APT_UPDATED=
apt_install() {
	command -v apt-get >/dev/null 2>&1 || die "apt-get not found: install $* yourself"
	if [ -z "$APT_UPDATED" ]; then
		as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q
		APT_UPDATED=1
	fi
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@"
}

ensure_chromium() {
	if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then
		return 0
	fi
	say "installing chromium (apt)"
	# fonts-liberation is only a Recommends of chromium; the e2e screenshots want real glyphs.
	apt_install chromium fonts-liberation
}

ensure_brotli() {
	command -v brotli >/dev/null 2>&1 && return 0
	say "installing brotli (apt)"
	apt_install brotli
}

ensure_go() {
	command -v go >/dev/null 2>&1 || die "Go is not installed (https://go.dev/dl/); everything else is set up by this script"
}

# Tools from the tools module (its go.mod pins wasmbrowsertest v0.11.0 and chromedp v0.14.2).
# The binary must be called wasmbrowsertest: it finds the test binary by that -exec name.
build_wasmbrowsertest() {
	mkdir -p "$BIN"
	(cd tools && go build -o "$BIN/wasmbrowsertest" github.com/agnivade/wasmbrowsertest)
}

build_devserve() {
	mkdir -p "$BIN"
	(cd tools && go build -o "$BIN/devserve" ./cmd/devserve)
}

# ---------------------------------------------------------------------------
# build: tools/cmd/site builds the wasm, renders the example claim into index.html, hashes the
# assets, writes the service worker's precache list and precompresses (brotli when installed).

cmd_build() {
	ensure_go
	mkdir -p "$BIN"
	(cd tools && go build -o "$BIN/site" ./cmd/site)
	"$BIN/site" -root "$ROOT" -out "$DIST" -wasm-pkg "$WASM_PKG"
}

# ---------------------------------------------------------------------------
# serve

# serve: the site, and behind /api/* the edge worker in workerd (as netlify.toml proxies it in
# production), so the page's API links and `kubectl apply -f <link>` work locally too. The worker
# needs npm (edge/npm-deps.sh); without it, or with SERVE_API=0, the site is served alone and
# /api/* answers 502 saying so.
cmd_serve() {
	cmd_build
	build_devserve
	local api=() api_port=${API_PORT:-8787} worker=
	if [ "${SERVE_API:-1}" != 0 ] && [ -f edge/serve.sh ] && (exec 3<>"/dev/tcp/127.0.0.1/$api_port") 2>/dev/null; then
		# Something already listens there (another checkout's worker, say): the wait below
		# would take it for ours and the page's /api/* would be its answers, said nowhere.
		say "127.0.0.1:$api_port is already in use, not by this checkout's worker: serving the site alone (API_PORT=… for another port)"
	elif [ "${SERVE_API:-1}" != 0 ] && [ -f edge/serve.sh ]; then
		say "starting the edge API in workerd on 127.0.0.1:$api_port (SERVE_API=0 to skip)"
		PORT=$api_port bash edge/serve.sh >"${TMPDIR:-/tmp}/fitclaim-serve-api.log" 2>&1 &
		worker=$!
		local i
		for i in $(seq 1 240); do
			if (exec 3<>"/dev/tcp/127.0.0.1/$api_port") 2>/dev/null; then # listening (no curl on a bare Debian)
				api=(-api "http://127.0.0.1:$api_port")
				break
			fi
			kill -0 "$worker" 2>/dev/null || break
			sleep 0.5
		done
		if [ ${#api[@]} -eq 0 ]; then
			say "the edge API did not start (log: ${TMPDIR:-/tmp}/fitclaim-serve-api.log); serving the site alone"
			kill "$worker" 2>/dev/null || true
			worker=
		fi
	fi
	# In the background and waited for, so a TERM or INT to this script stops both servers at once.
	"$BIN/devserve" -dir "$DIST" -config "$ROOT/netlify.toml" "${api[@]}" "$@" &
	local server=$!
	trap 'kill $server $worker 2>/dev/null || true' EXIT
	trap 'exit 130' INT TERM
	wait "$server"
}

# ---------------------------------------------------------------------------
# sizes

human() { awk -v b="$1" 'BEGIN { if (b >= 1048576) printf "%.2f MB", b/1048576; else if (b >= 1024) printf "%.1f KB", b/1024; else printf "%d B", b }'; }

cmd_sizes() {
	[ -d "$DIST" ] || die "dist/ is missing: run ./build.sh first"
	command -v brotli >/dev/null 2>&1 || die "brotli is missing (apt-get install brotli)"
	local f raw gz br traw=0 tgz=0 tbr=0
	printf '%-48s %12s %12s %12s\n' file raw gzip-9 brotli
	while IFS= read -r f; do
		raw=$(wc -c <"$DIST/$f")
		gz=$(gzip -9 -c "$DIST/$f" | wc -c)
		br=$(brotli -c -q 11 "$DIST/$f" | wc -c)
		traw=$((traw + raw)) tgz=$((tgz + gz)) tbr=$((tbr + br))
		printf '%-48s %12d %12d %12d\n' "$f" "$raw" "$gz" "$br"
	done < <(cd "$DIST" && find . -type f ! -name '*.br' ! -name '*.gz' | sed 's|^\./||' | LC_ALL=C sort)
	printf '%-48s %12d %12d %12d\n' total "$traw" "$tgz" "$tbr"
	printf 'total: %s raw, %s gzip, %s brotli\n' "$(human $traw)" "$(human $tgz)" "$(human $tbr)"
}

# ---------------------------------------------------------------------------
# test

declare -a STEP_NAMES=() STEP_RESULTS=()
FAILED=0 PASSED=0

# step NAME CMD...: run CMD (in a subshell, so a failure does not stop the run), record the result.
step() {
	local name=$1 start rc
	shift
	printf '\n==> [%s]\n' "$name" >&2
	start=$SECONDS
	set +e
	(
		set -e
		"$@"
	)
	rc=$?
	set -e
	if [ $rc -eq 0 ]; then
		PASSED=$((PASSED + 1))
		STEP_RESULTS+=("PASS  $name ($((SECONDS - start))s)")
	else
		FAILED=$((FAILED + 1))
		STEP_RESULTS+=("FAIL  $name ($((SECONDS - start))s, exit $rc)")
	fi
	printf '<== [%s] %s\n' "$name" "$([ $rc -eq 0 ] && echo ok || echo FAILED)" >&2
}

skip() { STEP_RESULTS+=("skip  $1: $2"); printf '\n==> [%s] skipped: %s\n' "$1" "$2" >&2; }

setup() {
	ensure_go
	ensure_chromium
	ensure_brotli
}

# Go kills a test binary after 10 minutes by default. On a busy 2-core machine the end-to-end
# and conformance packages alone take 8-10 minutes (the driver sweep is 3 of them), so that
# default fails CI for the machine's load, not for a finding: each package gets 30 minutes.
test_timeout=30m

go_vet_test() { go vet ./... && go test -timeout "$test_timeout" ./...; }

wasm_test_pkgs() {
	[ -d wasm ] || return 0
	GOOS=js GOARCH=wasm go list -f '{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}}{{end}}' ./wasm/... 2>/dev/null | sed '/^$/d'
}

wasm_tests() {
	GOOS=js GOARCH=wasm go test -exec="$BIN/wasmbrowsertest" "$@"
}

# The e2e suite's WCAG audit injects axe-core, pinned in tools/e2e/axe/package.json, from npm.
tools_tests() { bash tools/e2e/axe/npm-deps.sh && cd tools && go vet ./... && go test -timeout "$test_timeout" ./...; }

conformance_tests() { cd conformance && go test -timeout "$test_timeout" ./...; }

# module_dir DIR: the nearest directory at or above DIR with a go.mod
module_dir() {
	local d=$1
	while [ "$d" != . ] && [ ! -f "$d/go.mod" ]; do d=$(dirname "$d"); done
	printf '%s' "$d"
}

# Go 1.26's fuzz coordinator can report a bare "context deadline exceeded" as a failure when
# -fuzztime runs out mid-exec (golang/go#75804, fixed in Go 1.27). That is not a finding: a
# real one prints "Failing input written to testdata/fuzz/...". Such a run counts as a pass.
fuzz_one() {
	local mod=$1 pkg=$2 name=$3 log rc
	log=$(mktemp)
	set +e
	(cd "$mod" && go test -run='^$' -fuzz="^${name}\$" -fuzztime="${FUZZTIME:-10s}" "$pkg") 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	set -e
	if [ "$rc" -ne 0 ] && ! grep -q 'Failing input written to' "$log" &&
		grep -q '^    context deadline exceeded$' "$log" && [ "$(grep -c '^--- FAIL' "$log")" -eq 1 ]; then
		printf 'build.sh: %s: the Go fuzz coordinator race at the end of -fuzztime (golang/go#75804), no failing input: counted as a pass\n' "$name" >&2
		rc=0
	fi
	rm -f "$log"
	return "$rc"
}

cmd_test() {
	local started=$SECONDS
	step "set-up: go, chromium, brotli" setup
	step "build wasmbrowsertest (tools module)" build_wasmbrowsertest
	step "go vet + go test (root module)" go_vet_test

	local pkgs
	pkgs=$(wasm_test_pkgs || true)
	if [ -n "$pkgs" ]; then
		# shellcheck disable=SC2086
		step "wasm tests in headless Chromium: $(echo $pkgs)" wasm_tests $pkgs
	else
		skip "wasm tests in headless Chromium" "no test files under wasm/"
	fi

	step "build dist/" cmd_build
	step "go vet + go test (tools module, incl. e2e against dist/)" tools_tests

	if [ -f conformance/go.mod ]; then
		step "go test (conformance module)" conformance_tests
	else
		skip "conformance" "no conformance/go.mod"
	fi

	local file dir mod rel fn found=0
	while IFS= read -r file; do
		dir=$(dirname "$file")
		mod=$(module_dir "$dir")
		rel=./${dir#"$mod"}
		rel=${rel/#.\/\//./}
		[ "$rel" = "./" ] && rel=.
		for fn in $(sed -nE 's/^func (Fuzz[A-Za-z0-9_]*)\(.*/\1/p' "$file"); do
			found=1
			step "fuzz $fn ($dir, ${FUZZTIME:-10s})" fuzz_one "$mod" "$rel" "$fn"
		done
	done < <(grep -rlE '^func Fuzz' --include='*_test.go' --exclude-dir=node_modules --exclude-dir=.cache \
		--exclude-dir=dist --exclude-dir=dist-edge --exclude-dir=.git . 2>/dev/null | sed 's|^\./||' | LC_ALL=C sort)
	[ $found = 1 ] || skip "fuzzing" "no fuzz targets"

	if [ -x edge/test.sh ]; then
		step "edge worker tests (edge/test.sh)" edge/test.sh
	elif [ -f edge/test.sh ]; then
		step "edge worker tests (edge/test.sh)" bash edge/test.sh
	else
		skip "edge worker tests" "no edge/test.sh"
	fi

	printf '\n==================== summary (%ss) ====================\n' $((SECONDS - started))
	printf '%s\n' "${STEP_RESULTS[@]}"
	printf '%d passed, %d failed\n' "$PASSED" "$FAILED"
	[ "$FAILED" -eq 0 ]
}

# ---------------------------------------------------------------------------
# bench

# Figures, not pass/fail: bench/bench.sh is the one command that prints them all (its header
# and bench/README.md list them); this sets up its tools and builds the site it measures.
cmd_bench() {
	ensure_go
	ensure_chromium
	ensure_brotli
	cmd_build
	build_wasmbrowsertest
	bash bench/bench.sh
}

# ---------------------------------------------------------------------------
# edge worker (edge/ is its own world; these only dispatch)

dispatch_edge() {
	local script=$1
	shift
	[ -f "edge/$script" ] || die "edge/$script does not exist yet: the edge worker has no '$script' step"
	exec bash "edge/$script" "$@"
}

usage() { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; }

cmd=${1:-build}
[ $# -gt 0 ] && shift
case $cmd in
build) cmd_build "$@" ;;
serve) cmd_serve "$@" ;;
test) cmd_test "$@" ;;
bench) cmd_bench "$@" ;;
sizes) cmd_sizes "$@" ;;
edge) dispatch_edge build.sh "$@" ;;
edge-serve) dispatch_edge serve.sh "$@" ;;
help | -h | --help) usage ;;
*)
	usage >&2
	exit 2
	;;
esac
