// Package e2e drives the built site (dist/) in headless Chromium, served with
// the same headers as production (netlify.toml through the devserve handler),
// and checks the page against the Go engine it was compiled from.
//
// The site comes from $FITCLAIM_DIST (./build.sh test sets it), else ../../dist.
// Without a built site the tests skip, unless $CI is set: then it is a failure.
// Screenshots go to $FITCLAIM_ARTIFACTS, else ../../artifacts.
package e2e

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/emulation"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/target"
	"github.com/fitclaim/fitclaim/tools/internal/netlify"
)

// ---------------------------------------------------------------------------
// fixtures

func repoRoot(t *testing.T) string {
	t.Helper()
	if r := os.Getenv("FITCLAIM_ROOT"); r != "" {
		return r
	}
	r, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func distDir(t *testing.T) string {
	t.Helper()
	d := os.Getenv("FITCLAIM_DIST")
	if d == "" {
		d = filepath.Join(repoRoot(t), "dist")
	}
	if _, err := os.Stat(filepath.Join(d, "index.html")); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("no built site at %s (%v): run ./build.sh first", d, err)
		}
		t.Skipf("no built site at %s (%v): run ./build.sh first (under CI this fails)", d, err)
	}
	return d
}

func artifactsDir(t *testing.T) string {
	t.Helper()
	d := os.Getenv("FITCLAIM_ARTIFACTS")
	if d == "" {
		d = filepath.Join(repoRoot(t), "artifacts")
	}
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	return d
}

// site is dist/ served on a free loopback port with netlify.toml's headers.
type site struct {
	URL string
	srv *http.Server
}

func serve(t *testing.T) *site { t.Helper(); return serveWith(t, nil) }

// serveWith is serve with the site's handler wrapped by wrap (nil: as it is), for a test that
// changes how the site answers: a slow engine, a missing one, a page sent in two parts.
func serveWith(t *testing.T, wrap func(site http.Handler) http.Handler) *site {
	t.Helper()
	dir := distDir(t)
	cfg, err := netlify.Load(filepath.Join(repoRoot(t), "netlify.toml"))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	h := http.Handler(netlify.NewServer(dir, cfg, nil))
	if wrap != nil {
		h = wrap(h)
	}
	s := &site{URL: "http://" + ln.Addr().String(), srv: &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}}
	go s.srv.Serve(ln)
	t.Cleanup(func() { s.srv.Close() })
	return s
}

// stop takes the site off the network: nothing answers on its port any more.
func (s *site) stop() { s.srv.Close() }

func chromiumPath() string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, p := range []string{"/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	return "" // let chromedp look for Chrome
}

// problems collects what a clean page never produces: uncaught exceptions,
// console.error, and browser log entries at error level (CSP violations,
// failed loads).
type problems struct {
	mu   sync.Mutex
	list []string
}

func (p *problems) add(s string) {
	p.mu.Lock()
	p.list = append(p.list, s)
	p.mu.Unlock()
}

func (p *problems) get() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.list...)
}

type page struct {
	t    *testing.T
	ctx  context.Context
	base string
	errs *problems
}

