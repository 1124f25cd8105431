package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/tracing"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/chromedp/chromedp"
)

// -render-trace: what the slow renders of step 2 are. The page's Go runs with GODEBUG=gctrace=1
// (added to the environment boot.js gives it, by wrapping wasm_exec.js's Go class before any
// page script runs), and each collection's line is stamped with performance.now() in the page,
// so a render and the collections that fell in it can be put side by side. Diagnosis only: the
// figures bench/bench.sh prints are taken without it.
const gctraceJS = `(() => {
  window.__gc = [];
  const log = console.log;
  console.log = function (...args) {
    const s = String(args[0]);
    if (s.startsWith("gc ")) for (const line of s.split("\n")) window.__gc.push([performance.now(), line]);
    return log.apply(this, args);
  };
  let G;
  Object.defineProperty(window, "Go", {
    configurable: true,
    get() { return G; },
    set(C) {
      G = class extends C {
        constructor(...a) { super(...a); this.env = Object.assign({}, this.env, { GODEBUG: "gctrace=1" }); window.__go = this; }
      };
    },
  });
})();`

// gcLog collects the page's stamped collection lines; they are read at the end through the
// page's own list (window.__gc), which is complete, so nothing here listens to the console.
type gcLog struct{ ctx context.Context }

func (g *gcLog) listen(ctx context.Context) { g.ctx = ctx }

func (g *gcLog) lines() [][2]any {
	var out [][2]any
	if g.ctx == nil {
		return nil
	}
	_ = chromedp.Run(g.ctx, chromedp.Evaluate(`window.__gc || []`, &out))
	return out
}

// heldJS is how many JavaScript values the Go program holds a reference to (wasm_exec.js's
// table, emptied only as Go's collector finalizes the js.Values), and the JS heap's size.
func (g *gcLog) heldJS() string {
	var out string
	if g.ctx != nil {
		_ = chromedp.Run(g.ctx, chromedp.Evaluate(`(() => { const g = window.__go; const n = g ? g._values.filter((v) => v !== null && v !== undefined).length : -1;
  return "JS values held by Go: " + n + " of " + (g ? g._values.length : -1) + " slots; JS heap used " + (performance.memory ? (performance.memory.usedJSHeapSize / 1048576).toFixed(1) + " MB" : "?"); })()`, &out))
	}
	return out
}

// writeTrace writes the timed renders in the order they ran, each with its phase ("page": the
// page's render; "full": the documented form interleaved with it; "again": the page's render a
// second time), start and duration in ms, the target's index among the timed ones and the
// target; and the collections' lines, stamped.
func writeTrace(path string, res *renderResult, gcs [][2]any) error {
	type rec struct {
		Phase  string          `json:"phase"`
		I      int             `json:"i"`
		Start  float64         `json:"start"`
		Ms     float64         `json:"ms"`
		Target json.RawMessage `json:"target,omitempty"`
	}
	var recs []rec
	add := func(phase string, at, d []float64) {
		for i := range min(len(at), len(d)) {
			r := rec{Phase: phase, I: i, Start: at[i], Ms: d[i]}
			if i < len(res.Targets) { // full's i-th is the page's i-th target
				r.Target = res.Targets[r.I]
			}
			recs = append(recs, r)
		}
	}
	add("page", res.At.D, res.D)
	add("full", res.At.Full, res.Full)
	add("again", res.At.Again, res.Again)
	var gc []map[string]any
	for _, g := range gcs {
		line, _ := g[1].(string)
		gc = append(gc, map[string]any{"at": g[0], "line": strings.TrimSpace(line)})
	}
	out, err := json.Marshal(map[string]any{"renders": recs, "gc": gc, "markAt": res.MarkAt})
	if err != nil {
		return err
	}
	return os.WriteFile(path, out, 0o644)
}

// multiFlag is a repeatable string flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, " ") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// chromeTracer records Chromium's trace (the DevTools protocol's Tracing domain) of step 2, for
// -chrome-trace: V8's wasm compiles (lazy, tier-up), its garbage collections and the page's
// marks (fitclaim-bench:t0 ties the trace's clock to the renders' performance.now()).
type chromeTracer struct {
	mu     sync.Mutex
	events []jsontext.Value
	done   chan struct{}
}

// traceCategories are the trace's categories: V8's wasm compiles (lazy, tier-up), its
// collections, the page's marks and the main thread's tasks.
var traceCategories = []string{"v8", "v8.wasm", "disabled-by-default-v8.wasm.detailed",
	"disabled-by-default-v8.gc", "blink.user_timing", "toplevel", "disabled-by-default-devtools.timeline",
	"devtools.timeline", "v8.execute", "loading", "netlog", "disabled-by-default-netlog"}

func startTrace(ctx context.Context, categories []string) (*chromeTracer, error) {
	tr := &chromeTracer{done: make(chan struct{})}
	chromedp.ListenTarget(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *tracing.EventDataCollected:
			tr.mu.Lock()
			tr.events = append(tr.events, ev.Value...)
			tr.mu.Unlock()
		case *tracing.EventTracingComplete:
			close(tr.done)
		}
	})
	cfg := &tracing.TraceConfig{IncludedCategories: categories}
	err := chromedp.Run(ctx, tracing.Start().WithTraceConfig(cfg).WithTransferMode(tracing.TransferModeReportEvents))
	return tr, err
}

// stop ends the trace, writes it to path and returns the attribution of the slow renders
// (attribution; gcAt: -render-trace's stamps of Go's collections, if any).
func (tr *chromeTracer) stop(ctx context.Context, path string, gcAt []float64) (string, error) {
	if err := chromedp.Run(ctx, tracing.End()); err != nil {
		return "", err
	}
	select {
	case <-tr.done:
	case <-time.After(60 * time.Second):
		return "", errors.New("the trace did not complete within 60 s")
	}
	tr.mu.Lock()
	defer tr.mu.Unlock()
	var out []byte
	out = append(out, `{"traceEvents":[`...)
	for i, ev := range tr.events {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, ev...)
	}
	out = append(out, "]}"...)
	raws := make([]json.RawMessage, len(tr.events))
	for i, ev := range tr.events {
		raws[i] = json.RawMessage(ev)
	}
	return attribution(raws, gcAt), os.WriteFile(path, out, 0o644)
}
