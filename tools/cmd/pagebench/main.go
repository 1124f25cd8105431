// Command pagebench measures the built page in headless Chromium and prints figures; it is a
// benchmark (./build.sh bench runs it from bench/bench.sh), never a timed test.
//
//	pagebench -dist dist -minimal DIR [-config netlify.toml] [-loads 7] [-renders 1000] [-throttle desktop]
//
// It serves -dist (the site) and -minimal (a page that only awaits a minimal Go wasm, which
// bench/bench.sh generates) on 127.0.0.1 free ports with the headers of netlify.toml, then:
//
//  1. cold loads: for each load a new Chromium with a fresh profile and the cache disabled
//     opens the bare site (until its prerendered example claim is complete), the site at a
//     permalink and the minimal page, interleaved; each prints its bytes over the wire. The minimal
//     page is loaded in two forms in the same rounds: served raw (as every figure before
//     -minimal-compressed) and served like the site (a copy of -minimal with the precompressed
//     copies tools/cmd/site writes, tools/internal/precompress, sent by the same server: brotli).
//     The page itself records,
//     with performance.now() (milliseconds since navigation start), when the claim's YAML
//     appears in #yaml (the link's own claim, not the example: a MutationObserver installed
//     before any page script), when the
//     global is set and when the wasm finished downloading. If the page never shows the YAML,
//     the loads time until fitclaim.render resolves instead, and the output says so.
//     With -throttle, more cold loads (the site at the permalink, the minimal page in both
//     forms) under Chromium's network emulation (network.go): a real network's bytes and latency.
//  2. render latency: in one warm page, 1,000 `await fitclaim.render(target)` calls over varied
//     targets, each timed in the page with performance.now(); this server also sends COOP/COEP
//     so the page is cross-origin isolated and the timer's resolution is 5 µs, not 100 µs.
//
// Diagnosis of step 2 (issue 10 §3): -compare OTHER_DIST -render-rounds N -loads 0 times the cold
// renders of both builds in N rounds, their order alternating, with the load average beside each
// run (rounds.go); -chrome-trace says what the slow renders spent their time on; -chromium-output
// keeps Chromium's own output, where V8's tracing flags (-js-flags) print.
//
// Everything stays on loopback; the servers and browsers stop before it exits.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/target"
	"github.com/fitclaim/fitclaim/tools/internal/netlify"
	"github.com/fitclaim/fitclaim/wasm/bridge"
)

func main() {
	dist := flag.String("dist", "dist", "the built site")
	minimal := flag.String("minimal", "", "directory of the minimal Go wasm page (index.html awaiting a global `minimal`); empty: skip the baseline")
	compare := flag.String("compare", "", "diagnosis: another build of the site (e.g. main's), loaded cold in the same rounds as -dist (bare and at the permalink, the two builds' order alternating), with the same headers; prints its figures and the ratio of the two")
	config := flag.String("config", "netlify.toml", "netlify.toml whose headers the servers send (empty: none)")
	compareConfig := flag.String("compare-config", "", "the netlify.toml whose headers -compare's server sends (default -config); another build's own, as its inline boot.js's hash in the policy may differ")
	loads := flag.Int("loads", 7, "cold loads of each page")
	renders := flag.Int("renders", 1000, "timed renders inside the page")
	rounds := flag.Int("render-rounds", 0, "with -compare: step 2 is this many rounds of the cold render latency (a fresh page of each build per round, their order alternating), instead of -dist's cold and warm runs (-loads 0 skips step 1)")
	fragment := flag.String("fragment", "m=NousResearch%2FLlama-2-7b-chat-hf", "permalink opened for the first rendered claim")
	chromium := flag.String("chromium", "", "Chromium binary (default: $CHROMIUM, else /usr/bin/chromium, else chromedp's search)")
	timeout := flag.Duration("timeout", 30*time.Second, "longest wait for one load")
	summary := flag.String("summary", "", "also append the headline figures to this file")
	trace := flag.String("render-trace", "", "diagnosis: write every timed render of step 2 (start, duration, target) and Go's collections (GODEBUG=gctrace=1) to this file, as JSON")
	jsFlags := flag.String("js-flags", "", "diagnosis: V8 flags for Chromium (--js-flags), e.g. --no-wasm-tier-up; the page must not need any")
	chromeTrace := flag.String("chrome-trace", "", "diagnosis: write Chromium's trace of step 2 (V8's wasm compiles, GC, the page's marks) to this file, and of one more cold load of each page of step 1 to FILE.load and FILE.minimal (with -throttle, one more throttled load of each page of that pass too: FILE.throttled.load, .minimal, ...), whose CPU time it prints by thread and by the page's marks")
	categories := flag.String("chrome-trace-categories", strings.Join(traceCategories, ","), "diagnosis: -chrome-trace's categories, comma-separated (the fitclaim-bench marks need blink.user_timing; fewer categories, less of the trace's own cost)")
	output := flag.String("chromium-output", "", "diagnosis: append every Chromium's stdout and stderr to this file (V8's own tracing, e.g. -js-flags=--trace-wasm-compilation-times, prints there)")
	var chromiumArgs multiFlag
	flag.Var(&chromiumArgs, "chromium-arg", "diagnosis: one more Chromium switch, name=value (repeatable), e.g. trace-startup=v8.wasm")
	minimalCompressed := flag.Bool("minimal-compressed", true, "with -minimal: also load the minimal page served like the site, in the same rounds: a copy of the directory with the precompressed copies tools/cmd/site writes (brotli -q 11 when the brotli command is installed, gzip -9: tools/internal/precompress), sent by the same server; prints its figures and ratio beside the raw page's (false: the raw page only)")
	flag.BoolVar(&untilDrawn, "until-drawn", false, "a load of the site at the permalink (and -compare's) also waits until the rest of the claim is drawn (the accelerator table's rows written, <html data-drawing> gone) and prints when (\"rest drawn\"), with -compare the two builds' ratio")
	throttle := flag.String("throttle", "", "also a pass of cold loads under Chromium's network emulation (CDP Network.emulateNetworkConditions): the site at the permalink and the minimal page (both forms), and -compare's build at the permalink, interleaved; \"desktop\": Lighthouse's desktop profile, 40 ms and 10 Mbit/s (10 x 1024 kbit/s) down and up; or LATENCY_MS,DOWN_KBIT,UP_KBIT; empty: no such pass")
	throttleLoads := flag.Int("throttle-loads", -1, "cold loads of each page in the -throttle pass (default: -loads)")
	streamOnlyFlag := flag.Bool("stream-only", false, "diagnosis: with -throttle, also load in the same throttled rounds a page that only fetches and compiles -dist's engine (its preload's file, the same bytes and headers) as web/boot.js does, compileStreaming, and runs nothing: the site's ratio to it is what the page adds to its own wasm's bytes and compile")
	netLogFlag := flag.Bool("network-log", false, "diagnosis: with -throttle, print every request of each throttled load from CDP's Network events as the page received them (sent, priority, headers, its body's first and last chunk, finished, bytes over the wire), the bytes other requests received while the wasm's body came and the wasm's gaps of 20 ms or more between chunks")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	tmp, err := os.MkdirTemp("", "pagebench-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "pagebench:", err)
		os.Exit(1)
	}
	b := &bench{root: ctx, tmp: tmp, chromium: *chromium, timeout: *timeout, trace: *trace, jsFlags: *jsFlags, chromiumArgs: chromiumArgs, chromeTrace: *chromeTrace, traceCategories: strings.Split(*categories, ",")}
	b.compare = *compare
	b.compareConfig = *compareConfig
	b.rounds = *rounds
	b.output = *output
	b.minimalCompressed = *minimalCompressed
	if *throttle != "" {
		p, perr := parseThrottle(*throttle)
		if perr != nil {
			fmt.Fprintln(os.Stderr, "pagebench: -throttle:", perr)
			os.Exit(2)
		}
		b.throttle = &p
	}
	b.throttleLoads = *throttleLoads
	b.netLog = *netLogFlag
	b.streamOnly = *streamOnlyFlag
	if b.throttleLoads < 0 {
		b.throttleLoads = *loads
	}
	err = b.run(*dist, *minimal, *config, *fragment, *loads, *renders)
	if *summary != "" && len(b.summary) > 0 {
		if f, ferr := os.OpenFile(*summary, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); ferr == nil {
			fmt.Fprint(f, strings.Join(b.summary, ""))
			f.Close()
		}
	}
	// Every browser has stopped; their helpers may still touch the profiles for a moment.
	time.Sleep(300 * time.Millisecond)
	removeProfile(tmp)
	if err != nil {
		stop()
		fmt.Fprintln(os.Stderr, "pagebench:", err)
		os.Exit(1)
	}
}

