package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/fitclaim/fitclaim/tools/internal/precompress"
)

// netProfile is a network that Chromium emulates for a load (-throttle): CDP's
// Network.emulateNetworkConditions, request-level: each request's response headers come at
// least Latency after it was sent, and the responses' bodies (the bytes as they come over the
// wire: compressed, if they were) share the throughput. It has no TCP or TLS handshakes and no
// slow start, so it is a lower bound on what a real network of that latency and bandwidth costs.
type netProfile struct {
	Name     string
	Latency  float64 // ms
	Down, Up float64 // bytes per second
}

// desktopProfile is Lighthouse's desktop throttling (core/config/constants.js, desktopDense4G:
// rttMs 40, throughputKbps 10 * 1024, cpuSlowdownMultiplier 1; "Dense 4G 25th percentile", the
// profile of PageSpeed Insights' desktop run): a named, documented profile of a good connection,
// so the figure says what the bytes cost on an ordinary one, not a worst case. Lighthouse applies
// it by simulation; here its RTT is the request latency and its throughput the bandwidth, down
// and up (kbit as Lighthouse counts them: 1024 bits).
var desktopProfile = netProfile{Name: "Lighthouse desktop", Latency: 40, Down: 10 * 1024 * 1024 / 8, Up: 10 * 1024 * 1024 / 8}

// parseThrottle reads -throttle: "desktop", or LATENCY_MS,DOWN_KBIT,UP_KBIT (kbit of 1024 bits).
func parseThrottle(s string) (netProfile, error) {
	if s == "desktop" {
		return desktopProfile, nil
	}
	parts := strings.Split(s, ",")
	if len(parts) != 3 {
		return netProfile{}, fmt.Errorf("%q: want \"desktop\" or LATENCY_MS,DOWN_KBIT,UP_KBIT (e.g. 40,10240,10240)", s)
	}
	var v [3]float64
	for i, p := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || f <= 0 || f > 1e7 {
			return netProfile{}, fmt.Errorf("%q: %q is not a number in (0, 1e7] (LATENCY_MS,DOWN_KBIT,UP_KBIT)", s, p)
		}
		v[i] = f
	}
	return netProfile{Name: "custom", Latency: v[0], Down: v[1] * 1024 / 8, Up: v[2] * 1024 / 8}, nil
}

func (p netProfile) emulate() *network.EmulateNetworkConditionsParams {
	return network.EmulateNetworkConditions(false, p.Latency, p.Down, p.Up)
}

func mbit(bytesPerSecond float64) float64 { return bytesPerSecond * 8 / 1e6 }

func (p netProfile) String() string {
	return fmt.Sprintf("%s: %.0f ms latency, %.0f kbit/s down (%.2f Mbit/s), %.0f kbit/s up (kbit of 1024 bits, as Lighthouse counts)", p.Name, p.Latency, p.Down*8/1024, mbit(p.Down), p.Up*8/1024)
}

// compressedCopy copies the minimal page's directory into the profiles' directory and writes
// beside its files the precompressed copies the site build writes (tools/internal/precompress,
// as tools/cmd/site does), so the same server sends them as it sends the site's. It returns the
// copy and how its wasm will be sent to a browser (brotli first, as the server picks).
func (b *bench) compressedCopy(dir string) (string, string, error) {
	out, err := os.MkdirTemp(b.tmp, "minimal-compressed-")
	if err != nil {
		return "", "", err
	}
	enc := "none"
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(out, rel), 0o755)
		}
		if strings.HasSuffix(p, ".br") || strings.HasSuffix(p, ".gz") {
			return nil // written again below
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(out, rel), data, 0o644)
	})
	if err == nil {
		err = precompress.Dir(out)
	}
	if err != nil {
		return "", "", fmt.Errorf("the minimal page served like the site: %w", err)
	}
	wasm, _ := filepath.Glob(filepath.Join(out, "*.wasm"))
	for _, w := range wasm {
		if _, err := os.Stat(w + ".br"); err == nil {
			enc = "brotli"
		} else if _, err := os.Stat(w + ".gz"); err == nil && enc == "none" {
			enc = "gzip"
		}
	}
	b.minimalBrDir = out
	return out, enc, nil
}

