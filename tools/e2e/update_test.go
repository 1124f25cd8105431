package e2e

import (
	"context"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/fitclaim/fitclaim/cluster"
	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
	"github.com/fitclaim/fitclaim/tools/internal/netlify"
)

// A tab open across deploys. Version 1 (dist/) is served and two tabs open it; then the server
// moves to version 2 (a real second build, whose second engine differs: version 1's hashed
// names now answer 404, as after a Netlify deploy), and a new tab's visit installs version 2's
// service worker, which takes over the open tabs. The first old tab then opens its Deployment
// tab: its own version's second engine comes from the kept cache (not a 404, not version 2's
// engine). A third version takes over: only two caches are left (storage stays bounded), and the
// second old tab, whose engine is in neither, says to reload and, reloaded, keeps its pasted
// slices and checks them.
func TestUpdateKeepsOpenTabsWorking(t *testing.T) {
	v1 := distDir(t)
	root := repoRoot(t)
	cfg, err := netlify.Load(filepath.Join(root, "netlify.toml"))
	if err != nil {
		t.Fatal(err)
	}

	// Versions 2 and 3 build while version 1 is in the browser.
	work := t.TempDir()
	type versions struct {
		dirs []string
		err  error
	}
	built, finished := make(chan versions, 1), make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		defer close(finished)
		dirs, err := buildVersions(ctx, root, work, 2, 3)
		built <- versions{dirs, err}
	}()
	t.Cleanup(func() { cancel(); <-finished }) // before the temporary directory goes
	later := func() []string {
		t.Helper()
		select {
		case v := <-built:
			if v.err != nil {
				t.Fatal(v.err)
			}
			built <- v // for the next caller
			return v.dirs
		case <-time.After(patient(5 * time.Minute)):
			t.Fatal("versions 2 and 3 of the site were not built in time")
		}
		return nil
	}

	var current atomic.Pointer[http.Handler]
	use := func(dir string) {
		h := http.Handler(netlify.NewServer(dir, cfg, nil))
		current.Store(&h)
	}
	use(v1)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{ReadHeaderTimeout: 5 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The local server's Last-Modified is the file's time to the second, and two versions
		// built in the same second would make a check for a new sw.js answer 304 (Netlify's
		// validator is the content's ETag).
		r.Header.Del("If-Modified-Since")
		(*current.Load()).ServeHTTP(w, r)
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	base := "http://" + ln.Addr().String()

	// Version 1: tab a (for the Deployment tab) and tab c (for the cluster panel), each on its
	// claim, neither has fetched its second engine.
	tgA := targetWith(func(x *target.Target) {
		x.Model, x.Sizing, x.Context, x.Sequences, x.Driver = "Qwen/Qwen3-8B", target.SizingKV, 4096, 2, "nvidia"
	})
	tgC := targetWith(func(x *target.Target) { x.ParamsB, x.Driver, x.Count = 70, fit.DriverNVIDIA, 2 })
	a := newPage(t, base, 1280, 1000)
	a.open(target.Permalink(tgA))
	a.waitText("yaml", nonEmpty, "version 1's claim")
	c := a.newTab(1280, 1000)
	c.open(target.Permalink(tgC))
	c.waitText("yaml", nonEmpty, "version 1's claim in a second tab")
	for _, p := range []*page{a, c} {
		p.waitEval(`navigator.serviceWorker.controller !== null`, "version 1's service worker to control the tab")
		// Counts the service workers that take the tab over from now on.
		p.eval(`window.swTakeovers = 0; navigator.serviceWorker.addEventListener("controllerchange", () => { window.swTakeovers++; }); true`, nil)
	}
	name1 := cacheName(t, v1)
	if got := cacheKeys(a); !slices.Equal(got, []string{name1}) {
		t.Fatalf("caches after the first visit %q, want [%s]", got, name1)
	}
	// Version 1's assets are gone from the HTTP cache too (evicted; or the tab came from the
	// service worker's cache): else the browser's HTTP cache, not the service worker, would
	// answer the old tab's late request, and this test would not see what a user sees.
	a.run(network.Enable(), network.ClearBrowserCache())

	// Version 2 on the server; a new tab's visit installs its service worker.
	dirs := later()
	v2, v3 := dirs[0], dirs[1]
	name2, name3 := cacheName(t, v2), cacheName(t, v3)
	if later1, later2 := laterAsset(t, v1), laterAsset(t, v2); later1 == later2 {
		t.Fatalf("versions 1 and 2 have the same second engine %s: the test needs them to differ", later1)
	}
	use(v2)
	b := a.newTab(1280, 1000)
	b.open("")
	takeOver(t, b, a, 2)
	if got := cacheKeys(a); !sameSet(got, []string{name1, name2}) {
		t.Errorf("caches after version 2 took over %q, want [%s %s] (the old tabs' version kept)", got, name1, name2)
	}

	// The old tab's second engine: its own version's, from the kept cache.
	a.run(chromedp.Click("#tab-deploy", chromedp.ByQuery))
	want := deployed(t, tgA)
	deadline := time.Now().Add(patient(60 * time.Second))
	for a.text("deploy-yaml") != want.YAML {
		if a.visible("deploy-error") {
			t.Fatalf("the old tab's Deployment tab says: %s", a.text("deploy-error"))
		}
		if time.Now().After(deadline) {
			t.Fatalf("the old tab's Deployment tab has %q, not the engine's YAML", a.text("deploy-summary"))
		}
		time.Sleep(100 * time.Millisecond)
	}
	var version string
	a.eval(`window.fitclaimTestVersion === undefined ? "1" : String(window.fitclaimTestVersion)`, &version)
	if version != "1" {
		t.Errorf("the old tab ran version %v's second engine, want its own (1)", version)
	}
	a.noProblems()
	b.noProblems()

	// Version 3: version 1's cache goes (two versions kept, no more).
	use(v3)
	takeOver(t, b, a, 3)
	if got := cacheKeys(a); !sameSet(got, []string{name2, name3}) {
		t.Errorf("caches after version 3 took over %q, want [%s %s] (version 1's dropped)", got, name2, name3)
	}

	// Tab c is older than every cache: its engine is gone. It says to reload, and a reload keeps
	// the pasted slices (they are in no address) and checks them with version 3's engine.
	slicesText, err := os.ReadFile(filepath.Join(root, "cluster", "testdata", "mixed.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := cluster.CheckTarget(tgC, slicesText)
	if err != nil {
		t.Fatal(err)
	}
	c.paste(string(slicesText))
	msg := c.waitText("cluster-error", nonEmpty, "the old tab's message")
	if !strings.Contains(msg, "updated since this page was opened") || !strings.Contains(msg, "reload the page") {
		t.Errorf("the old tab says %q, want that the site was updated and to reload", msg)
	}
	c.run(chromedp.Reload())
	c.waitReady()
	c.waitText("cluster-verdict", func(s string) bool { return s == rep.Placement }, "the kept slices' placement: "+rep.Placement)
	var kept string
	c.eval(`document.getElementById("slices").value`, &kept)
	if kept != string(slicesText) {
		t.Errorf("after the reload the slices box holds %d characters, want the %d pasted", len(kept), len(slicesText))
	}
	c.eval(`String(window.fitclaimTestVersion)`, &version)
	if version != "3" {
		t.Errorf("the reloaded tab ran version %v's second engine, want 3", version)
	}
	for _, e := range c.errs.get() {
		if !strings.Contains(e, "fitclaim-later.") { // the one expected failure: its engine's 404
			t.Errorf("browser reported: %s", e)
		}
	}
}

// takeOver has tab from look for a new service worker (version n, on the server now) until it
// has taken over the old tab, and its activation is over. The update is asked for again every
// few seconds, in case one check is answered by an update Chromium started itself (after from's
// navigation) before the server moved on.
func takeOver(t *testing.T, from, old *page, n int) {
	t.Helper()
	deadline := time.Now().Add(patient(60 * time.Second))
	for {
		from.run(chromedp.Evaluate(`navigator.serviceWorker.getRegistration().then((r) => r.update()).then(() => true)`, nil, awaitPromise))
		for try := time.Now().Add(3 * time.Second); time.Now().Before(try); {
			var done bool
			old.run(chromedp.Evaluate(fmt.Sprintf(`window.swTakeovers >= %d && navigator.serviceWorker.getRegistration().then((r) =>
				r.active.state === "activated" && !r.installing && !r.waiting)`, n-1), &done, awaitPromise))
			if done {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		if time.Now().After(deadline) {
			var st string
			old.run(chromedp.Evaluate(`navigator.serviceWorker.getRegistration().then((r) => JSON.stringify({takeovers: window.swTakeovers,
				active: r.active && r.active.state, waiting: r.waiting && r.waiting.state, installing: r.installing && r.installing.state}))`, &st, awaitPromise))
			t.Fatalf("version %d's service worker did not take over the old tab: %s, caches %q", n, st, cacheKeys(old))
		}
	}
}

func awaitPromise(ep *runtime.EvaluateParams) *runtime.EvaluateParams {
	return ep.WithAwaitPromise(true)
}

func cacheKeys(p *page) []string {
	p.t.Helper()
	var keys []string
	p.run(chromedp.Evaluate(`caches.keys()`, &keys, awaitPromise))
	return keys
}

func sameSet(a, b []string) bool {
	return slices.Equal(slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b)))
}

// cacheName is the cache a built site's service worker fills.
func cacheName(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "sw.js"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`const CACHE = CACHE_PREFIX \+ "([^"]+)"`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("%s/sw.js names no versioned cache (const CACHE = CACHE_PREFIX + \"...\")", dir)
	}
	return "fitclaim-" + string(m[1])
}

// laterAsset is a built site's second engine (assets/fitclaim-later.<hash>.wasm).
func laterAsset(t *testing.T, dir string) string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "assets", "fitclaim-later.*.wasm"))
	if err != nil || len(m) != 1 {
		t.Fatalf("%s: second engine %q (%v)", dir, m, err)
	}
	return filepath.Base(m[0])
}

