#!/usr/bin/env bash
# fitclaim's one benchmark command: prints every figure, never fails on a slow result (it is not
# a timed test). `./build.sh bench` builds dist/ and runs it; it can also run alone on a built
# dist/. bench/README.md lists every benchmark it runs and where it lives.
#
#   1. first-load bytes of dist/ (raw, gzip -9, brotli -q 11) against the 1.0 MB brotli budget
#   2. navigation -> first rendered claim in headless Chromium, beside a minimal Go wasm page served
#      two ways (raw, as every earlier figure; and like the site, with brotli/gzip copies), on
#      loopback and then over an emulated network (Lighthouse's desktop profile: 40 ms, 10 Mbit/s)
#   3. render latency inside the page (median, p99 over 1,000 renders)
#   3b. one render split into stages (claim.Render, bridge.ResultJSON, JSON.parse), native and wasm
#   4. the whole catalog swept in wasm (Chromium; Node too when present) beside natively
#   4b. the speed estimate against measured runs (bench/speedacc), beside llmfit's formula
#   4c. the vLLM engine budget against logged start-ups (bench/vllmacc)
#   5. the Go benchmarks: every package of the root module with Benchmark functions, outside
#      bench/sweep and bench/bridgebench (run above): catalog, fit, bench/render, ...
#   6. the edge API under load in workerd beside net/http (edge/bench.sh), and the API's own
#      work per route, natively and as Go wasm in Node (edge/bench/wasmapi)
# A step that breaks is said and the others still run; the exit status is non-zero if any broke.
#
# Environment: LOADS (cold loads per page, default 7), RENDERS (default 1000),
# SWEEP_BENCHTIME (default 5x), SWEEP_COUNT (default 3), STAGE_BENCHTIME (default 300x), STAGE_COUNT (3), TAIL_BENCHTIME (3000x),
# FRAGMENT (permalink opened), GO_BENCHTIME (step 5, default 1s), EDGE=0 (skip step 6),
# THROTTLE (step 2's emulated network: pagebench -throttle, default desktop; THROTTLE= skips it),
# THROTTLE_LOADS (its cold loads per page, default LOADS).
# Loopback only; every server and browser it starts is stopped on exit (trap).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
DIST=${FITCLAIM_DIST:-$ROOT/dist}
BIN=$ROOT/.cache/bin
LOADS=${LOADS:-7}
THROTTLE=${THROTTLE-desktop}
[ "$THROTTLE" != 0 ] || THROTTLE=
THROTTLE_LOADS=${THROTTLE_LOADS:-$LOADS}
RENDERS=${RENDERS:-1000}
SWEEP_BENCHTIME=${SWEEP_BENCHTIME:-5x}
SWEEP_COUNT=${SWEEP_COUNT:-3}
FRAGMENT=${FRAGMENT:-m=NousResearch%2FLlama-2-7b-chat-hf}
BUDGET=1048576 # 1.0 MB brotli, the whole first load

say() { printf '==> %s\n' "$*" >&2; }
die() { printf 'bench.sh: %s\n' "$*" >&2; exit 1; }
section() { printf '\n=== %s ===\n' "$*"; }