// throttledLoads is step 1b: n cold loads of the site at the permalink and of the minimal page
// in both forms (and of -compare's build at the permalink), their order rotating each round, each in a new Chromium that emulates
// b.throttle; it prints each page's figures, the ratios of the medians and the rate each wasm's
// body came at (the check that the emulation limits the bytes over the wire).
func (b *bench) throttledLoads(siteURL, minimalURL, fragment string, n int) error {
	prof := *b.throttle
	renderArg, done, err := permalinkLoad(fragment)
	if err != nil {
		return err
	}
	type form struct {
		label, url, src string
		file            string // -chrome-trace's suffix for its traced throttled load
		minimal         bool   // a minimal page (else a build of the site)
		res             []loadResult
	}
	forms := []*form{{label: "fitclaim page #" + fragment + ", until the YAML is shown", file: "load", url: siteURL, src: scriptLink("dom", done, renderArg)}}
	if minimalURL != "" {
		forms = append(forms, &form{label: "minimal Go wasm page, served raw", file: "minimal", url: minimalURL, src: script("minimal", "dom", minimalDone, "{}"), minimal: true})
		if b.minimalBrURL != "" {
			forms = append(forms, &form{label: "minimal Go wasm page, served like the site (" + b.minimalBrEncoding + ")", file: "minimal-compressed", url: b.minimalBrURL, src: script("minimal", "dom", minimalDone, "{}"), minimal: true})
		}
	}
	// -stream-only: the site's own wasm, fetched and compiled by a page that does nothing else
	if b.streamOnlyURL != "" {
		forms = append(forms, &form{label: "a page that only streams and compiles the site's wasm (-stream-only)", file: "stream-only", url: b.streamOnlyURL, src: script("minimal", "dom", minimalDone, "{}"), minimal: true})
	}
	// -compare: the other build at the permalink, in the same rounds (a diagnosis: not in the summary)
	var other *form
	if b.compareURL != "" {
		other = &form{label: "-compare " + b.compare + " at the permalink, until the YAML is shown", file: "compare", url: b.compareURL + "#" + fragment, src: scriptLink("dom", done, renderArg)}
		forms = append(forms, other)
	}
	check, err := b.checkThrottle(prof)
	if err != nil {
		return err
	}
	loadBefore := loadAverage()
	b.network = &prof
	defer func() { b.network = nil }()
	for i := 0; i < n; i++ {
		for k := range forms {
			f := forms[(i+k)%len(forms)]
			r, err := b.load(f.url, f.src)
			if err != nil {
				return err
			}
			if !r.TimedIn {
				return fmt.Errorf("throttled cold load %d of %s did not finish within %v (page says: %q; console: %q)", i+1, f.url, b.timeout, r.Boot, r.Console)
			}
			if r.Error != "" {
				return fmt.Errorf("throttled cold load %d of %s: %s", i+1, f.url, r.Error)
			}
			f.res = append(f.res, r)
			if b.netLog && b.lastNet != nil {
				done := "-"
				if r.Done != nil {
					done = fmt.Sprintf("%.0f ms", *r.Done)
				}
				marks := make([]string, 0, len(r.Marks))
				for k, v := range r.Marks {
					marks = append(marks, fmt.Sprintf("%s %.0f", k, v))
				}
				sort.Strings(marks)
				fmt.Printf("  round %d, %s: done %s; marks %v\n", i+1, f.label, done, marks)
				fmt.Print(b.lastNet.report(f.label))
			}
		}
	}
	if b.chromeTrace != "" {
		// Diagnosis: one more load of each page under the same emulation, traced, not counted.
		fmt.Println("CPU time of one traced throttled load of each page (-chrome-trace, FILE.throttled.*):")
		for _, f := range forms {
			file := b.chromeTrace + ".throttled." + f.file
			if _, err := b.loadTraced(f.url, f.src, file); err != nil {
				return err
			}
			_, text := loadCPU(file, f.label)
			fmt.Print(text)
			if b.netLog && b.lastNet != nil {
				fmt.Print(b.lastNet.report(f.label + " (traced)"))
			}
		}
	}
	done2 := func(r loadResult) *float64 { return r.Done }
	fmt.Printf("\nfirst rendered claim over an emulated network (-throttle): %d cold loads each, the pages' order rotating,\n", n)
	fmt.Printf("  %s\n", prof)
	fmt.Printf("  (Chromium's Network.emulateNetworkConditions: request-level, no handshakes or slow start: a lower bound on\n")
	fmt.Printf("  that network's cost); load average %s before, %s after; milliseconds from navigation start (median [min..max])\n", loadBefore, loadAverage())
	fmt.Print(check)
	for _, f := range forms {
		fmt.Printf("  %s\n", f.label)
		what := "page awaited the global"
		if !f.minimal {
			what = "YAML shown (first rendered claim)"
		}
		printLoads(f.res, what)
		if body := pick(f.res, func(r loadResult) *float64 { return r.WasmBody }); len(body) > 0 {
			fmt.Printf("    %-34s %8.1f ms: its wasm's %.0f B at %.2f Mbit/s + %.0f ms latency (measured: first byte → last %.1f ms)\n", "wasm download at the emulated rate", median(body)/prof.Down*1000+prof.Latency, median(body), mbit(prof.Down), prof.Latency,
				median(pick(f.res, func(r loadResult) *float64 {
					if r.Wasm == nil || r.WasmFirstByte == nil {
						return nil
					}
					d := *r.Wasm - *r.WasmFirstByte
					return &d
				})))
		}
	}
	site := median(pick(forms[0].res, done2))
	var parts []string
	for _, f := range forms[1:] {
		if !f.minimal {
			continue
		}
		m := median(pick(f.res, done2))
		fmt.Printf("  ratio fitclaim / %s: %.2fx (paired by round: %s)\n", strings.TrimPrefix(f.label, "minimal Go wasm page, "), site/m, pairedRatios(forms[0].res, f.res))
		if other != nil {
			fmt.Printf("  -compare: ratio to the minimal Go wasm %s: %.2fx\n", strings.TrimPrefix(f.label, "minimal Go wasm page, "), median(pick(other.res, done2))/m)
		}
		if f.url == b.streamOnlyURL {
			continue // a diagnosis: not in the summary
		}
		parts = append(parts, fmt.Sprintf("%s %.0f ms, ratio %.2fx", strings.TrimPrefix(f.label, "minimal Go wasm page, "), m, site/m))
	}
	if other != nil {
		fmt.Printf("  ratio -dist / -compare at the permalink: %.2fx (paired by round: %s)\n", site/median(pick(other.res, done2)), pairedRatios(forms[0].res, other.res))
		if untilDrawn {
			fmt.Printf("  the rest at the permalink, ratio -dist / -compare: %s (medians); paired by round: %s\n", drawnRatio(forms[0].res, other.res), pairedDrawn(forms[0].res, other.res))
		}
	}
	if len(parts) == 0 {
		b.note("%-44s %.0f ms median of %d cold loads", "first claim, "+prof.Name+" network", site, n)
		return nil
	}
	b.note("%-44s %.0f ms median of %d cold loads (%.0f ms, %.0f kbit/s); minimal Go wasm %s", "first claim, "+prof.Name+" network", site, n,
		prof.Latency, prof.Down*8/1024, strings.Join(parts, "; "))
	return nil
}