// newPage starts a fresh headless Chromium (its own profile) with one tab.
func newPage(t *testing.T, base string, width, height int64) *page {
	t.Helper()
	// Not t.TempDir: Chromium may still be writing its profile when the test
	// ends, and a failed RemoveAll would fail the test.
	profile, err := os.MkdirTemp("", "fitclaim-e2e-profile-")
	if err != nil {
		t.Fatal(err)
	}
	opts := append([]chromedp.ExecAllocatorOption{}, chromedp.DefaultExecAllocatorOptions[:]...)
	opts = append(opts,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(int(width), int(height)),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("hide-scrollbars", true),
		// chromedp waits 20 s for a new Chromium's DevTools address by default; at load 30+ on
		// two cores the start alone took longer (CI, 2026-12-02: seven tests failed so).
		chromedp.WSURLReadTimeout(patient(20*time.Second)),
	)
	if p := chromiumPath(); p != "" {
		opts = append(opts, chromedp.ExecPath(p))
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	// And 10 s to connect to that address once printed: at load 35 (CI, 2026-12-02, a mid-session
	// run beside four engineers' builds) the dial alone ran out after the address came.
	ctx, cancelC := chromedp.NewContext(actx, chromedp.WithBrowserOption(chromedp.WithDialTimeout(patient(10*time.Second))))
	ctx, cancelT := context.WithTimeout(ctx, patient(180*time.Second))
	t.Cleanup(func() {
		cancelT()
		cancelC()
		cancelA()
		for i := 0; i < 20; i++ {
			if os.RemoveAll(profile) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})

	return watch(&page{t: t, ctx: ctx, base: base, errs: &problems{}}, width, height)
}

// newTab opens another tab in p's Chromium (the same profile: its service worker and caches).
func (p *page) newTab(width, height int64) *page {
	p.t.Helper()
	ctx, cancel := chromedp.NewContext(p.ctx)
	p.t.Cleanup(cancel)
	return watch(&page{t: p.t, ctx: ctx, base: p.base, errs: &problems{}}, width, height)
}

// watch collects p's problems and sets its viewport.
func watch(p *page, width, height int64) *page {
	chromedp.ListenTarget(p.ctx, func(ev any) {
		switch e := ev.(type) {
		case *runtime.EventExceptionThrown:
			p.errs.add("exception: " + e.ExceptionDetails.Error())
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.APITypeError || e.Type == runtime.APITypeAssert {
				var parts []string
				for _, a := range e.Args {
					if a.Value != nil {
						parts = append(parts, string(a.Value))
					} else {
						parts = append(parts, a.Description)
					}
				}
				p.errs.add("console." + string(e.Type) + ": " + strings.Join(parts, " "))
			}
		case *cdplog.EventEntryAdded:
			if e.Entry.Level == cdplog.LevelError {
				p.errs.add("log (" + string(e.Entry.Source) + "): " + e.Entry.Text + " " + e.Entry.URL)
			}
		}
	})
	p.run(cdplog.Enable(), runtime.Enable(),
		chromedp.EmulateViewport(width, height))
	return p
}

func (p *page) run(actions ...chromedp.Action) {
	p.t.Helper()
	if err := chromedp.Run(p.ctx, actions...); err != nil {
		p.t.Fatalf("chromedp: %v", err)
	}
}

// open navigates to the site with a fragment and waits for the engine.
func (p *page) open(fragment string) {
	p.t.Helper()
	u := p.base + "/"
	if fragment != "" {
		u += "#" + fragment
	}
	p.run(chromedp.Navigate(u))
	p.waitReady()
}

func (p *page) waitReady() {
	p.t.Helper()
	var state string
	p.run(chromedp.Poll(`document.documentElement.dataset.state || ""`, &state, chromedp.WithPollingTimeout(patient(60*time.Second))))
	if state != "ready" {
		p.t.Fatalf("page did not start: state %q, boot message %q", state, p.text("boot"))
	}
}

func (p *page) eval(js string, out any) {
	p.t.Helper()
	p.run(chromedp.Evaluate(js, out))
}

// text is an element's textContent ("" when absent).
func (p *page) text(id string) string {
	p.t.Helper()
	var s string
	p.eval(fmt.Sprintf(`(document.getElementById(%q) || {}).textContent || ""`, id), &s)
	return s
}

func (p *page) visible(id string) bool {
	p.t.Helper()
	var v bool
	p.eval(fmt.Sprintf(`(() => { const e = document.getElementById(%q); if (!e) return false;
		for (let n = e; n; n = n.parentElement) if (n.hidden) return false;
		return e.getClientRects().length > 0; })()`, id), &v)
	return v
}

// waitText polls until an element's textContent satisfies ok, and returns it. It also waits
// for the page to finish drawing what goes with the claim (<html data-drawing> gone): the YAML
// of a link is shown first (web/boot.js, then app.js), the table, pictures and panels after
// the first paint, and the tests check those right after the YAML.
func (p *page) waitText(id string, ok func(string) bool, what string) string {
	p.t.Helper()
	deadline := time.Now().Add(patient(30 * time.Second))
	var s string
	for time.Now().Before(deadline) {
		s = p.text(id)
		var drawing bool
		p.eval(`"drawing" in document.documentElement.dataset`, &drawing)
		if ok(s) && !drawing {
			return s
		}
		time.Sleep(50 * time.Millisecond)
	}
	p.t.Fatalf("timed out waiting for #%s: %s; it has %q", id, what, s)
	return ""
}

// formShown says whether the form's fields are drawn: on a permalink load web/boot.js keeps
// the form out of layout (<html data-first>, content-visibility: hidden) until the link's claim
// is drawn, and a bug there would leave a user with a claim and no form to change it.
func (p *page) formShown() bool {
	p.t.Helper()
	var v bool
	p.eval(`!("first" in document.documentElement.dataset) &&
		document.getElementById("model").checkVisibility()`, &v)
	return v
}

// waitFormShown polls formShown for up to d.
func (p *page) waitFormShown(d time.Duration, when string) {
	p.t.Helper()
	deadline := time.Now().Add(patient(d))
	for !p.formShown() {
		if time.Now().After(deadline) {
			p.t.Fatalf("%s: the form is still hidden after %v (<html data-first> or #model not drawn)", when, d)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (p *page) fragment() string {
	p.t.Helper()
	var h string
	p.eval(`location.hash`, &h)
	return strings.TrimPrefix(h, "#")
}

func (p *page) noProblems() {
	p.t.Helper()
	for _, e := range p.errs.get() {
		p.t.Errorf("browser reported: %s", e)
	}
}

func (p *page) screenshot(name string) {
	p.t.Helper()
	var buf []byte
	p.run(chromedp.FullScreenshot(&buf, 100))
	path := filepath.Join(artifactsDir(p.t), name)
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		p.t.Fatal(err)
	}
	p.t.Logf("screenshot: %s", path)
}

// render is what the Go engine gives for a target.
func render(t *testing.T, tg target.Target) claim.Result {
	t.Helper()
	r, err := claim.Render(tg)
	if err != nil {
		t.Fatalf("engine: %v", err)
	}
	return r
}

// showClaim serves the site, opens a desktop-sized page on the target's permalink and waits
// until it shows the engine's claim for it, which it returns: where most tests start.
func showClaim(t *testing.T, tg target.Target) (*page, claim.Result) {
	t.Helper()
	p := newPage(t, serve(t).URL, 1280, 1000)
	want := render(t, tg)
	p.open(target.Permalink(tg))
	p.waitText("yaml", func(s string) bool { return s == want.YAML }, "the claim")
	return p, want
}

func targetWith(mod func(*target.Target)) target.Target {
	t := target.Default()
	mod(&t)
	return t
}

// A small catalog model that every driver can serve, and the example.
const exampleModel = "NousResearch/Llama-2-7b-chat-hf"

func nonEmpty(s string) bool { return s != "" }

func diff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return fmt.Sprintf("first difference at line %d:\n want %q\n  got %q", i+1, w, g)
		}
	}
	return "(no line differs)"
}

func sameText(t *testing.T, what, want, got string) {
	t.Helper()
	if want != got {
		t.Errorf("%s differs from the engine's: %s", what, diff(want, got))
	}
}

// ---------------------------------------------------------------------------
// tests

// Typing into the model combobox offers catalog models; picking one with the
// keyboard renders that model's claim, exactly as the engine renders it.
func TestTypeModelSeeClaim(t *testing.T) {
	s := serve(t)
	p := newPage(t, s.URL, 1280, 1000)
	p.open("")

	// The bare page shows the example with its model filled in: start from an empty field.
	p.eval(`document.getElementById("model").value = ""`, nil)
	p.run(chromedp.Click("#model", chromedp.ByQuery), chromedp.SendKeys("#model", "llama-2-7b-chat", chromedp.ByQuery))
	var expanded string
	p.eval(`document.getElementById("model").getAttribute("aria-expanded")`, &expanded)
	if expanded != "true" {
		t.Fatalf("combobox aria-expanded = %q after typing, want true", expanded)
	}
	var options []string
	p.eval(`Array.from(document.querySelectorAll('#model-list [role=option] .opt-name')).map(e => e.textContent)`, &options)
	if len(options) == 0 {
		t.Fatal("no options offered for 'llama-2-7b-chat'")
	}
	for _, o := range options {
		if !strings.Contains(strings.ToLower(o), "llama-2-7b") {
			t.Logf("option %q does not contain the query (ranking may be fuzzy)", o)
		}
	}
	p.run(chromedp.KeyEvent(kb.ArrowDown))
	var active string
	p.eval(`document.getElementById("model").getAttribute("aria-activedescendant") || ""`, &active)
	if active != "model-opt-0" {
		t.Errorf("after ArrowDown aria-activedescendant = %q, want model-opt-0", active)
	}
	p.run(chromedp.KeyEvent(kb.Enter))
	var picked string
	p.eval(`document.getElementById("model").value`, &picked)
	if picked != options[0] {
		t.Fatalf("Enter picked %q, want the first option %q", picked, options[0])
	}
	p.eval(`document.getElementById("model").getAttribute("aria-expanded")`, &expanded)
	if expanded != "false" {
		t.Errorf("listbox still expanded after picking")
	}

	// The pick keeps the example's other settings: the user's claim is the example made theirs.
	var exampleFrag string
	p.eval(`JSON.parse(document.getElementById("example").textContent).fragment`, &exampleFrag)
	tg, err := target.ParsePermalink(exampleFrag)
	if err != nil {
		t.Fatalf("the example's fragment %q: %v", exampleFrag, err)
	}
	tg.Model = picked
	want := render(t, tg)
	got := p.waitText("yaml", func(s string) bool { return s == want.YAML }, "the engine's YAML for "+picked)
	sameText(t, "YAML", want.YAML, got)
	if !strings.Contains(p.text("summary"), want.Name) {
		t.Errorf("summary %q does not name the claim %q", p.text("summary"), want.Name)
	}
	if fr := p.fragment(); fr != target.Permalink(tg) {
		t.Errorf("address bar fragment %q, want the permalink of %q", fr, picked)
	}
	p.noProblems()
}

// A permalink (issue 4's kind: kv sizing, a context, the NVIDIA driver) renders
// exactly the YAML and JSON the engine renders for its target, and the page's
// API link and kubectl line carry the same keys.
func TestPermalinkRendersEngineBytes(t *testing.T) {
	s := serve(t)
	cases := []target.Target{
		targetWith(func(x *target.Target) { x.Model = exampleModel; x.MinTps = 30; x.EfficiencyPct = 60 }),
		targetWith(func(x *target.Target) {
			x.Model = exampleModel
			x.Sizing = target.SizingKV
			x.Context = 4096
			x.Sequences = 4
			x.Driver = "nvidia"
		}),
		targetWith(func(x *target.Target) { x.ParamsB = 13; x.Quant = "Q8_0"; x.Template = true; x.Name = "my-claim" }),
	}
	p := newPage(t, s.URL, 1280, 1000)
	for i, tg := range cases {
		want := render(t, tg)
		frag := target.Permalink(tg)
		t.Run(frag, func(t *testing.T) {
			p.t = t
			if i == 0 {
				p.open(frag)
			} else {
				// A new link in the address bar of the open page (hashchange).
				p.run(chromedp.Evaluate(fmt.Sprintf(`location.hash = %q`, "#"+frag), nil))
			}
			got := p.waitText("yaml", func(s string) bool { return s == want.YAML }, "the engine's YAML for #"+frag)
			sameText(t, "YAML", want.YAML, got)
			sameText(t, "JSON", want.JSON, p.text("json"))
			if i == 0 {
				// Loaded at the link: boot.js's first claim (its YAML and JSON, then the rest of the
				// same render) is the one the page shows, adopted once: one render.
				var adopted int
				p.eval(`performance.getEntriesByName("fitclaim:early-adopted").length`, &adopted)
				if adopted != 1 {
					t.Errorf("the link's first claim was adopted %d times, want once (boot.js's render)", adopted)
				}
				// The form, kept out of layout while the link's claim was computed, is back.
				p.waitFormShown(5*time.Second, "after the link's claim")
			}
			api := s.URL + "/api/v1/claim.yaml?" + frag
			if got := p.text("api-link"); got != api {
				t.Errorf("API link %q, want %q", got, api)
			}
			if got, want := p.text("apply"), "kubectl apply -f '"+api+"'"; got != want {
				t.Errorf("kubectl line %q, want %q", got, want)
			}
			heredoc := p.text("heredoc")
			if !strings.HasPrefix(heredoc, "kubectl apply -f - <<'EOF'\n") || !strings.HasSuffix(heredoc, "\nEOF\n") ||
				!strings.Contains(heredoc, want.YAML) {
				t.Errorf("heredoc block is not kubectl apply -f - <<'EOF' + the YAML + EOF: %q", heredoc)
			}
			var rows int
			p.eval(`document.querySelectorAll("#matches tr").length`, &rows)
			if rows != len(want.Matches) {
				t.Errorf("matches table has %d rows, the engine %d matches", rows, len(want.Matches))
			}
			var firstVerdict string
			p.eval(`(document.querySelector("#matches tr .verdict") || {}).textContent || ""`, &firstVerdict)
			if len(want.Matches) > 0 && firstVerdict != want.Matches[0].Verdict {
				t.Errorf("first verdict %q, engine says %q", firstVerdict, want.Matches[0].Verdict)
			}
		})
	}
	p.t = t
	p.noProblems()
}

// Editing the form rewrites the address bar, and the new link is the engine's permalink of
// what the page now shows; each edit is one history entry (the keys of one number are one
// edit), so Back and Forward step through them.
func TestAddressBarFollowsForm(t *testing.T) {
	s := serve(t)
	p := newPage(t, s.URL, 1280, 1000)
	start := targetWith(func(x *target.Target) { x.Model = exampleModel })
	p.open(target.Permalink(start))
	p.waitText("yaml", nonEmpty, "a claim")
	var histLen int
	p.eval(`history.length`, &histLen)

	p.run(chromedp.SetValue("#minTps", "", chromedp.ByQuery), chromedp.SendKeys("#minTps", "42", chromedp.ByQuery))
	want := targetWith(func(x *target.Target) { x.Model = exampleModel; x.MinTps = 42 })
	if got := p.fragment(); got != target.Permalink(want) {
		t.Errorf("after typing 42 tok/s the fragment is %q, want %q", got, target.Permalink(want))
	}
	wantRes := render(t, want)
	p.waitText("yaml", func(s string) bool { return s == wantRes.YAML }, "the YAML for 42 tok/s")

	// A select: switch to KV sizing.
	p.eval(`(() => { const s = document.getElementById("sizing"); s.value = "kv"; s.dispatchEvent(new Event("change", {bubbles: true})); })()`, nil)
	frag := p.fragment()
	tg, err := target.ParsePermalink(frag)
	if err != nil {
		t.Fatalf("the page wrote a fragment the engine cannot read: %q: %v", frag, err)
	}
	if tg.Sizing != target.SizingKV || tg.MinTps != 42 || tg.Model != exampleModel {
		t.Errorf("fragment %q does not hold the form (kv, 42 tok/s, %s)", frag, exampleModel)
	}
	kv := render(t, tg)
	got := p.waitText("yaml", func(s string) bool { return s == kv.YAML }, "the kv-sized YAML")
	sameText(t, "YAML after switching to kv", kv.YAML, got)

	var histAfter int
	p.eval(`history.length`, &histAfter)
	if histAfter != histLen+2 {
		t.Errorf("two edits (typing 42, choosing kv) took history from %d to %d entries, want %d", histLen, histAfter, histLen+2)
	}
	// Back undoes the last edit, then the one before; Forward redoes it.
	p.eval(`history.back()`, nil)
	p.waitText("yaml", func(s string) bool { return s == wantRes.YAML }, "the 42 tok/s claim after Back")
	if got := p.fragment(); got != target.Permalink(want) {
		t.Errorf("after Back the fragment is %q, want %q", got, target.Permalink(want))
	}
	var sizing string
	p.eval(`document.getElementById("sizing").value`, &sizing)
	if sizing != "" {
		t.Errorf("after Back the sizing field is %q, want the default", sizing)
	}
	startRes := render(t, start)
	p.eval(`history.back()`, nil)
	p.waitText("yaml", func(s string) bool { return s == startRes.YAML }, "the first claim after a second Back")
	p.eval(`history.forward()`, nil)
	p.waitText("yaml", func(s string) bool { return s == wantRes.YAML }, "the 42 tok/s claim after Forward")
	p.eval(`history.forward()`, nil)
	got = p.waitText("yaml", func(s string) bool { return s == kv.YAML }, "the kv claim after a second Forward")
	sameText(t, "YAML after Forward", kv.YAML, got)
	// A bad value: the message sits by the field, the last claim stays, marked stale.
	p.run(chromedp.SetValue("#efficiencyPct", "", chromedp.ByQuery), chromedp.SendKeys("#efficiencyPct", "500", chromedp.ByQuery))
	if !p.visible("efficiencyPct-err") || !strings.Contains(p.text("efficiencyPct-err"), "efficiencyPct") {
		t.Errorf("no message by the efficiency field: %q", p.text("efficiencyPct-err"))
	}
	var invalid string
	p.eval(`document.getElementById("efficiencyPct").getAttribute("aria-invalid") || ""`, &invalid)
	if invalid != "true" {
		t.Errorf("efficiency field not aria-invalid")
	}
	// Typed one key at a time: 5 and 50 are valid, so the last good claim is eff=50's.
	last := render(t, func() target.Target { x := tg; x.EfficiencyPct = 50; return x }())
	if !p.visible("stale") {
		t.Errorf("the last good claim is not marked stale")
	}
	sameText(t, "stale YAML", last.YAML, p.text("yaml"))
	if !strings.Contains(p.text("result-error"), "efficiencyPct") {
		t.Errorf("result area error %q does not name the field", p.text("result-error"))
	}
	p.noProblems()
}

// A link with a bad part says which, keeps the rest, and never throws.
func TestBrokenLinkMessage(t *testing.T) {
	s := serve(t)
	p := newPage(t, s.URL, 1280, 1000)
	good := targetWith(func(x *target.Target) { x.Model = exampleModel; x.EfficiencyPct = 60 })
	frag := target.Permalink(good) + "&tps=fast"
	p.open(frag)

	msg := p.waitText("link-error", nonEmpty, "a message about the broken link")
	if !p.visible("link-error") {
		t.Errorf("link message is not visible")
	}
	if !strings.Contains(msg, "minTps") || !strings.Contains(msg, "tps=fast") {
		t.Errorf("link message %q does not name the field and the bad part", msg)
	}
	if !p.visible("minTps-err") {
		t.Errorf("no message next to the target speed field")
	}
	want := render(t, good)
	got := p.waitText("yaml", func(s string) bool { return s == want.YAML }, "the claim from the valid parts")
	sameText(t, "YAML from the valid parts", want.YAML, got)
	p.screenshot("e2e-broken-link-desktop.png")

	// Out of range and unknown keys, too.
	p.run(chromedp.Evaluate(`location.hash = "#m=`+url.QueryEscape(exampleModel)+`&eff=500&zz=1"`, nil))
	msg = p.waitText("link-error", func(s string) bool { return strings.Contains(s, "eff=500") }, "a message about eff=500")
	if !strings.Contains(msg, "efficiencyPct") || !strings.Contains(msg, "zz") {
		t.Errorf("link message %q does not name efficiencyPct and the unknown key", msg)
	}
	want = render(t, targetWith(func(x *target.Target) { x.Model = exampleModel }))
	p.waitText("yaml", func(s string) bool { return s == want.YAML }, "the claim without the bad parts")

	// Garbage that is no link at all.
	p.run(chromedp.Evaluate(`location.hash = "#%zz&<img src=x onerror=alert(1)>"`, nil))
	p.waitText("link-error", func(s string) bool { return strings.Contains(s, "could not be used") && strings.Contains(s, "<img") }, "a message about the garbage")
	var imgs int
	p.eval(`document.querySelectorAll("main img").length`, &imgs)
	if imgs != 0 {
		t.Errorf("link text was interpreted as HTML: %d <img> in main", imgs)
	}
	p.noProblems()
}

// Copy and download controls exist and work; download saves <claimName>.yaml.
func TestCopyAndDownload(t *testing.T) {
	s := serve(t)
	p := newPage(t, s.URL, 1280, 1000)
	tg := targetWith(func(x *target.Target) { x.Model = exampleModel })
	want := render(t, tg)
	p.open(target.Permalink(tg))
	p.waitText("yaml", func(s string) bool { return s == want.YAML }, "the claim")

	for _, id := range []string{"copy-yaml", "copy-json", "copy-heredoc", "copy-apply", "copy-api", "download-yaml"} {
		var ok bool
		p.eval(fmt.Sprintf(`(() => { const b = document.getElementById(%q); return !!b && b.tagName === "BUTTON" && !b.disabled; })()`, id), &ok)
		if !ok {
			t.Errorf("control #%s missing or disabled", id)
		}
	}
	if got, want := p.text("download-name"), want.Name+".yaml"; got != want {
		t.Errorf("download button names %q, want %q", got, want)
	}

	if data, ok := p.download("#download-yaml", want.Name+".yaml"); ok {
		sameText(t, "downloaded file", want.YAML, string(data))
	}
	// Copy: with clipboard permission the text lands on the clipboard.
	if clip, ok := p.copied(s, "#copy-yaml"); ok && clip != want.YAML {
		t.Errorf("clipboard after Copy YAML: %s", diff(want.YAML, clip))
	}
	p.noProblems()
}

// download clicks the button and returns the file it saves as name, once it is there; ok is
// false (and the test failed) when none comes within 15 s.
func (p *page) download(button, name string) (data []byte, ok bool) {
	p.t.Helper()
	dl := p.t.TempDir()
	p.run(browser.SetDownloadBehavior(browser.SetDownloadBehaviorBehaviorAllow).WithDownloadPath(dl).WithEventsEnabled(true))
	p.run(chromedp.Click(button, chromedp.ByQuery))
	file := filepath.Join(dl, name)
	for deadline := time.Now().Add(patient(15 * time.Second)); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if b, err := os.ReadFile(file); err == nil && len(b) > 0 {
			return b, true
		}
	}
	entries, err := os.ReadDir(dl)
	p.t.Errorf("%s did not download %s (the folder has %v, %v)", button, name, entries, err)
	return nil, false
}