type bench struct {
	root            context.Context
	tmp             string // profiles live here; removed at the end
	summary         []string
	chromium        string
	timeout         time.Duration
	trace           string        // -render-trace
	jsFlags         string        // -js-flags
	chromiumArgs    []string      // -chromium-arg
	compare         string        // -compare: another build's directory
	compareConfig   string        // -compare-config
	rounds          int           // -render-rounds
	output          string        // -chromium-output
	keep            *renderResult // set: renderLatency stores its result here and prints nothing
	compareURL      string        // where it is served
	chromeTrace     string        // -chrome-trace
	traceCategories []string      // -chrome-trace-categories
	// -minimal-compressed: the minimal page served like the site, where (empty: not loaded)
	minimalCompressed bool
	minimalBrURL      string
	minimalBrDir      string      // its directory (for -throttle's check)
	minimalBrEncoding string      // of its wasm: "brotli", "gzip" or "none"
	throttle          *netProfile // -throttle (nil: none)
	throttleLoads     int
	network           *netProfile // set: load emulates this network
	netLog            bool        // -network-log: print each throttled load's requests
	streamOnly        bool        // -stream-only
	streamOnlyURL     string      // -stream-only: where the page that only compiles the site's wasm is served
	lastNet           *netLog     // the last load's, with -network-log
}

func (b *bench) run(dist, minimal, config, fragment string, loads, renders int) error {
	var cfg *netlify.Config
	if config != "" {
		var err error
		if cfg, err = netlify.Load(config); err != nil {
			return err
		}
	}
	otherCfg := cfg
	if b.compareConfig != "" {
		var err error
		if otherCfg, err = netlify.Load(b.compareConfig); err != nil {
			return err
		}
	}
	if _, err := os.Stat(dist + "/index.html"); err != nil {
		return fmt.Errorf("%v (build the site first: ./build.sh)", err)
	}
	site, stopSite, err := serve(netlify.NewServer(dist, cfg, nil), false)
	if err != nil {
		return err
	}
	defer stopSite()
	fmt.Printf("browser: %s\n", b.version())

	// 1. First rendered claim, cold.
	throttled := b.throttle != nil && b.throttleLoads > 0
	var base string
	if (loads > 0 || throttled) && minimal != "" {
		u, stop, err := serve(netlify.NewServer(minimal, cfg, nil), false)
		if err != nil {
			return err
		}
		defer stop()
		base = u + "/"
		if b.minimalCompressed {
			dir, enc, err := b.compressedCopy(minimal)
			if err != nil {
				return err
			}
			u, stop, err := serve(netlify.NewServer(dir, cfg, nil), false)
			if err != nil {
				return err
			}
			defer stop()
			b.minimalBrURL, b.minimalBrEncoding = u+"/", enc
		}
	}
	if b.streamOnly && throttled {
		dir, err := b.streamOnlyDir(dist)
		if err != nil {
			return err
		}
		u, stop, err := serve(netlify.NewServer(dir, cfg, nil), false)
		if err != nil {
			return err
		}
		defer stop()
		b.streamOnlyURL = u + "/"
	}
	if b.compare != "" && (loads > 0 || throttled) {
		u, stop, err := serve(netlify.NewServer(b.compare, otherCfg, nil), false)
		if err != nil {
			return err
		}
		defer stop()
		b.compareURL = u + "/"
	}
	if loads > 0 {
		if err := b.coldLoads(site+"/#"+fragment, base, fragment, loads); err != nil {
			return err
		}
	}
	// 1b. The same under a real network's latency and bandwidth (network.go).
	if throttled {
		if err := b.throttledLoads(site+"/#"+fragment, base, fragment, b.throttleLoads); err != nil {
			return err
		}
	}

	// 2. Render latency in a warm, cross-origin isolated page.
	if renders > 0 {
		iso, stop, err := serve(netlify.NewServer(dist, cfg, nil), true)
		if err != nil {
			return err
		}
		defer stop()
		if b.compare != "" && b.rounds > 0 {
			other, stop, err := serve(netlify.NewServer(b.compare, otherCfg, nil), true)
			if err != nil {
				return err
			}
			defer stop()
			return b.renderRounds(iso+"/", other+"/", renders)
		}
		if err := b.renderLatency(iso+"/", renders, false); err != nil {
			return err
		}
		if err := b.renderLatency(iso+"/", renders, true); err != nil {
			return err
		}
	}
	return nil
}

// serve starts h on a free loopback port; isolate adds COOP/COEP (cross-origin isolation,
// for a 5 µs performance.now()). It returns the base URL and a function that stops it.
func serve(h http.Handler, isolate bool) (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	if isolate {
		inner := h
		h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Cross-Origin-Opener-Policy", "same-origin")
			w.Header().Set("Cross-Origin-Embedder-Policy", "require-corp")
			inner.ServeHTTP(w, r)
		})
	}
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(ln)
	stop := func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if hs.Shutdown(ctx) != nil {
			hs.Close()
		}
	}
	return "http://" + ln.Addr().String(), stop, nil
}

func (b *bench) execPath() string {
	if b.chromium != "" {
		return b.chromium
	}
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	return ""
}

func (b *bench) version() string {
	p := b.execPath()
	if p == "" {
		return "(found by chromedp)"
	}
	out, err := exec.Command(p, "--version").Output()
	if err != nil {
		return p
	}
	return strings.TrimSpace(string(out))
}