// checkThrottle measures what the emulation does to responses of known sizes, on loopback, in a
// fresh Chromium emulating prof: one after another, 512 KiB and 2 MiB of random bytes (nothing
// to compress), 2 MiB of zeros sent gzip-encoded (a few KB over the wire) and 2 MiB of random hex
// digits sent gzip-encoded (about half over the wire); and the minimal page's wasm fetched whole,
// raw and brotli (the -minimal-compressed copy), without the page's streamed compile. Each one's first
// byte → last against its size at the emulated rate says whether the limit holds, and whether it
// is on the bytes over the wire (the encoded body) or the decoded ones.
func (b *bench) checkThrottle(prof netProfile) (string, error) {
	const small, big = 512 << 10, 2 << 20
	random := make([]byte, big)
	rand.NewChaCha8([32]byte{1}).Read(random)
	gzipped := func(b []byte) []byte {
		var gz bytes.Buffer
		w, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		w.Write(b)
		w.Close()
		return gz.Bytes()
	}
	hex := make([]byte, big) // random hex digits: gzip halves them, as it does a wasm
	for i := range hex {
		hex[i] = "0123456789abcdef"[random[i]&15]
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, "<!doctype html><title>throttle check</title>")
	})
	blob := func(body []byte, enc string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Header().Set("Cache-Control", "no-store")
			if enc != "" {
				w.Header().Set("Content-Encoding", enc)
			}
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
			w.Write(body)
		}
	}
	mux.HandleFunc("/small", blob(random[:small], ""))
	mux.HandleFunc("/big", blob(random, ""))
	mux.HandleFunc("/zeros", blob(gzipped(make([]byte, big)), "gzip"))
	mux.HandleFunc("/hex", blob(gzipped(hex), "gzip"))
	paths := []string{"/small", "/big", "/zeros", "/hex"}
	// The minimal page's wasm as the two forms send it, fetched whole (no compile): the
	// emulation's rate for a brotli body, beside the page's own streamed read of it.
	if b.minimalBrDir != "" {
		wasm, _ := filepath.Glob(filepath.Join(b.minimalBrDir, "*.wasm"))
		if len(wasm) > 0 {
			raw, err1 := os.ReadFile(wasm[0])
			br, err2 := os.ReadFile(wasm[0] + ".br")
			if err1 == nil {
				mux.HandleFunc("/wasm-raw", blob(raw, ""))
				paths = append(paths, "/wasm-raw")
			}
			if err2 == nil {
				mux.HandleFunc("/wasm-br", blob(br, "br"))
				paths = append(paths, "/wasm-br")
			}
		}
	}
	u, stop, err := serve(mux, false)
	if err != nil {
		return "", err
	}
	defer stop()
	ctx, stopBrowser, err := b.browser(b.root)
	if err != nil {
		return "", err
	}
	defer stopBrowser()
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	type entry struct {
		Name                       string
		Start, FirstByte, End      float64
		Encoded, Decoded, Transfer float64
	}
	var got []entry
	js := `(async () => {
	  const out = [];
	  for (const p of PATHS) {
	    const u = new URL(p, location.href).href;
	    await (await fetch(u)).arrayBuffer();
	    const e = performance.getEntriesByName(u).pop();
	    out.push({ name: p, start: e.requestStart, firstByte: e.responseStart, end: e.responseEnd, encoded: e.encodedBodySize, decoded: e.decodedBodySize, transfer: e.transferSize });
	  }
	  return out;
	})()`
	list, _ := json.Marshal(paths)
	js = strings.Replace(js, "PATHS", string(list), 1)
	if err := chromedp.Run(ctx, network.SetCacheDisabled(true), prof.emulate(), chromedp.Navigate(u+"/"),
		chromedp.Evaluate(js, &got, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) })); err != nil {
		return "", fmt.Errorf("the throttle check: %w", err)
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "  the emulation's check (responses of known size, one after another, in one page; first byte → last against the size at %.2f Mbit/s):\n", mbit(prof.Down))
	var d [3]float64
	for i, e := range got {
		if i < len(d) {
			d[i] = e.End - e.FirstByte
		}
		fmt.Fprintf(&sb, "    %-7s %8.0f B over the wire (%8.0f B decoded): request → first byte %6.1f ms, first byte → last %7.1f ms (the size at the rate: %7.1f ms)\n",
			e.Name, e.Encoded, e.Decoded, e.FirstByte-e.Start, e.End-e.FirstByte, e.Encoded/prof.Down*1000)
	}
	if len(got) >= 2 && d[1] > d[0] {
		fmt.Fprintf(&sb, "    the rate between the two random bodies' sizes: %.2f Mbit/s (of %.2f emulated); the latency comes after the first byte\n", (got[1].Encoded-got[0].Encoded)*8/1e6/((d[1]-d[0])/1000), mbit(prof.Down))
	}
	return sb.String(), nil
}