// copied clicks the copy button, with the clipboard granted to the site, and returns what the
// clipboard then holds; ok is false where this browser will not read the clipboard back (logged).
func (p *page) copied(s *site, button string) (clip string, ok bool) {
	p.t.Helper()
	p.run(browser.GrantPermissions([]browser.PermissionType{browser.PermissionTypeClipboardReadWrite, browser.PermissionTypeClipboardSanitizedWrite}).WithOrigin(s.URL))
	p.run(chromedp.Click(button, chromedp.ByQuery))
	p.waitText("copied", nonEmpty, "a copy confirmation")
	err := chromedp.Run(p.ctx, chromedp.Evaluate(`navigator.clipboard.readText()`, &clip, func(ep *runtime.EvaluateParams) *runtime.EvaluateParams {
		return ep.WithAwaitPromise(true).WithUserGesture(true)
	}))
	if err != nil {
		p.t.Logf("clipboard not readable here (%v); the confirmation was %q", err, p.text("copied"))
		return "", false
	}
	return clip, true
}

// Tabs: ARIA tabs that follow the arrow keys.
func TestTabsKeyboard(t *testing.T) {
	s := serve(t)
	p := newPage(t, s.URL, 1280, 1000)
	p.open(target.Permalink(targetWith(func(x *target.Target) { x.Model = exampleModel })))
	p.waitText("yaml", nonEmpty, "a claim")
	p.run(chromedp.Focus("#tab-yaml", chromedp.ByQuery), chromedp.KeyEvent(kb.ArrowRight))
	var sel string
	p.eval(`document.getElementById("tab-json").getAttribute("aria-selected") + " " + document.activeElement.id`, &sel)
	if sel != "true tab-json" {
		t.Errorf("ArrowRight on the YAML tab: %q, want the JSON tab selected and focused", sel)
	}
	if !p.visible("json") || p.visible("yaml") {
		t.Errorf("JSON panel not shown (or YAML panel not hidden) after switching tabs")
	}
	p.noProblems()
}