[ -f "$DIST/index.html" ] || die "$DIST/index.html is missing: run ./build.sh first"
command -v brotli >/dev/null 2>&1 || die "brotli is missing (apt-get install brotli; ./build.sh bench installs it)"
command -v go >/dev/null 2>&1 || die "Go is missing"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/fitclaim-bench.XXXXXX")
SUMMARY=$WORK/summary
: >"$SUMMARY"
CHILD=
cleanup() {
	if [ -n "$CHILD" ] && kill -0 "$CHILD" 2>/dev/null; then
		# the child leads its own process group (setsid): stop it with everything it started
		# (go test -> wasmbrowsertest -> Chromium; pagebench -> Chromium)
		kill -TERM -- "-$CHILD" 2>/dev/null || kill -TERM "$CHILD" 2>/dev/null || true
		wait "$CHILD" 2>/dev/null || true
	fi
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# run_child CMD...: run CMD in the background, in its own process group, so the trap can stop
# it and its children; wait for it.
run_child() {
	setsid "$@" &
	CHILD=$!
	local rc=0
	wait "$CHILD" || rc=$?
	CHILD=
	return $rc
}

note() { printf '%s\n' "$*" >>"$SUMMARY"; }
FAILED=()
broke() { FAILED+=("$1"); note "$1: FAILED (see above)"; }
human() { awk -v b="$1" 'BEGIN { if (b >= 1048576) printf "%.2f MB", b/1048576; else if (b >= 1024) printf "%.1f KB", b/1024; else printf "%d B", b }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a/b; else print "n/a" }'; }

# Measure a snapshot: other work may rebuild dist/ (rm + mv) while this runs. A snapshot whose
# index.html or sw.js names an asset it lacks was taken mid-build: take it again.
snapshot() {
	local try f
	for try in 1 2 3 4 5 6 7 8 9 10; do
		rm -rf "$WORK/dist"
		if [ -f "$DIST/index.html" ] && cp -a "$DIST" "$WORK/dist" 2>/dev/null && [ -f "$WORK/dist/index.html" ]; then
			local ok=1
			for f in $(cat "$WORK/dist/index.html" "$WORK/dist/sw.js" "$WORK"/dist/assets/*.js 2>/dev/null |
				grep -oE 'assets/[A-Za-z0-9._-]+\.[a-z0-9]+' | grep -v '^assets/catalog-shard\.' | sort -u); do
				[ -f "$WORK/dist/$f" ] || { ok=0; break; }
			done
			[ $ok = 1 ] && return 0
		fi
		sleep 1
	done
	die "could not take a consistent snapshot of $DIST (is something rebuilding it?)"
}
snapshot
DIST=$WORK/dist

section "machine"
printf 'cpus: %s   load average: %s\n' "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '%s   commit %s%s\n' "$(go version)" "$(git rev-parse --short HEAD 2>/dev/null || echo '?')" \
	"$(git diff --quiet HEAD -- 2>/dev/null || echo ' (with uncommitted changes)')"
echo "(the machine is shared: other work running at the same time makes every timing noisier)"

# ---------------------------------------------------------------------------
# 1. First-load bytes

section "1. first-load bytes (dist/, $(date -r "$DIST/index.html" '+built %H:%M:%S'))"
# The first load: index.html, everything it references (recursively through stylesheets,
# scripts and the manifest, so the wasm that app.js fetches is in), and the service worker.
# (Not the catalog's shards, named in index.html with "{}" for a shard's number: counted below.)
refs() { grep -oE 'assets/[A-Za-z0-9._-]+|manifest\.webmanifest' "$DIST/$1" 2>/dev/null | grep -v '^assets/catalog-shard\.' | sort -u || true; }
declare -A SEEN=()
QUEUE=(index.html)
FIRST=()
LAZY=()
while [ ${#QUEUE[@]} -gt 0 ]; do
	f=${QUEUE[0]}
	QUEUE=("${QUEUE[@]:1}")
	[ -n "${SEEN[$f]:-}" ] && continue
	SEEN[$f]=1
	[ -f "$DIST/$f" ] || { say "note: $f is referenced but not in dist/"; continue; }
	# The second engine (web/later.js: the cluster check, the Deployment tab, the hardware
	# estimate) is fetched on the first use of what needs it, not to render.
	case $f in assets/fitclaim-later.*) LAZY+=("$f"); continue ;; esac
	FIRST+=("$f")
	case $f in
	*.html | *.css | *.js)
		# manifest icons are not fetched to render the page: the manifest's refs are not followed
		while IFS= read -r r; do [ -n "$r" ] && QUEUE+=("$r"); done < <(refs "$f")
		;;
	esac
done
[ -f "$DIST/sw.js" ] && [ -z "${SEEN[sw.js]:-}" ] && FIRST+=(sw.js) && SEEN[sw.js]=1

sizes() { # FILE -> "raw gz br"
	printf '%d %d %d\n' "$(wc -c <"$1")" "$(gzip -9 -c "$1" | wc -c)" "$(brotli -c -q 11 "$1" | wc -c)"
}
printf '%-40s %11s %11s %11s\n' "asset (first load)" "raw B" "gzip -9 B" "brotli-11 B"
traw=0 tgz=0 tbr=0
for f in "${FIRST[@]}"; do
	read -r raw gz br < <(sizes "$DIST/$f")
	traw=$((traw + raw)) tgz=$((tgz + gz)) tbr=$((tbr + br))
	printf '%-40s %11d %11d %11d\n' "$f" "$raw" "$gz" "$br"
done
# A permalink's load also fetches the link's shard of the model catalog (tools/cmd/site/catalog.go):
# counted at the largest of them.
shard_raw=0 shard_gz=0 shard_br=0 shard_f=
for f in "$DIST"/assets/catalog-shard.*.txt; do
	[ -f "$f" ] || continue
	read -r raw gz br < <(sizes "$f")
	[ "$br" -gt "$shard_br" ] && shard_raw=$raw shard_gz=$gz shard_br=$br shard_f=${f#"$DIST"/}
done
if [ -n "$shard_f" ]; then
	traw=$((traw + shard_raw)) tgz=$((tgz + shard_gz)) tbr=$((tbr + shard_br))
	printf '%-40s %11d %11d %11d\n' "a permalink's catalog shard (largest)" "$shard_raw" "$shard_gz" "$shard_br"
fi
printf '%-40s %11d %11d %11d\n' "TOTAL first load" "$traw" "$tgz" "$tbr"
printf 'total first load: %s raw, %s gzip, %s brotli (gzip %s%% and brotli %s%% of raw)\n' \
	"$(human $traw)" "$(human $tgz)" "$(human $tbr)" "$(awk -v a=$tgz -v b=$traw 'BEGIN{printf "%.0f", 100*a/b}')" \
	"$(awk -v a=$tbr -v b=$traw 'BEGIN{printf "%.0f", 100*a/b}')"
if [ "$tbr" -le "$BUDGET" ]; then verdict="HOLDS"; else verdict="EXCEEDED"; fi
printf 'budget: whole first load <= 1.0 MB (1048576 B) brotli: %s (%s used, %s%% of the budget)\n' \
	"$verdict" "$(human $tbr)" "$(awk -v a=$tbr -v b=$BUDGET 'BEGIN{printf "%.0f", 100*a/b}')"
note "$(printf '%-44s %s brotli (%s gzip, %s raw); 1.0 MB brotli budget %s' "first-load bytes" "$(human $tbr)" "$(human $tgz)" "$(human $traw)" "$verdict")"
for f in "${LAZY[@]}"; do
	read -r raw gz br < <(sizes "$DIST/$f")
	printf 'second engine, on the first use of the cluster, Deployment or hardware panel (not counted): %s, %s raw, %s gzip, %s brotli\n' "$f" "$(human $raw)" "$(human $gz)" "$(human $br)"
	note "$(printf '%-44s %s brotli (%s gzip, %s raw), on a panel'"'"'s first use' "second engine (cluster, deploy, hardware)" "$(human $br)" "$(human $gz)" "$(human $raw)")"
done

# What the service worker precaches after the first visit on top of that (not needed to render).
if [ -f "$DIST/sw.js" ]; then
	extra=() eraw=0 ebr=0
	while IFS= read -r f; do
		[ -n "${SEEN[$f]:-}" ] || [ ! -f "$DIST/$f" ] || extra+=("$f")
	done < <(grep -oE 'assets/[A-Za-z0-9._-]+' "$DIST/sw.js" | sort -u)
	for f in "${extra[@]}"; do
		read -r raw gz br < <(sizes "$DIST/$f")
		eraw=$((eraw + raw)) ebr=$((ebr + br))
	done
	[ ${#extra[@]} -eq 0 ] || printf 'also precached by sw.js after the first render (not counted): %s (%s raw, %s brotli)\n' \
		"${extra[*]}" "$(human $eraw)" "$(human $ebr)"
fi

# ---------------------------------------------------------------------------
# 2 + 3. Headless Chromium: first rendered claim (beside a minimal Go wasm) and render latency

section "2-3. headless Chromium: first rendered claim, render latency"
MIN=$WORK/minimal
mkdir -p "$MIN"
say "building the minimal Go wasm (bench/minimalwasm) and pagebench (tools module)"
GOOS=js GOARCH=wasm go build -trimpath -buildvcs=false -ldflags='-s -w' -o "$MIN/minimal.wasm" ./bench/minimalwasm
cp "$(go env GOROOT)/lib/wasm/wasm_exec.js" "$MIN/wasm_exec.js"
# The baseline page loads the same way app.js does: wasm_exec.js, then fetch + instantiateStreaming,
# go.run, poll every 5 ms for the global; then it writes one word to the DOM.
cat >"$MIN/index.html" <<'EOF'
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>minimal Go wasm</title>
<script src="wasm_exec.js"></script>
<script src="boot.js" defer></script>
</head>
<body><p id="out">loading</p></body>
</html>
EOF
cat >"$MIN/boot.js" <<'EOF'
(async () => {
  const go = new Go();
  const resp = await fetch("minimal.wasm");
  const inst = await WebAssembly.instantiateStreaming(resp, go.importObject);
  go.run(inst.instance);
  while (!(window.minimal && window.minimal.ready)) await new Promise((r) => setTimeout(r, 5));
  document.getElementById("out").textContent = "ready";
})();
EOF
read -r mraw mgz mbr < <(sizes "$MIN/minimal.wasm")
printf 'minimal Go wasm (same flags as the page): %s raw, %s gzip, %s brotli\n' "$(human $mraw)" "$(human $mgz)" "$(human $mbr)"
# $MIN gets no precompressed copy: pagebench loads it as it is (served raw, the yardstick of every
# earlier figure) and, in the same rounds, a copy of it with the copies tools/cmd/site writes
# (-minimal-compressed, on by default: served like the site, brotli).
mkdir -p "$BIN"
(cd tools && go build -o "$BIN/pagebench" ./cmd/pagebench)
mkdir -p "$WORK/tmp" # Chromium profiles: removed by pagebench, and with $WORK by the trap
run_child env TMPDIR="$WORK/tmp" "$BIN/pagebench" -dist "$DIST" -minimal "$MIN" -config "$ROOT/netlify.toml" \
	-loads "$LOADS" -renders "$RENDERS" -fragment "$FRAGMENT" -summary "$SUMMARY" \
	-throttle "$THROTTLE" -throttle-loads "$THROTTLE_LOADS" ||
	{ echo "pagebench FAILED (exit $?): no page timings"; note "page timings: FAILED"; }

# ---------------------------------------------------------------------------
# 3b. Where one page render goes: claim.Render, bridge.ResultJSON (or the page's columns), JSON.parse (bench/bridgebench)

section "3b. one render split into stages (bench/bridgebench; one op = one catalog entry at defaults; best of ${STAGE_COUNT:-3} counts)"
[ -x "$BIN/wasmbrowsertest" ] || { say "building wasmbrowsertest (tools module)"; (cd tools && go build -o "$BIN/wasmbrowsertest" github.com/agnivade/wasmbrowsertest); }
# best (lowest) ns/op of benchmark $2 over the counts: the machine is shared, the best count is
# the least disturbed one
stage_ns() { awk -v n="$2" '$1 ~ "^"n"(-[0-9]+)?$" { for (i = 2; i <= NF; i++) if ($i == "ns/op") print $(i-1) }' "$1" | sort -n | head -n 1; }
us() { awk -v n="$1" 'BEGIN { printf "%.1f µs", n/1e3 }'; }
STAGE_ARGS=(-run '^$' -bench '^BenchmarkStage' -benchtime "${STAGE_BENCHTIME:-300x}" -count "${STAGE_COUNT:-3}" -benchmem ./bench/bridgebench)
if run_child go test "${STAGE_ARGS[@]}" >"$WORK/stages-native.txt" 2>&1 &&
	run_child env GOOS=js GOARCH=wasm go test -exec="$BIN/wasmbrowsertest" "${STAGE_ARGS[@]}" >"$WORK/stages-wasm.txt" 2>&1; then
	printf '  %-52s %12s %14s %8s\n' "stage (cumulative)" native "wasm/Chromium" ratio
	for st in "Stage1Render:claim.Render" "Stage2RenderView:+ bridge.ResultJSON (JSON text)" \
		"Stage3RenderViewParse:+ JSON.parse (JS objects: what fitclaim.render does)" \
		"Stage2RenderColumns:+ the page's form (matches as columns)" \
		"Stage3RenderColumnsParse:+ JSON.parse (render(t, {columns: true}), the page's)"; do
		name=Benchmark${st%%:*} label=${st#*:}
		n=$(stage_ns "$WORK/stages-native.txt" "$name")
		w=$(stage_ns "$WORK/stages-wasm.txt" "$name")
		printf '  %-52s %12s %14s %8s\n' "$label" "${n:+$(us "$n")}" "${w:+$(us "$w")}" "$([ -n "$n" ] && [ -n "$w" ] && echo "$(ratio "$w" "$n")x" || echo -)"
	done
	w2=$(stage_ns "$WORK/stages-wasm.txt" BenchmarkStage2RenderView) w3=$(stage_ns "$WORK/stages-wasm.txt" BenchmarkStage3RenderViewParse)
	w1=$(stage_ns "$WORK/stages-wasm.txt" BenchmarkStage1Render)
	if [ -n "$w1" ] && [ -n "$w2" ] && [ -n "$w3" ]; then
		printf '  in Chromium: claim.Render %s, ResultJSON %s, JSON.parse %s (%s%% of the total)\n' "$(us "$w1")" "$(us $((w2 - w1)))" \
			"$(us $((w3 - w2)))" "$(awk -v a=$((w3 - w2)) -v b="$w3" 'BEGIN { printf "%.0f", 100*a/b }')"
		note "$(printf '%-44s claim.Render %s + ResultJSON %s + JSON.parse %s (wasm, Chromium)' "one render's stages" "$(us "$w1")" "$(us $((w2 - w1)))" "$(us $((w3 - w2)))")"
	fi
	c2=$(stage_ns "$WORK/stages-wasm.txt" BenchmarkStage2RenderColumns) c3=$(stage_ns "$WORK/stages-wasm.txt" BenchmarkStage3RenderColumnsParse)
	if [ -n "$w1" ] && [ -n "$c2" ] && [ -n "$c3" ]; then
		printf '  the page'"'"'s form in Chromium: claim.Render %s, columns %s, JSON.parse %s\n' "$(us "$w1")" "$(us $((c2 - w1)))" "$(us $((c3 - c2)))"
		note "$(printf '%-44s claim.Render %s + columns %s + JSON.parse %s (wasm, Chromium)' "one page render's stages" "$(us "$w1")" "$(us $((c2 - w1)))" "$(us $((c3 - c2)))")"
	fi
	# What the slow renders are: each target's best of three against the p99 of all, and Go's
	# collections per 1,000 renders (bench/bridgebench tail_test.go)
	if run_child env GOOS=js GOARCH=wasm go test -exec="$BIN/wasmbrowsertest" -run '^$' -bench 'RenderTail$' \
		-benchtime "${TAIL_BENCHTIME:-3000x}" -count 1 ./bench/bridgebench >"$WORK/tail-wasm.txt" 2>&1; then
		echo "  one render at a time over the page bench's 1,000 targets, 3 rounds, in Chromium (100 µs steps):"
		awk '/^Benchmark.*RenderTail/ { for (i = 2; i <= NF; i++) m[$i] = $(i-1);
			printf "    %-30s median %s µs, p99 %s µs; p99 of each target'"'"'s best %s µs; Go GCs %s per 1,000 renders\n", $1, m["p50-µs"], m["p99-µs"], m["best-p99-µs"], m["gc/1k"] }' "$WORK/tail-wasm.txt"
	else
		echo "  render tail benchmark FAILED"
	fi
else
	echo "  stage benchmarks FAILED:"
	tail -n 20 "$WORK/stages-native.txt" "$WORK/stages-wasm.txt" 2>/dev/null | sed 's/^/    /'
	note "render stages: FAILED"
fi

# ---------------------------------------------------------------------------
# 4. The whole catalog swept: wasm beside native

section "4. whole catalog swept (claim.Render of every catalog.Models() entry at defaults)"
# median (med_ns) and best (min_ns) ns/op of the BenchmarkCatalogSweep lines in a go test output
all_ns() { awk '/^BenchmarkCatalogSweep/ { for (i = 2; i <= NF; i++) if ($i == "ns/op") print $(i-1) }' "$1" | sort -n; }
med_ns() { all_ns "$1" | awk '{ a[NR] = $1 } END { if (NR == 0) exit 1; if (NR % 2) print a[(NR+1)/2]; else printf "%.0f\n", (a[NR/2] + a[NR/2+1]) / 2 }'; }
min_ns() { all_ns "$1" | head -n 1 | grep .; }
ms() { awk -v n="$1" 'BEGIN { printf "%.1f ms", n/1e6 }'; }
sweep() { # LABEL OUT GO-TEST-ARGS...
	local label=$1 out=$2
	shift 2
	say "sweep: $label"
	if run_child "$@" -run '^$' -bench '^BenchmarkCatalogSweep$' -benchtime "$SWEEP_BENCHTIME" -count "$SWEEP_COUNT" \
		-benchmem ./bench/sweep >"$out" 2>&1; then
		grep -E '^Benchmark' "$out" | sed 's/^/    /'
	else
		echo "    $label FAILED:"
		tail -n 20 "$out" | sed 's/^/    /'
		return 1
	fi
}
printf 'go test -bench CatalogSweep -benchtime %s -count %s (one op = the whole catalog); median of the counts\n' "$SWEEP_BENCHTIME" "$SWEEP_COUNT"
echo "  native ($(go env GOOS)/$(go env GOARCH)):"
native=
sweep native "$WORK/native.txt" go test && native=$(med_ns "$WORK/native.txt") || true
if [ ! -x "$BIN/wasmbrowsertest" ]; then
	say "building wasmbrowsertest (tools module)"
	(cd tools && go build -o "$BIN/wasmbrowsertest" github.com/agnivade/wasmbrowsertest)
fi
echo "  js/wasm in headless Chromium (wasmbrowsertest):"
chrome=
sweep chromium "$WORK/chromium.txt" env GOOS=js GOARCH=wasm go test -exec="$BIN/wasmbrowsertest" &&
	chrome=$(med_ns "$WORK/chromium.txt") || true
nodev=
if command -v node >/dev/null 2>&1; then
	echo "  js/wasm in Node $(node --version) (go_js_wasm_exec):"
	sweep node "$WORK/node.txt" env GOOS=js GOARCH=wasm go test -exec="$(go env GOROOT)/lib/wasm/go_js_wasm_exec" &&
		nodev=$(med_ns "$WORK/node.txt") || true
fi
models=$(awk '/^BenchmarkCatalogSweep/ { for (i = 2; i <= NF; i++) if ($i == "models") { print $(i-1); exit } }' "$WORK/native.txt" 2>/dev/null || true)
echo "  catalog sweep of ${models:-?} models (median of the counts; best count in brackets):"
nbest=$(min_ns "$WORK/native.txt" 2>/dev/null || true)
[ -z "$native" ] || printf '    native             %12s  [%s]  (%s per model)\n' "$(ms "$native")" "$(ms "$nbest")" "$(awk -v n="$native" -v m="${models:-1}" 'BEGIN { printf "%.1f µs", n/m/1e3 }')"
if [ -n "$chrome" ]; then
	cbest=$(min_ns "$WORK/chromium.txt")
	printf '    wasm in Chromium   %12s  [%s]  ratio wasm/native %sx [best/best %sx]\n' "$(ms "$chrome")" "$(ms "$cbest")" "$(ratio "$chrome" "${native:-0}")" "$(ratio "$cbest" "${nbest:-0}")"
fi
if [ -n "$nodev" ]; then
	nodebest=$(min_ns "$WORK/node.txt")
	printf '    wasm in Node       %12s  [%s]  ratio wasm/native %sx [best/best %sx]\n' "$(ms "$nodev")" "$(ms "$nodebest")" "$(ratio "$nodev" "${native:-0}")" "$(ratio "$nodebest" "${nbest:-0}")"
fi
if [ -n "$native" ] && [ -n "$chrome" ]; then
	note "$(printf '%-44s native %s, wasm in Chromium %s: ratio %sx%s' "catalog sweep (${models:-?} models)" "$(ms "$native")" "$(ms "$chrome")" \
		"$(ratio "$chrome" "$native")" "${nodev:+ (Node $(ms "$nodev"), $(ratio "$nodev" "$native")x)}")"
else
	note "catalog sweep: FAILED (see above)"
fi

section "4b. speed estimate: share of measured runs within ±25 % (bench/speedacc)"; go run ./bench/speedacc || broke "speed accuracy"

section "4c. vLLM engine budget: available KV, tokens, concurrency against logged start-ups (bench/vllmacc)"; go run ./bench/vllmacc || broke "vLLM accuracy"

# ---------------------------------------------------------------------------
# 5. Go benchmarks, natively: every package with Benchmark functions but the two run above

GO_BENCH_PKGS=()
while IFS= read -r d; do
	case $d in ./bench/sweep | ./bench/bridgebench) ;; *) GO_BENCH_PKGS+=("$d") ;; esac
done < <(grep -lsr --include='*_test.go' '^func Benchmark' . | grep -v -e '^\./tools/' -e '^\./conformance/' -e '^\./edge/' |
	xargs -r -n1 dirname | sort -u)
section "5. Go benchmarks (${GO_BENCH_PKGS[*]:-none}; -benchtime ${GO_BENCHTIME:-1s})"
if [ ${#GO_BENCH_PKGS[@]} -gt 0 ]; then
	run_child go test -run '^$' -bench . -benchtime "${GO_BENCHTIME:-1s}" -benchmem "${GO_BENCH_PKGS[@]}" || broke "Go benchmarks"
fi

# ---------------------------------------------------------------------------
# 6. The edge API under load (edge/bench.sh: workerd beside net/http on loopback)

section "6. edge API load run (edge/bench.sh)"
if [ "${EDGE:-1}" = 0 ]; then
	echo "EDGE=0: skipped"
else
	run_child timeout --foreground 15m bash edge/bench.sh || broke "edge load run"
	# 6b. What of a request is the API's own work: edge/api's handler alone, per route, natively
	# and as Go wasm under Node (no workerd, no Request/Response conversion).
	section "6b. the API's own work per route, native and Go wasm in Node (edge/bench/wasmapi)"
	if command -v node >/dev/null; then
		run_child timeout --foreground 5m bash edge/bench/wasmapi/run.sh || broke "API work per route"
	else
		echo "no node: skipped"
	fi
fi

section "summary (bench/bench.sh)"
cat "$SUMMARY"
if [ ${#FAILED[@]} -gt 0 ]; then
	say "these steps broke (the figures above are incomplete): ${FAILED[*]}"
	exit 1
fi