// buildVersions builds further versions of the site with tools/cmd/site, as a deploy would:
// from a copy of the repository (its working tree, the root module only) in which the second
// engine sets window.fitclaimTestVersion to the version's number, so its hashed name differs
// from dist/'s and from the other versions'. No precompressed copies (-precompress=false): the
// test's server sends the files as they are.
func buildVersions(ctx context.Context, root, work string, numbers ...int) ([]string, error) {
	site := filepath.Join(work, "site")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", site, "./cmd/site")
	cmd.Dir = filepath.Join(root, "tools")
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building tools/cmd/site: %v\n%s", err, out)
	}
	src := filepath.Join(work, "src")
	if err := copyModule(root, src); err != nil {
		return nil, err
	}
	var dirs []string
	for _, n := range numbers {
		code := fmt.Sprintf(`//go:build js && wasm

package main

import "syscall/js"

// Written by tools/e2e (update_test.go): version %d of the site, whose second engine says so.
func init() { js.Global().Set("fitclaimTestVersion", %d) }
`, n, n)
		if err := os.WriteFile(filepath.Join(src, "wasm", "pagelater", "testversion.go"), []byte(code), 0o644); err != nil {
			return nil, err
		}
		out := filepath.Join(work, fmt.Sprintf("v%d", n))
		cmd := exec.CommandContext(ctx, site, "-root", src, "-out", out, "-precompress=false")
		if b, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("building version %d of the site: %v\n%s", n, err, b)
		}
		dirs = append(dirs, out)
	}
	return dirs, nil
}

// copyModule copies the root module's files (no .git, dist, artifacts or caches, no nested
// module such as tools/) from root to dst.
func copyModule(root, dst string) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if rel != "." && (strings.HasPrefix(name, ".") || name == "node_modules" ||
				rel == "dist" || rel == "artifacts" || fileExistsAt(filepath.Join(p, "go.mod"))) {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
}

func fileExistsAt(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