// After one visit the service worker serves everything: with the network off
// (and the server gone) a reload still starts the engine and renders, and a new
// link still renders.
func TestOffline(t *testing.T) {
	s := serve(t)
	p := newPage(t, s.URL, 1280, 1000)
	a := targetWith(func(x *target.Target) { x.Model = exampleModel; x.MinTps = 25 })
	p.open(target.Permalink(a))
	want := render(t, a)
	p.waitText("yaml", func(s string) bool { return s == want.YAML }, "the claim online")

	var controlled bool
	p.run(chromedp.Poll(`navigator.serviceWorker.ready.then(() => !!navigator.serviceWorker.controller)`, &controlled,
		chromedp.WithPollingTimeout(patient(30*time.Second)), chromedp.WithPollingInterval(100*time.Millisecond)))
	if !controlled {
		t.Fatal("the service worker never took control of the page")
	}
	var caches []string
	p.run(chromedp.Evaluate(`caches.keys()`, &caches, func(ep *runtime.EvaluateParams) *runtime.EvaluateParams { return ep.WithAwaitPromise(true) }))
	if len(caches) != 1 || !strings.HasPrefix(caches[0], "fitclaim-") {
		t.Errorf("caches %q, want one versioned fitclaim cache", caches)
	}

	// Installable: a manifest with icons and a service worker, by Chromium's own check.
	var installErrs []*cdppage.InstallabilityError
	p.run(chromedp.ActionFunc(func(ctx context.Context) error {
		var err error
		installErrs, err = cdppage.GetInstallabilityErrors().Do(ctx)
		return err
	}))
	for _, e := range installErrs {
		t.Errorf("not installable: %s %v", e.ErrorID, e.ErrorArguments)
	}

	s.stop()
	p.run(network.Enable(), network.EmulateNetworkConditions(true, 0, 0, 0))
	p.run(chromedp.Reload())
	p.waitReady()
	got := p.waitText("yaml", func(s string) bool { return s == want.YAML }, "the claim offline after a reload")
	sameText(t, "offline YAML", want.YAML, got)

	b := targetWith(func(x *target.Target) { x.Model = exampleModel; x.Quant = "Q8_0"; x.Template = true })
	wantB := render(t, b)
	p.run(chromedp.Evaluate(fmt.Sprintf(`location.hash = %q`, "#"+target.Permalink(b)), nil))
	p.waitText("yaml", func(s string) bool { return s == wantB.YAML }, "a new link's claim offline")

	// A link to another model, loaded offline: its catalog shard was never fetched; the page,
	// which the service worker controls, takes the whole table from its cache (boot.js).
	c := targetWith(func(x *target.Target) { x.Model = "Qwen/Qwen3-8B"; x.Sizing = target.SizingKV })
	wantC := render(t, c)
	p.run(chromedp.Evaluate(fmt.Sprintf(`location.hash = %q`, "#"+target.Permalink(c)), nil))
	p.waitText("yaml", func(s string) bool { return s == wantC.YAML }, "another model's link offline")
	p.run(chromedp.Reload())
	p.waitReady()
	p.waitText("yaml", func(s string) bool { return s == wantC.YAML }, "another model's link loaded offline")
	var shards int
	p.eval(`performance.getEntriesByType("resource").filter((e) => e.name.includes("/assets/catalog-shard.")).length`, &shards)
	if shards != 0 {
		t.Errorf("offline, under the service worker, the page fetched %d catalog shards, want the whole table only", shards)
	}

	// The only failures allowed offline are the page's own probes of the dead network.
	for _, e := range p.errs.get() {
		t.Errorf("browser reported: %s", e)
	}
}