// browser starts a headless Chromium with a fresh profile; the returned function stops it and
// removes the profile.
func (b *bench) browser(parent context.Context) (context.Context, func(), error) {
	profile, err := os.MkdirTemp(b.tmp, "profile-")
	if err != nil {
		return nil, nil, err
	}
	opts := append([]chromedp.ExecAllocatorOption{}, chromedp.DefaultExecAllocatorOptions[:]...)
	opts = append(opts,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.UserDataDir(profile),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
	)
	if p := b.execPath(); p != "" {
		opts = append(opts, chromedp.ExecPath(p))
	}
	var out *os.File
	if b.output != "" {
		if out, err = os.OpenFile(b.output, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err != nil {
			return nil, nil, err
		}
		opts = append(opts, chromedp.CombinedOutput(out))
	}
	if b.jsFlags != "" {
		opts = append(opts, chromedp.Flag("js-flags", b.jsFlags))
	}
	for _, a := range b.chromiumArgs {
		name, value, ok := strings.Cut(a, "=")
		if ok {
			opts = append(opts, chromedp.Flag(name, value))
		} else {
			opts = append(opts, chromedp.Flag(name, true))
		}
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(parent, opts...)
	ctx, cancelCtx := chromedp.NewContext(actx, chromedp.WithLogf(func(string, ...any) {}))
	stop := func() {
		cancelCtx()
		cancelAlloc()
		removeProfile(profile)
		if out != nil {
			out.Close()
		}
	}
	if err := chromedp.Run(ctx); err != nil { // start the browser
		stop()
		return nil, nil, fmt.Errorf("starting Chromium: %w", err)
	}
	return ctx, stop, nil
}

// removeProfile deletes a profile directory; Chromium's helper processes may still write to it
// for a moment after the browser exits, so it tries again briefly.
func removeProfile(dir string) {
	for i := 0; i < 20; i++ {
		os.RemoveAll(dir)
		if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// probe is installed before any page script. It records, in performance.now() milliseconds
// since navigation start: when the global named GLOBAL is set (by the Go program), when the
// wasm finished downloading, DOMContentLoaded, and when DONE() first holds (a MutationObserver
// on the whole document), in window.__bench. In render mode, it calls GLOBAL.render(TARGET)
// once the global is set and records when the Promise settles instead of watching the DOM.
const probe = `(() => {
  const B = window.__bench = {};
  const now = () => performance.now();
  let value;
  Object.defineProperty(window, GLOBAL, {
    configurable: true, enumerable: true,
    get() { return value; },
    set(v) {
      value = v;
      if (B.global === undefined) {
        B.global = now();
        if (MODE === "render") {
          setTimeout(() => Promise.resolve().then(() => v.render(TARGET)).then(
            () => { B.done = now(); performance.mark("fitclaim-bench:done"); },
            (e) => { B.done = now(); B.error = String(e && e.message || e); performance.mark("fitclaim-bench:done"); }), 0);
        }
      }
    },
  });
  document.addEventListener("DOMContentLoaded", () => { B.dcl = now(); });
  if (MODE === "dom") {
    const check = () => { try { return (DONE)(); } catch (_) { return false; } };
    // -until-drawn: after the claim, when the accelerator table has rows (B.table: its rows in
    // view are written first), and when the rest is drawn too (B.drawn: every row written and
    // <html data-drawing>, the claim on screen but its table, pictures and panels not yet, gone:
    // web/boot.js, web/app.js).
    B.waitDrawn = WAITDRAWN;
    const rows = () => { const t = document.getElementById("matches"); return !!t && t.rows.length > 0; };
    const mo = new MutationObserver(() => {
      if (B.done === undefined && check()) { B.done = now(); performance.mark("fitclaim-bench:done"); }
      if (B.done !== undefined && B.table === undefined && rows()) B.table = now();
      if (B.table !== undefined && B.drawn === undefined && !("drawing" in document.documentElement.dataset)) B.drawn = now();
      if (B.done !== undefined && (B.drawn !== undefined || !B.waitDrawn)) mo.disconnect();
    });
    mo.observe(document, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ["data-drawing"] });
  }
})();`

type loadResult struct {
	Done *float64 `json:"done"`
	// Drawn: when the rest of the claim was drawn too (-until-drawn): the accelerator table's
	// rows written and <html data-drawing> gone, after Done.
	Drawn  *float64 `json:"drawn"`
	Table  *float64 `json:"table"` // when the table's rows came (-until-drawn), after Done
	Global *float64 `json:"global"`
	DCL    *float64 `json:"dcl"`
	Wasm   *float64 `json:"wasm"`
	// WasmAsked and WasmFirstByte: when the wasm's request went out and its first byte came
	// back (Resource Timing): the download is Wasm minus WasmFirstByte.
	WasmAsked     *float64 `json:"wasmAsked"`
	WasmFirstByte *float64 `json:"wasmFirstByte"`
	Bytes         *float64 `json:"bytes"` // bytes over the wire: the page and every resource it fetched
	// WasmBody: the wasm's body as it came over the wire (encodedBodySize: compressed, if it was)
	WasmBody *float64 `json:"wasmBody"`
	// Marks is the page's own performance marks named fitclaim:NAME (boot.js, app.js, the Go
	// main), by NAME: where the time to the first claim goes.
	Marks   map[string]float64 `json:"marks"`
	Error   string             `json:"error"`
	Boot    string             `json:"boot"`
	Ready   bool               `json:"ready"`
	TimedIn bool               `json:"-"`
	Console []string           `json:"-"` // exceptions and console errors, said when a load fails
}

func script(global, mode, done, renderArg string) string {
	r := strings.NewReplacer("GLOBAL", jsString(global), "MODE", jsString(mode), "DONE", done, "TARGET", renderArg, "WAITDRAWN", "false")
	return r.Replace(probe)
}

// untilDrawn is -until-drawn: a load of the site at the permalink also waits until the rest of
// the claim is drawn (loadResult.Drawn), scriptLink's probe.
var untilDrawn bool

// scriptLink is script for a load of a build of the site at the permalink: with -until-drawn its
// load waits for the claim's table too.
func scriptLink(mode, done, renderArg string) string {
	r := strings.NewReplacer("GLOBAL", jsString("fitclaim"), "MODE", jsString(mode), "DONE", done, "TARGET", renderArg, "WAITDRAWN", fmt.Sprint(untilDrawn))
	return r.Replace(probe)
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// load opens url in a fresh browser with the cache disabled and waits until __bench.done.
func (b *bench) load(url, src string) (res loadResult, err error) {
	return b.loadTraced(url, src, "")
}

// loadTraced is load; with a path, Chromium's trace of the load (from before the navigation
// until the page is done) is written there, for -chrome-trace.
func (b *bench) loadTraced(url, src, tracePath string) (res loadResult, err error) {
	ctx, stop, err := b.browser(b.root)
	if err != nil {
		return res, err
	}
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, b.timeout)
	defer cancel()
	var mu sync.Mutex
	var console []string
	var nl *netLog
	if b.netLog {
		nl = newNetLog()
		b.lastNet = nl
	}
	chromedp.ListenTarget(ctx, func(ev any) {
		if nl != nil {
			nl.event(ev)
		}
		var line string
		switch ev := ev.(type) {
		case *runtime.EventExceptionThrown:
			line = "exception: " + ev.ExceptionDetails.Text
			if ev.ExceptionDetails.Exception != nil {
				line += " " + ev.ExceptionDetails.Exception.Description
			}
		case *runtime.EventConsoleAPICalled:
			if ev.Type != runtime.APITypeError && ev.Type != runtime.APITypeWarning {
				return
			}
			line = "console." + string(ev.Type) + ":"
			for _, a := range ev.Args {
				if len(a.Value) > 0 {
					line += " " + string(a.Value)
				} else {
					line += " " + a.Description
				}
			}
		default:
			return
		}
		mu.Lock()
		console = append(console, line)
		mu.Unlock()
	})
	defer func() {
		mu.Lock()
		res.Console = append([]string(nil), console...)
		mu.Unlock()
	}()
	var tr *chromeTracer
	if tracePath != "" {
		if tr, err = startTrace(ctx, b.traceCategories); err != nil {
			return res, err
		}
		defer func() {
			// A load has no timed renders to attribute: the trace file is what it is for.
			if _, terr := tr.stop(ctx, tracePath, nil); terr != nil && err == nil {
				err = terr
			}
		}()
	}
	err = chromedp.Run(ctx,
		network.SetCacheDisabled(true),
		chromedp.ActionFunc(func(ctx context.Context) error {
			if b.network == nil {
				return nil
			}
			return b.network.emulate().Do(ctx)
		}),
		chromedp.ActionFunc(func(ctx context.Context) error {
			_, err := page.AddScriptToEvaluateOnNewDocument(src).Do(ctx)
			return err
		}),
		chromedp.Navigate(url),
	)
	if err != nil {
		return res, err
	}
	deadline, _ := ctx.Deadline()
	const read = `(() => {
	  const B = window.__bench || {};
	  const w = performance.getEntriesByType("resource").find((e) => e.name.endsWith(".wasm"));
	  const boot = document.getElementById("boot");
	  const nav = performance.getEntriesByType("navigation")[0];
	  // web/boot.js's worker (firstclaim.js) fetches the wasm: its timings and bytes, on the
	  // page's clock, are in fitclaimBoot.worker (the page's own entries do not list them).
	  const wk = (window.fitclaimBoot && window.fitclaimBoot.worker) || {};
	  const bytes = (nav ? nav.transferSize : 0) + performance.getEntriesByType("resource").reduce((s, e) => s + e.transferSize, 0) + (wk.fetchedBytes || 0);
	  const marks = {};
	  for (const m of performance.getEntriesByType("mark")) if (m.name.startsWith("fitclaim:") && !(m.name.slice(9) in marks)) marks[m.name.slice(9)] = m.startTime;
	  return { done: B.done, drawn: B.drawn, table: B.table, global: B.global, dcl: B.dcl, wasm: w ? w.responseEnd : wk.wasmEnd, wasmBody: w ? w.encodedBodySize : undefined,
	    wasmAsked: w ? w.requestStart : wk.wasmAsked, wasmFirstByte: w ? w.responseStart : wk.wasmFirstByte, error: B.error, bytes, marks,
	    boot: boot && !boot.hidden ? boot.textContent : "", ready: B.done !== undefined && (!B.waitDrawn || B.drawn !== undefined) };
	})()`
	for {
		if err := chromedp.Run(ctx, chromedp.Evaluate(read, &res)); err != nil {
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return res, nil // not ready in time: the caller decides
			}
			return res, err
		}
		if time.Until(deadline) < 300*time.Millisecond {
			var diag string
			_ = chromedp.Run(ctx, chromedp.Evaluate(diagJS, &diag))
			console = append(console, "state: "+diag)
			return res, nil
		}
		if res.Ready {
			res.TimedIn = true
			return res, nil
		}
		select {
		case <-ctx.Done():
			return res, nil
		case <-time.After(25 * time.Millisecond):
		}
	}
}

const diagJS = `JSON.stringify({ state: document.documentElement.dataset.state, bench: window.__bench,
  fitclaim: typeof window.fitclaim, render: window.fitclaim ? typeof window.fitclaim.render : "",
  yaml: ((document.getElementById("yaml") || {}).textContent || "").slice(0, 60),
  boot: (document.getElementById("boot") || {}).textContent, url: location.href })`

// yamlDone: the link's own claim is shown, not the example a bare visit shows (index.html holds
// it, out of sight on a permalink load): the YAML names the link's model.
// permalinkLoad is what a cold load at the permalink needs from -fragment: the target as the
// page's render takes it (targetOf) and the script that says its claim is shown (yamlDone).
func permalinkLoad(fragment string) (renderArg, done string, err error) {
	if renderArg, err = targetOf(fragment); err != nil {
		return "", "", err
	}
	q, err := url.ParseQuery(fragment)
	if err != nil {
		return "", "", err
	}
	return renderArg, yamlDone(q.Get("m")), nil
}

func yamlDone(model string) string {
	return `() => { const e = document.getElementById("yaml"); return !!e && e.textContent.startsWith("# Generated by fitclaim") && e.textContent.includes(` +
		jsString("# model:  "+model) + `) && !document.getElementById("output").hasAttribute("data-example"); }`
}

// exampleDone: a bare visit shows the example claim complete (YAML, summary and table).
const exampleDone = `() => { const y = document.getElementById("yaml"), t = document.getElementById("matches");
  return !!y && y.textContent.startsWith("# Generated by fitclaim") && !!t && t.rows.length > 0; }`
const minimalDone = `() => { const e = document.getElementById("out"); return !!e && e.textContent === "ready"; }`

func (b *bench) note(format string, args ...any) {
	b.summary = append(b.summary, fmt.Sprintf(format, args...)+"\n")
}

func (b *bench) coldLoads(siteURL, minimalURL, fragment string, n int) error {
	renderArg, yamlDone, err := permalinkLoad(fragment)
	if err != nil {
		return err
	}
	bareURL := siteURL[:strings.Index(siteURL, "#")]
	mode := "dom"
	first, err := b.load(siteURL, scriptLink("dom", yamlDone, renderArg))
	if err != nil {
		return err
	}
	if !first.TimedIn {
		why := "the YAML never appeared"
		if first.Boot != "" {
			why += " (page says: " + first.Boot + ")"
		}
		fmt.Printf("NOTE: %s within %v; timing instead until fitclaim.render(%s) resolves\n", why, b.timeout, renderArg)
		for _, l := range first.Console {
			fmt.Printf("  page: %s\n", l)
		}
		mode = "render"
	}
	if b.chromeTrace != "" {
		// Diagnosis: one more load of each page, traced, not counted in the figures.
		if _, err := b.loadTraced(siteURL, scriptLink(mode, yamlDone, renderArg), b.chromeTrace+".load"); err != nil {
			return err
		}
		fmt.Println("CPU time of one traced cold load of each page (-chrome-trace; the wall times above are one machine's, this is the page's own work):")
		page, text := loadCPU(b.chromeTrace+".load", "fitclaim page at the permalink")
		fmt.Print(text)
		if minimalURL != "" {
			if _, err := b.loadTraced(minimalURL, script("minimal", "dom", minimalDone, "{}"), b.chromeTrace+".minimal"); err != nil {
				return err
			}
			floor, text := loadCPU(b.chromeTrace+".minimal", "minimal Go wasm page")
			fmt.Print(text)
			if page > 0 && floor > 0 {
				fmt.Printf("  CPU ratio fitclaim / minimal Go wasm: %.2fx\n", page/floor)
			}
			if b.minimalBrURL != "" {
				if _, err := b.loadTraced(b.minimalBrURL, script("minimal", "dom", minimalDone, "{}"), b.chromeTrace+".minimal-compressed"); err != nil {
					return err
				}
				floor, text := loadCPU(b.chromeTrace+".minimal-compressed", "minimal Go wasm page served like the site ("+b.minimalBrEncoding+")")
				fmt.Print(text)
				if page > 0 && floor > 0 {
					fmt.Printf("  CPU ratio fitclaim / minimal Go wasm served like the site: %.2fx\n", page/floor)
				}
			}
		}
	}
	var site, base, baseBr, bare, other, otherBare []loadResult
	// loadPair loads one build bare, then at the permalink.
	loadPair := func(i int, bareURL, siteURL string, bare, site *[]loadResult) error {
		r, err := b.load(bareURL, script("fitclaim", "dom", exampleDone, renderArg))
		if err != nil {
			return err
		}
		if !r.TimedIn {
			return fmt.Errorf("cold load %d of the bare page %s did not show the example within %v (page says: %q; console: %q)", i+1, bareURL, b.timeout, r.Boot, r.Console)
		}
		*bare = append(*bare, r)
		r, err = b.load(siteURL, scriptLink(mode, yamlDone, renderArg))
		if err != nil {
			return err
		}
		if !r.TimedIn {
			return fmt.Errorf("cold load %d of the page %s did not finish within %v (page says: %q; console: %q)", i+1, siteURL, b.timeout, r.Boot, r.Console)
		}
		if r.Error != "" {
			return fmt.Errorf("fitclaim.render rejected: %s", r.Error)
		}
		*site = append(*site, r)
		return nil
	}
	for i := 0; i < n; i++ {
		// -compare: the other build in the same round, first in every other round.
		if b.compareURL != "" && i%2 == 1 {
			if err := loadPair(i, b.compareURL, b.compareURL+"#"+fragment, &otherBare, &other); err != nil {
				return err
			}
		}
		if err := loadPair(i, bareURL, siteURL, &bare, &site); err != nil {
			return err
		}
		if b.compareURL != "" && i%2 == 0 {
			if err := loadPair(i, b.compareURL, b.compareURL+"#"+fragment, &otherBare, &other); err != nil {
				return err
			}
		}
		if minimalURL != "" {
			// The two forms of the minimal page, the raw one first in every other round.
			forms := []func() error{
				func() error { return b.loadMinimal(i, minimalURL, "", &base) },
			}
			if b.minimalBrURL != "" {
				br := func() error { return b.loadMinimal(i, b.minimalBrURL, " served like the site", &baseBr) }
				if i%2 == 1 {
					forms = append([]func() error{br}, forms...)
				} else {
					forms = append(forms, br)
				}
			}
			for _, f := range forms {
				if err := f(); err != nil {
					return err
				}
			}
		}
	}
	what := "the YAML shown (#yaml starts with \"# Generated by fitclaim\")"
	if mode == "render" {
		what = "fitclaim.render(" + renderArg + ") resolved (FALLBACK: the page did not show the YAML)"
	}
	fmt.Printf("\nfirst rendered claim: %d cold loads each, new Chromium with a fresh profile, cache disabled,\n", n)
	fmt.Printf("  served on loopback as the site's server sends it (its precompressed copies where the client accepts them);\n")
	fmt.Printf("  milliseconds from navigation start (median [min..max])\n")
	fmt.Printf("  fitclaim page #%s, until %s\n", fragment, what)
	doneLabel := "YAML shown (first rendered claim)"
	if mode == "render" {
		doneLabel = "fitclaim.render resolved"
	}
	printLoads(site, doneLabel)
	var ratio, ratioBr float64
	if minimalURL != "" {
		fmt.Printf("  minimal Go wasm page (main only sets a global through syscall/js; the page awaits it),\n")
		fmt.Printf("  served raw (no precompressed copy beside its files: the yardstick of every figure before; its wasm decodes nothing)\n")
		printLoads(base, "page awaited the global")
		ratio = median(pick(site, func(r loadResult) *float64 { return r.Done })) / median(pick(base, func(r loadResult) *float64 { return r.Done }))
		fmt.Printf("  ratio fitclaim / minimal Go wasm: %.2fx\n", ratio)
		if len(baseBr) > 0 {
			fmt.Printf("  minimal Go wasm page served like the site (the same files with the precompressed copies tools/cmd/site writes,\n")
			fmt.Printf("  brotli -q 11 and gzip -9, sent by the same server: its wasm came %s), the same rounds\n", b.minimalBrEncoding)
			printLoads(baseBr, "page awaited the global")
			ratioBr = median(pick(site, func(r loadResult) *float64 { return r.Done })) / median(pick(baseBr, func(r loadResult) *float64 { return r.Done }))
			fmt.Printf("  ratio fitclaim / minimal Go wasm served like the site: %.2fx (paired by round: %s)\n", ratioBr, pairedRatios(site, baseBr))
			fmt.Printf("  ratio fitclaim / minimal Go wasm served raw: %.2fx (paired by round: %s)\n", ratio, pairedRatios(site, base))
		}
	}
	fmt.Printf("  bare page (no fragment), until the prerendered example claim is complete (YAML, summary, table)\n")
	printLoads(bare, "example claim shown")
	if b.compareURL != "" {
		done := func(r loadResult) *float64 { return r.Done }
		fmt.Printf("  -compare %s, the same rounds: at the permalink\n", b.compare)
		printLoads(other, doneLabel)
		fmt.Printf("  -compare, bare page\n")
		printLoads(otherBare, "example claim shown")
		if minimalURL != "" {
			fmt.Printf("  -compare: ratio to the minimal Go wasm %.2fx\n", median(pick(other, done))/median(pick(base, done)))
		}
		fmt.Printf("  ratio -dist / -compare: at the permalink %.2fx, bare %.2fx (medians)\n",
			median(pick(site, done))/median(pick(other, done)), median(pick(bare, done))/median(pick(otherBare, done)))
		fmt.Printf("  paired by round (each round's -dist / -compare, the two loaded back to back): at the permalink %s; bare %s\n",
			pairedRatios(site, other), pairedRatios(bare, otherBare))
		if untilDrawn {
			fmt.Printf("  the rest at the permalink, ratio -dist / -compare: %s (medians); paired by round: %s\n", drawnRatio(site, other), pairedDrawn(site, other))
		}
	}
	bareMed := median(pick(bare, func(r loadResult) *float64 { return r.Done }))
	bareBytes := median(pick(bare, func(r loadResult) *float64 { return r.Bytes }))
	label := "first rendered claim (YAML shown)"
	if mode == "render" {
		label = "first render resolved (FALLBACK, page showed no YAML)"
	}
	fitMed := median(pick(site, func(r loadResult) *float64 { return r.Done }))
	if minimalURL != "" {
		b.note("%-44s %.0f ms median of %d cold loads; minimal Go wasm %.0f ms; ratio %.2fx (the minimal Go wasm served raw: %s over the wire)", label, fitMed, n,
			median(pick(base, func(r loadResult) *float64 { return r.Done })), ratio, human(median(pick(base, func(r loadResult) *float64 { return r.Bytes }))))
		if len(baseBr) > 0 {
			b.note("%-44s %.0f ms median; minimal Go wasm served like the site (%s, %s over the wire) %.0f ms; ratio %.2fx", "first claim vs minimal served like the site", fitMed,
				b.minimalBrEncoding, human(median(pick(baseBr, func(r loadResult) *float64 { return r.Bytes }))),
				median(pick(baseBr, func(r loadResult) *float64 { return r.Done })), ratioBr)
		}
	} else {
		b.note("%-44s %.0f ms median of %d cold loads", label, fitMed, n)
	}
	b.note("%-44s %.0f ms median of %d cold loads; %.0f KB over the wire", "bare page: example claim shown", bareMed, n, bareBytes/1024)
	return nil
}

// pairedRatios says the ratio of each round's two loads (a and b hold one load per round, in
// round order): their median, range and how many are below 1. The two builds' loads of a round
// follow each other, so a load average that drifts over the run moves both; an A/A run (a build
// against its copy, 12 rounds, load 10-20) gave 0.98x at the permalink and 1.24x bare by the
// ratio of medians (issue 10 §2).
func pairedRatios(a, b []loadResult) string {
	return pairedBy(a, b, func(r loadResult) *float64 { return r.Done })
}

// pairedDrawn is pairedRatios of when the table's rows came and the rest of the claim was drawn
// (-until-drawn).
func pairedDrawn(a, b []loadResult) string {
	return "table's rows " + pairedBy(a, b, func(r loadResult) *float64 { return r.Table }) +
		"; rest drawn " + pairedBy(a, b, func(r loadResult) *float64 { return r.Drawn })
}

// drawnRatio says the ratios of the two medians of when the table's rows came and when the rest
// of the claim was drawn.
func drawnRatio(a, b []loadResult) string {
	table := func(r loadResult) *float64 { return r.Table }
	drawn := func(r loadResult) *float64 { return r.Drawn }
	return fmt.Sprintf("table's rows %.2fx, rest drawn %.2fx", median(pick(a, table))/median(pick(b, table)), median(pick(a, drawn))/median(pick(b, drawn)))
}

func pairedBy(a, b []loadResult, f func(loadResult) *float64) string {
	var rs []float64
	for i := 0; i < len(a) && i < len(b); i++ {
		if x, y := f(a[i]), f(b[i]); x != nil && y != nil && *y > 0 {
			rs = append(rs, *x / *y)
		}
	}
	if len(rs) == 0 {
		return "no pairs"
	}
	below := 0
	for _, r := range rs {
		if r < 1 {
			below++
		}
	}
	return fmt.Sprintf("median %.2fx [%.2f..%.2f], %d of %d rounds below 1", median(rs), slices.Min(rs), slices.Max(rs), below, len(rs))
}

func printLoads(rs []loadResult, done string) {
	row := func(label string, f func(loadResult) *float64) {
		xs := pick(rs, f)
		if len(xs) == 0 {
			return
		}
		sort.Float64s(xs)
		fmt.Printf("    %-34s %8.1f ms  [%.1f..%.1f]\n", label, median(xs), xs[0], xs[len(xs)-1])
	}
	row("DOMContentLoaded", func(r loadResult) *float64 { return r.DCL })
	row("wasm requested (requestStart)", func(r loadResult) *float64 { return r.WasmAsked })
	row("wasm first byte (responseStart)", func(r loadResult) *float64 { return r.WasmFirstByte })
	row("wasm downloaded (responseEnd)", func(r loadResult) *float64 { return r.Wasm })
	row("Go main set the global", func(r loadResult) *float64 { return r.Global })
	for _, name := range markNames(rs) {
		row("mark "+name, func(r loadResult) *float64 {
			if v, ok := r.Marks[name]; ok {
				return &v
			}
			return nil
		})
	}
	row(done, func(r loadResult) *float64 { return r.Done })
	row("table's rows shown (-until-drawn)", func(r loadResult) *float64 { return r.Table })
	row("rest drawn (-until-drawn)", func(r loadResult) *float64 { return r.Drawn })
	if xs := pick(rs, func(r loadResult) *float64 { return r.Bytes }); len(xs) > 0 {
		fmt.Printf("    %-34s %8.0f B\n", "bytes over the wire (median)", median(xs))
	}
	// The wasm's own body over the wire and the rate it came at (its encoded bytes over
	// responseStart → responseEnd; under -throttle that span also holds the emulated latency,
	// which Chromium applies after the first byte: network.go's check).
	body := pick(rs, func(r loadResult) *float64 { return r.WasmBody })
	var rates []float64
	for _, r := range rs {
		if r.WasmBody != nil && r.Wasm != nil && r.WasmFirstByte != nil && *r.Wasm > *r.WasmFirstByte {
			rates = append(rates, *r.WasmBody*8/1e6/((*r.Wasm-*r.WasmFirstByte)/1000))
		}
	}
	if len(body) > 0 && median(body) > 0 {
		fmt.Printf("    %-34s %8.0f B", "wasm body over the wire (median)", median(body))
		if len(rates) > 0 {
			fmt.Printf(", first byte → last at %.1f Mbit/s [%.1f..%.1f]", median(rates), slices.Min(rates), slices.Max(rates))
		}
		fmt.Println()
	}
}

// human is a byte count for the summary: "1.93 MB", "712.4 KB" (as bench/bench.sh writes them).
func human(b float64) string {
	switch {
	case b >= 1<<20:
		return fmt.Sprintf("%.2f MB", b/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.1f KB", b/(1<<10))
	}
	return fmt.Sprintf("%.0f B", b)
}

// loadMinimal loads the minimal page at url once (round i) and appends the result to dst.
func (b *bench) loadMinimal(i int, url, form string, dst *[]loadResult) error {
	r, err := b.load(url, script("minimal", "dom", minimalDone, "{}"))
	if err != nil {
		return err
	}
	if !r.TimedIn {
		return fmt.Errorf("cold load %d of the minimal page%s did not finish within %v", i+1, form, b.timeout)
	}
	*dst = append(*dst, r)
	return nil
}

// markNames lists the marks the loads recorded, in the order of their median times.
func markNames(rs []loadResult) []string {
	at := map[string][]float64{}
	for _, r := range rs {
		for k, v := range r.Marks {
			at[k] = append(at[k], v)
		}
	}
	names := make([]string, 0, len(at))
	for k := range at {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool { return median(at[names[i]]) < median(at[names[j]]) })
	return names
}

func pick(rs []loadResult, f func(loadResult) *float64) []float64 {
	var xs []float64
	for _, r := range rs {
		if p := f(r); p != nil {
			xs = append(xs, *p)
		}
	}
	return xs
}

// targetOf is the permalink's target as the JS object fitclaim.render takes: the bridge's own
// view of it (bridge.TargetView: the fields the link sets, each of the field table's type; the
// bridge refuses a number given as a string). A link the engine refuses is an error here,
// before anything is timed: the bench measures renders, not the error path.
func targetOf(fragment string) (string, error) {
	t, err := target.ParsePermalink(fragment)
	if err == nil {
		_, err = claim.Render(t)
	}
	if err != nil {
		return "", fmt.Errorf("-fragment %q: the engine refuses it: %w", fragment, err)
	}
	out, err := json.Marshal(bridge.TargetView(t))
	return string(out), err
}

// warmRenders is how many varied renders renderJS makes, untimed, before the timed ones.
const warmRenders = 20

// renderJS renders N varied targets in the page, each timed with performance.now(), after a
// warm-up; it returns every duration in milliseconds.
const renderJS = `(async () => {
  const N = COUNT, WARM = WARMUP;
  const fc = window.fitclaim;
  const names = [], sizeB = new Map();
  for (const q of ["", "llama", "qwen", "mistral", "gemma", "phi", "deepseek", "mixtral", "7b", "70b", "instruct", "coder"]) {
    for (const m of await fc.models(q, 100)) if (!sizeB.has(m.name)) { sizeB.set(m.name, m.paramsB); names.push(m.name); }
  }
  const quants = ["Q4_K_M", "Q8_0", "F16", "Q5_K_M", "Q2_K"];
  const targets = [];
  for (let i = 0; i < N + WARM; i++) {
    const t = (i % 17 === 9) ? { paramsB: 1 + (i % 120) } : { model: names[i % names.length] };
    if (i % 3 === 1) t.minTps = 5 + (i % 60);
    if (i % 4 === 2) t.efficiencyPct = 30 + (i % 70);
    if (i % 5 === 3) t.quant = quants[i % quants.length];
    if (i % 7 === 4) { t.sizing = "kv"; t.sequences = 1 + (i % 8); t.context = 1024 * (1 + (i % 8)); }
    // A vendor's driver only for a model one device of every vendor holds (a 1 T model has no
    // single device: the engine refuses it, and the bench must time claims, not refusals).
    if (i % 11 === 5 && (t.paramsB || sizeB.get(t.model)) <= 120) t.driver = ["nvidia", "amd", "intel", "any"][i % 4];
    if (i % 13 === 6) t.template = true;
    if (i % 19 === 7) t.count = 1 + (i % 4);
    targets.push(t);
  }
  // The render as the page makes it (app.js's renderTable: fitclaim.render(target, {columns: true})
  // joined with the accelerators it fetched once), else fitclaim.render(target).
  const page = window.fitclaimPage && window.fitclaimPage.renderTable;
  const render = page ? (t) => page(t) : (t) => fc.render(t);
  // A mark whose trace timestamp ties -chrome-trace's clock to performance.now().
  const markAt = performance.mark("fitclaim-bench:t0").startTime;
  const w = window.fitclaimPage && window.fitclaimPage.warm, warmed = w ? w.renders : -1, warmMs = w ? w.ms : 0, warmTargets = w ? w.targets || 0 : 0, warmRefused = w ? w.refused || 0 : 0, warmWhere = w ? w.where || "" : "";
  // When the page said its warm-up was done (the mark fitclaim:warm, ms from navigation), or -1.
  const warmMark = performance.getEntriesByName("fitclaim:warm")[0], warmAt = warmMark ? warmMark.startTime : -1;
  // Under -chrome-trace, a mark before and after each timed render: the trace stamps each with
  // the main thread's CPU time too, so a render's own CPU time shows apart from the machine's load.
  const cpu = TRACE ? (name) => { performance.mark("fitclaim-bench:" + name); performance.clearMarks("fitclaim-bench:" + name); } : () => {};
  let t0 = performance.now();
  let first = 0;
  let errors = 0, lastError = "", bytes = 0;
  const refused = (i, e) => { errors++; lastError = JSON.stringify(targets[i]) + ": " + String(e && e.message || e); };
  try { await render(targets[0]); } catch (e) { refused(0, e); }
  first = performance.now() - t0;
  for (let i = 1; i < WARM; i++) { try { await render(targets[i]); } catch (e) { refused(i, e); } }
  const d = [];
  // For comparison, the documented answer (docs/CONTRACT.md: every match an object) for the
  // same target, interleaved with the page's render (each goes first every other time), so the
  // two see the same machine.
  const full = [];
  // When each timed render started (performance.now()), for -render-trace: d's, full's, again's.
  const at = { d: [], full: [], again: [] };
  const timeFull = async (t) => {
    const t0 = performance.now();
    at.full.push(t0);
    cpu("full:s");
    try { await fc.render(t); } catch (_) {}
    cpu("full:e");
    full.push(performance.now() - t0);
  };
  for (let i = WARM; i < N + WARM; i++) {
    if (page && i % 2) await timeFull(targets[i]);
    t0 = performance.now();
    at.d.push(t0);
    cpu("page:s");
    try { const r = await render(targets[i]); bytes += r.yaml.length + r.matches.length; } catch (e) { refused(i, e); }
    cpu("page:e");
    d.push(performance.now() - t0);
    if (page && !(i % 2)) await timeFull(targets[i]);
  }
  const total = d.reduce((a, x) => a + x, 0);
  // The same renders again: by now V8 has compiled the wasm's hot functions with its optimizing
  // tier, which it does in the background while the first renders run on the baseline tier.
  const again = [];
  for (let i = WARM; i < N + WARM; i++) {
    t0 = performance.now();
    at.again.push(t0);
    cpu("again:s");
    try { await render(targets[i]); } catch (_) {}
    cpu("again:e");
    again.push(performance.now() - t0);
  }
  // For scale: a bridge round trip that does almost no work (type checks and the permalink).
  const p = [];
  for (let i = WARM; i < N + WARM; i++) {
    t0 = performance.now();
    try { await fc.permalink(targets[i]); } catch (_) {}
    p.push(performance.now() - t0);
  }
  return { p, d, again, full, at, markAt, warmed, warmMs, warmTargets, warmRefused, warmWhere, warmAt, targets: TRACE ? targets.slice(WARM) : [], page: !!page, errors, lastError, first, total, bytes, models: names.length, isolated: !!self.crossOriginIsolated };
})()`

// updateJS times what a user waits for: an edit of the form (the target speed, typed) until the
// page shows the new claim (YAML, summary, explanation, table and charts written), over N
// edits of a catalog model, in milliseconds.
const updateJS = `(async () => {
  const N = COUNT;
  const tps = document.getElementById("minTps"), yaml = document.getElementById("yaml");
  const changed = () => new Promise((resolve) => {
    // Delivered after the task that wrote the claim: the whole synchronous showResult is done.
    const mo = new MutationObserver(() => { mo.disconnect(); resolve(); });
    mo.observe(yaml, { childList: true, characterData: true, subtree: true });
  });
  const d = [];
  for (let i = 0; i < N + 10; i++) {
    const t0 = performance.now();
    const done = changed();
    tps.value = String(5 + (i % 90) + (i % 2 ? 0.5 : 0));
    tps.dispatchEvent(new Event("input", { bubbles: true }));
    await done;
    if (i >= 10) d.push(performance.now() - t0);
  }
  return d;
})()`

type renderResult struct {
	D  []float64 `json:"d"`
	At struct {
		D     []float64 `json:"d"`
		Full  []float64 `json:"full"`
		Again []float64 `json:"again"`
	} `json:"at"`
	Targets     []json.RawMessage `json:"targets"`
	MarkAt      float64           `json:"markAt"`
	Warmed      int               `json:"warmed"` // the page's warm-up renders before the timed ones (-1: none)
	WarmMs      float64           `json:"warmMs"`
	WarmTargets int               `json:"warmTargets"` // the targets of the page's warm-up (0: a page without them)
	WarmRefused int               `json:"warmRefused"` // of them, refused by the engine (an error's path)
	WarmWhere   string            `json:"warmWhere"`   // where the warm-up ran: "worker" (firstclaim.js), "page", "" (not said)
	WarmAt      float64           `json:"warmAt"`      // ms from navigation to the page's mark fitclaim:warm (-1: none yet)
	P           []float64         `json:"p"`
	Full        []float64         `json:"full"`
	Again       []float64         `json:"again"`
	Page        bool              `json:"page"`
	Errors      int               `json:"errors"`
	LastError   string            `json:"lastError"`
	First       float64           `json:"first"`
	Total       float64           `json:"total"`
	Bytes       int               `json:"bytes"`
	Models      int               `json:"models"`
	Isolated    bool              `json:"isolated"`
}

// renderLatency times n renders in a fresh page. Cold (warm false): as soon as the page says it
// is ready (data-state) and 500 ms more, as a user's first edits meet it; the page's idle-time
// warm-up (web/app.js warmUp) may have begun by then, and how far it got is printed. Warm: once
// the page says its warm-up is done (<html data-warm>); a page without one is said and skipped.
func (b *bench) renderLatency(url string, n int, warm bool) error {
	suffix := "" // of the -render-trace and -chrome-trace files: the warm run's end in .warm
	if warm {
		suffix = ".warm"
	}
	ctx, stop, err := b.browser(b.root)
	if err != nil {
		return err
	}
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	var gcs gcLog
	if b.trace != "" {
		gcs.listen(ctx)
		if err := chromedp.Run(ctx, chromedp.ActionFunc(func(ctx context.Context) error {
			_, err := page.AddScriptToEvaluateOnNewDocument(gctraceJS).Do(ctx)
			return err
		})); err != nil {
			return err
		}
	}
	var tr *chromeTracer
	if b.chromeTrace != "" {
		if tr, err = startTrace(ctx, b.traceCategories); err != nil {
			return err
		}
	}
	if err := chromedp.Run(ctx, chromedp.Navigate(url)); err != nil {
		return err
	}
	// Wait for the engine (the page polls for the global the same way).
	deadline := time.Now().Add(b.timeout)
	for {
		var ok bool
		if err := chromedp.Run(ctx, chromedp.Evaluate(`!!(window.fitclaim && typeof window.fitclaim.render === "function")`, &ok)); err != nil {
			return err
		}
		if ok {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("window.fitclaim did not appear within %v", b.timeout)
		}
		time.Sleep(25 * time.Millisecond)
	}
	// Let the page finish its own start (its first render sets data-state) so the timed renders
	// do not share the thread with it; a page without data-state is timed after a pause.
	for {
		var state string
		if err := chromedp.Run(ctx, chromedp.Evaluate(`document.documentElement.dataset.state || ""`, &state)); err != nil {
			return err
		}
		if state != "" || time.Now().After(deadline) {
			break
		}
		time.Sleep(25 * time.Millisecond)
	}
	if warm {
		for {
			var done bool
			if err := chromedp.Run(ctx, chromedp.Evaluate(`"warm" in document.documentElement.dataset`, &done)); err != nil {
				return err
			}
			if done {
				break
			}
			if time.Now().After(deadline.Add(30 * time.Second)) {
				fmt.Printf("\nrender latency in the page once warm: the page never said it was warm (<html data-warm>): skipped\n")
				return nil
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	time.Sleep(500 * time.Millisecond)
	var res renderResult
	src := strings.NewReplacer("COUNT", fmt.Sprint(n), "WARMUP", fmt.Sprint(warmRenders), "TRACE", fmt.Sprint(b.trace != "" || b.chromeTrace != "")).Replace(renderJS)
	if err := chromedp.Run(ctx, chromedp.Evaluate(src, &res, func(p *runtime.EvaluateParams) *runtime.EvaluateParams {
		return p.WithAwaitPromise(true)
	})); err != nil {
		return fmt.Errorf("timing renders: %w", err)
	}
	if res.Errors > 0 {
		return fmt.Errorf("the engine refused %d of the %d varied renders (last: %s): the figures would time its error path; fix the targets in renderJS",
			res.Errors, len(res.D)+warmRenders, res.LastError)
	}
	var gcAt []float64 // when Go's collections ran (performance.now()), under -render-trace
	if b.trace != "" {
		lines := gcs.lines()
		for _, l := range lines {
			if at, ok := l[0].(float64); ok {
				gcAt = append(gcAt, at)
			}
		}
		if err := writeTrace(b.trace+suffix, &res, lines); err != nil {
			return err
		}
		fmt.Printf("  (-render-trace) after the renders: %s\n", gcs.heldJS())
	}
	if tr != nil {
		why, err := tr.stop(ctx, b.chromeTrace+suffix, gcAt)
		if err != nil {
			return err
		}
		fmt.Print(why)
	}
	if b.keep != nil { // -render-rounds: the caller prints
		*b.keep = res
		return nil
	}
	xs := append([]float64(nil), res.D...)
	sort.Float64s(xs)
	if warm {
		fmt.Printf("\nrender latency in the page once warm: a fresh page, timed after it said its idle-time warm-up was done\n")
		fmt.Printf("  (<html data-warm>: %d warm-up renders, %.0f ms of rendering, web/app.js warmUp), the same %d renders as above\n", res.Warmed, res.WarmMs, len(xs))
		if res.WarmTargets > 0 {
			fmt.Printf("    its warm-up targets: %d, one per path an edit can take, %d of them refused (an error's path), rendered in the %s\n", res.WarmTargets, res.WarmRefused, res.WarmWhere)
		}
		if res.WarmAt >= 0 {
			fmt.Printf("    the page said it was warm %.0f ms after navigation (mark fitclaim:warm)\n", res.WarmAt)
		}
		fmt.Printf("    median %8.3f ms, p90 %8.3f ms, p99 %8.3f ms, max %8.3f ms\n", quantile(xs, 0.5), quantile(xs, 0.9), quantile(xs, 0.99), xs[len(xs)-1])
		if h := len(res.D) / 2; h > 0 {
			fmt.Printf("    p99 of the first %d renders %.3f ms, of the last %d %.3f ms\n", h, quantile(res.D[:h], 0.99), len(res.D)-h, quantile(res.D[h:], 0.99))
		}
		if len(res.Again) > 0 {
			fmt.Printf("    the same %d renders again: median %.3f ms, p99 %.3f ms\n", len(res.Again), quantile(res.Again, 0.5), quantile(res.Again, 0.99))
		}
		b.note("%-44s median %.3f ms, p99 %.3f ms over %d renders (after the page's warm-up)", "render latency in the page, once warm",
			quantile(xs, 0.5), quantile(xs, 0.99), len(xs))
		return nil
	}
	resolution := "100 µs (not cross-origin isolated)"
	if res.Isolated {
		resolution = "5 µs (cross-origin isolated: COOP/COEP)"
	}
	call := "`await fitclaim.render(target)`"
	if res.Page {
		call = "the page's render (`await fitclaim.render(target, {columns: true})`, joined with the accelerators: app.js renderTable)"
	}
	fmt.Printf("\nrender latency in the page: %d x %s after %d warm-up renders,\n", len(xs), call, warmRenders)
	fmt.Printf("  varied targets (%d catalog models, custom sizes, quant/tps/eff/kv/driver/template/count), timer resolution %s\n", res.Models, resolution)
	fmt.Printf("    median %8.3f ms\n", quantile(xs, 0.50))
	fmt.Printf("    p90    %8.3f ms\n", quantile(xs, 0.90))
	fmt.Printf("    p99    %8.3f ms\n", quantile(xs, 0.99))
	fmt.Printf("    max    %8.3f ms\n", xs[len(xs)-1])
	fmt.Printf("    mean   %8.3f ms (%.0f ms for all %d)\n", res.Total/float64(len(xs)), res.Total, len(xs))
	if h := len(res.D) / 2; h > 0 {
		fmt.Printf("    p99 of the first %d renders %.3f ms, of the last %d %.3f ms\n", h, quantile(res.D[:h], 0.99), len(res.D)-h, quantile(res.D[h:], 0.99))
	}
	if len(res.Again) > 0 {
		// The first renders of a fresh page run while V8 compiles the wasm's hot functions with
		// its optimizing tier in the background (with --no-liftoff --no-wasm-lazy-compilation,
		// which compiles everything before the page starts, the first renders are as fast as
		// later ones); the same renders again show the page once that is done.
		fmt.Printf("    the same %d renders again: median %.3f ms, p90 %.3f ms, p99 %.3f ms, max %.3f ms\n", len(res.Again),
			quantile(res.Again, 0.5), quantile(res.Again, 0.9), quantile(res.Again, 0.99), quantile(res.Again, 1))
	}
	fmt.Printf("    first render after the page's own first render %.3f ms\n", res.First)
	if res.Warmed >= 0 {
		fmt.Printf("    the page's idle-time warm-up (web/app.js warmUp) had made %d renders (%.0f ms) when the timed ones began", res.Warmed, res.WarmMs)
		if res.WarmTargets > 0 {
			fmt.Printf(", of its %d, in the %s", res.WarmTargets, res.WarmWhere)
		}
		if res.WarmAt >= 0 {
			fmt.Printf(" (done %.0f ms after navigation)", res.WarmAt)
		}
		fmt.Println()
	}
	if len(res.Full) > 0 {
		fmt.Printf("  for comparison, the documented form (`await fitclaim.render(target)`: every match an object), same targets:\n")
		fmt.Printf("    median %8.3f ms, p90 %8.3f ms, p99 %8.3f ms, max %8.3f ms\n", quantile(res.Full, 0.5), quantile(res.Full, 0.9), quantile(res.Full, 0.99), quantile(res.Full, 1))
	}
	fmt.Printf("  for scale, a bridge round trip doing almost no work (await fitclaim.permalink(target)), same targets:\n")
	fmt.Printf("    median %8.3f ms, p99 %8.3f ms\n", quantile(res.P, 0.5), quantile(res.P, 0.99))
	verdict := "holds"
	if quantile(xs, 0.5) >= 1 {
		verdict = "DOES NOT hold"
	}
	fmt.Printf("  budget: median under 1 ms: %s\n", verdict)
	b.note("%-44s median %.3f ms, p99 %.3f ms over %d renders (median < 1 ms budget %s)", "render latency in the page",
		quantile(xs, 0.5), quantile(xs, 0.99), len(xs), verdict)
	if len(res.Again) > 0 {
		b.note("%-44s median %.3f ms, p99 %.3f ms (the same renders again)", "render latency in the page, again", quantile(res.Again, 0.5), quantile(res.Again, 0.99))
	}
	// The page's own update: edit → claim on screen, DOM included.
	var upd []float64
	usrc := strings.Replace(updateJS, "COUNT", fmt.Sprint(min(n, 300)), 1)
	if err := chromedp.Run(ctx, chromedp.Evaluate(usrc, &upd, func(p *runtime.EvaluateParams) *runtime.EvaluateParams {
		return p.WithAwaitPromise(true)
	})); err != nil {
		fmt.Printf("  page update timing FAILED: %v\n", err)
	} else if len(upd) > 0 {
		sort.Float64s(upd)
		fmt.Printf("\npage update: %d edits of the target speed (input event) until the new claim is on screen\n", len(upd))
		fmt.Printf("  (render, YAML, summary, explanation, table and charts written; layout and paint not counted), same page\n")
		fmt.Printf("    median %8.3f ms, p90 %8.3f ms, p99 %8.3f ms, max %8.3f ms\n", quantile(upd, 0.5), quantile(upd, 0.9), quantile(upd, 0.99), upd[len(upd)-1])
		b.note("%-44s median %.3f ms, p99 %.3f ms over %d edits (input → claim on screen)", "page update in the page", quantile(upd, 0.5), quantile(upd, 0.99), len(upd))
	}
	return nil
}

func median(xs []float64) float64 { return quantile(xs, 0.5) }

// quantile by the nearest-rank method on a copy.
func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if q == 0.5 && len(s)%2 == 0 {
		return (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	i := int(math.Ceil(q*float64(len(s)))) - 1
	if i < 0 {
		i = 0
	}
	return s[i]
}