// Screenshots at desktop and phone widths, light and dark, for people to look at.
func TestScreenshots(t *testing.T) {
	s := serve(t)
	frag := target.Permalink(targetWith(func(x *target.Target) { x.Model = exampleModel; x.Sizing = target.SizingKV; x.Driver = "nvidia" }))
	for _, c := range []struct {
		name          string
		width, height int64
		mobile        bool
		dark          bool
	}{
		{"e2e-desktop.png", 1280, 900, false, false},
		{"e2e-desktop-dark.png", 1280, 900, false, true},
		{"e2e-phone.png", 390, 844, true, false},
		{"e2e-phone-dark.png", 390, 844, true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := newPage(t, s.URL, c.width, c.height)
			if c.mobile {
				p.run(chromedp.EmulateViewport(c.width, c.height, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
			}
			if c.dark {
				p.run(emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}))
			}
			p.open(frag)
			p.waitText("yaml", nonEmpty, "a claim")
			var overflow bool
			p.eval(`document.documentElement.scrollWidth > document.documentElement.clientWidth + 1`, &overflow)
			if overflow {
				t.Errorf("the page scrolls sideways at %d px", c.width)
			}
			p.screenshot(c.name)
			if c.mobile {
				// On a phone the verdict (memory, bandwidth, how many devices fit) is on the first
				// screen, without scrolling.
				var bottom, height float64
				p.eval(`document.querySelector("#summary .verdict-line").getBoundingClientRect().bottom`, &bottom)
				p.eval(`window.innerHeight`, &height)
				if bottom == 0 || bottom > height {
					t.Errorf("the verdict ends at %.0f px, below the first screen (%.0f px)", bottom, height)
				}
				var buf []byte
				p.run(chromedp.CaptureScreenshot(&buf))
				if err := os.WriteFile(filepath.Join(artifactsDir(t), strings.Replace(c.name, ".png", "-first-screen.png", 1)), buf, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			p.noProblems()
		})
	}
}

// When the engine cannot load, the page says so in words, and throws nothing.
func TestEngineFailureIsShown(t *testing.T) {
	s := serveWith(t, func(site http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, ".wasm") {
				http.Error(w, "gone", http.StatusNotFound)
				return
			}
			site.ServeHTTP(w, r)
		})
	})

	p := newPage(t, s.URL, 1280, 900)
	p.run(chromedp.Navigate(p.base + "/#m=" + url.QueryEscape(exampleModel)))
	var state string
	p.run(chromedp.Poll(`document.documentElement.dataset.state || ""`, &state, chromedp.WithPollingTimeout(patient(20*time.Second))))
	if state != "error" {
		t.Fatalf("state %q, want error", state)
	}
	msg := p.text("boot")
	if !p.visible("boot") || !strings.Contains(msg, "could not start") {
		t.Errorf("boot message %q (visible %v) does not say the engine failed", msg, p.visible("boot"))
	}
	// The link's claim never comes, so the form must not wait for it (boot.js unhides it when
	// its first claim fails, and after 1.5 s in any case).
	p.waitFormShown(5*time.Second, "with no engine")
	for _, e := range p.errs.get() {
		// The 404 itself is logged by the browser; anything else is a fault.
		if strings.Contains(e, "404") || strings.Contains(e, ".wasm") {
			continue
		}
		t.Errorf("browser reported: %s", e)
	}
}

// The page's scripts write text, never markup, and evaluate no strings; the page's one inline
// script is web/boot.js exactly, allowed by its hash (tools/cmd/site writes it in).
func TestScriptWritesNoHTML(t *testing.T) {
	dir := distDir(t)
	files, err := filepath.Glob(filepath.Join(dir, "assets", "*.js"))
	if err != nil || len(files) == 0 {
		t.Fatalf("want the hashed scripts in %s/assets, got %v (%v)", dir, files, err)
	}
	boot, err := os.ReadFile(filepath.Join(repoRoot(t), "web", "boot.js"))
	if err != nil {
		t.Fatal(err)
	}
	html, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	scripts := map[string]string{"index.html's inline boot.js": string(boot)}
	for _, f := range files {
		if strings.HasPrefix(filepath.Base(f), "wasm_exec.") {
			continue // Go's glue, as the Go distribution ships it
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(filepath.Base(f), "firstclaim.") { // the glue is put in front of the worker
			if i := strings.Index(string(src), "// fitclaim's worker"); i > 0 {
				src = src[i:]
			}
		}
		scripts[filepath.Base(f)] = string(src)
	}
	for name, src := range scripts {
		for _, bad := range []string{"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function", ".style."} {
			if strings.Contains(src, bad) {
				t.Errorf("%s uses %s", name, bad)
			}
		}
	}
	inline := "<script>" + string(boot) + "</script>"
	if strings.Count(string(html), inline) != 1 {
		t.Errorf("index.html does not hold web/boot.js, exactly, as its one inline script")
	}
	sum := sha256.Sum256(boot)
	hash := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	if !strings.Contains(string(html), "script-src 'self' "+hash+" 'wasm-unsafe-eval';") {
		t.Errorf("index.html's Content-Security-Policy does not allow boot.js by its hash %s alone", hash)
	}
	rest := strings.Replace(string(html), inline, "", 1)
	for _, bad := range []string{" style=", " onclick=", " onload=", " onerror=", "<script>", "unsafe-inline", "http://", "https://"} {
		if strings.Contains(rest, bad) {
			t.Errorf("index.html contains %q (inline code or an external resource)", bad)
		}
	}
}

// A bare visit shows a complete example claim before the engine has loaded: its YAML is in
// index.html (rendered by the engine when the site was built) and the rest is drawn from the
// data beside it; the form holds the example, and the engine's arrival changes nothing shown.
func TestBarePageShowsExampleBeforeEngine(t *testing.T) {
	release := make(chan struct{})
	s := serveWith(t, func(site http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, ".wasm") {
				<-release // the engine arrives only when the test says so
			}
			site.ServeHTTP(w, r)
		})
	})
	released := false
	defer func() {
		if !released {
			close(release)
		}
	}()

	p := newPage(t, s.URL, 1280, 900)
	p.run(chromedp.Navigate(p.base + "/"))
	var exampleFrag string
	p.run(chromedp.Poll(`(document.getElementById("example") || {}).textContent && JSON.parse(document.getElementById("example").textContent).fragment`,
		&exampleFrag, chromedp.WithPollingTimeout(patient(20*time.Second))))
	tg, err := target.ParsePermalink(exampleFrag)
	if err != nil {
		t.Fatalf("the example's fragment %q: %v", exampleFrag, err)
	}
	want := render(t, tg)
	got := p.waitText("yaml", func(s string) bool { return s == want.YAML }, "the example's YAML before the engine")
	sameText(t, "example YAML", want.YAML, got)
	sameText(t, "example JSON", want.JSON, p.text("json"))
	var state string
	p.eval(`document.documentElement.dataset.state || ""`, &state)
	if state != "" {
		t.Fatalf("state %q: the engine was there already, the test proves nothing", state)
	}
	if !p.visible("yaml") || !p.visible("example-note") {
		t.Errorf("the example's YAML or its note is not visible")
	}
	if !strings.Contains(p.text("summary"), want.Name) {
		t.Errorf("summary %q does not name the example's claim %q", p.text("summary"), want.Name)
	}
	var rows int
	p.eval(`document.querySelectorAll("#matches tr").length`, &rows)
	if rows != len(want.Matches) {
		t.Errorf("example table has %d rows, the engine %d matches", rows, len(want.Matches))
	}
	var model string
	p.eval(`document.getElementById("model").value`, &model)
	if model != tg.Model {
		t.Errorf("the form's model is %q, want the example's %q", model, tg.Model)
	}

	close(release)
	released = true
	p.waitReady()
	sameText(t, "example YAML once the engine is there", want.YAML, p.text("yaml"))
	if fr := p.fragment(); fr != "" {
		t.Errorf("a bare visit's address gained a fragment %q before any edit", fr)
	}
	p.screenshot("e2e-bare-example.png")
	p.noProblems()
}

// The two pictures (memory against a device, speed per accelerator) are inline SVG with a title
// and a text equivalent; the accelerator table sorts by a column (and back), filters by vendor,
// and marks the rows the claim's driver cannot select.
func TestChartsAndTable(t *testing.T) {
	p, want := showClaim(t, targetWith(func(x *target.Target) { x.Model = exampleModel; x.Driver = "nvidia" }))

	for _, id := range []string{"chart-memory", "chart-speed"} {
		var c struct {
			Title, Desc, Caption, Role string
			Shapes                     int
		}
		p.eval(fmt.Sprintf(`(() => { const f = document.getElementById(%q); if (!f) return {};
			const s = f.querySelector("svg");
			return { title: s.querySelector("title").textContent, desc: s.querySelector("desc").textContent,
				caption: f.querySelector("figcaption").textContent, role: s.getAttribute("role"),
				shapes: s.querySelectorAll("rect").length }; })()`, id), &c)
		if c.Title == "" || c.Desc == "" || c.Role != "img" || c.Shapes == 0 || !strings.Contains(c.Caption, c.Desc) {
			t.Errorf("%s: title %q, text %q, role %q, %d shapes, caption %q", id, c.Title, c.Desc, c.Role, c.Shapes, c.Caption)
		}
	}
	var memTitle string
	p.eval(`document.querySelector("#chart-memory title").textContent`, &memTitle)
	if !strings.HasPrefix(memTitle, "Memory on one ") {
		t.Errorf("memory chart title %q", memTitle)
	}

	// Sort by memory: a figure sorts largest first, then, clicked again, smallest first.
	memories := func() []float64 {
		var xs []float64
		p.eval(`Array.from(document.querySelectorAll("#matches tr")).map(r => parseFloat(r.cells[5].textContent.replace(/,/g, "")))`, &xs)
		return xs
	}
	sortAttr := func() string {
		var a string
		p.eval(`document.querySelector('th[data-sort="memoryGiB"]').getAttribute("aria-sort")`, &a)
		return a
	}
	p.run(chromedp.Click(`th[data-sort="memoryGiB"] button`, chromedp.ByQuery))
	xs := memories()
	slices.Reverse(xs)
	if len(xs) != len(want.Matches) || !slices.IsSorted(xs) || sortAttr() != "descending" {
		t.Errorf("after one click on Memory the column is not descending (aria-sort %q): %v", sortAttr(), xs)
	}
	p.run(chromedp.Click(`th[data-sort="memoryGiB"] button`, chromedp.ByQuery))
	if xs := memories(); !slices.IsSorted(xs) || sortAttr() != "ascending" {
		t.Errorf("after a second click on Memory the column is not ascending (aria-sort %q): %v", sortAttr(), xs)
	}

	// Rows the NVIDIA driver cannot select say so; the vendor filter leaves only AMD's.
	var unselectable []string
	p.eval(`Array.from(document.querySelectorAll("#matches tr.unselectable .why")).map(e => e.textContent)`, &unselectable)
	if len(unselectable) == 0 {
		t.Errorf("no row is marked as one the NVIDIA driver cannot select")
	}
	for _, w := range unselectable {
		if !strings.Contains(w, "cannot select") {
			t.Errorf("an unselectable row says %q", w)
		}
	}
	p.eval(`(() => { const s = document.getElementById("filter-vendor"); s.value = "amd"; s.dispatchEvent(new Event("change")); })()`, nil)
	var vendors []string
	p.eval(`Array.from(document.querySelectorAll("#matches tr .vendor")).map(e => e.textContent.split(" ")[0])`, &vendors)
	if len(vendors) == 0 {
		t.Fatal("the AMD filter left no rows")
	}
	for _, v := range vendors {
		if v != "AMD" {
			t.Errorf("the AMD filter shows a %s row", v)
		}
	}
	p.noProblems()
}
