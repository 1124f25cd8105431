// Command bench is a bounded load run on loopback: the same requests, a fixed number at a fixed
// concurrency, sent to the edge worker in workerd (-edge) and to the same handler (edge/api)
// served by net/http in this process, with requests per second, p50/p99 latency, errors and
// the ratio. It talks to 127.0.0.1 only and refuses any other address. edge/bench.sh runs it.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"os"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/edge/api"
)

type result struct {
	name     string
	n        int
	errs     int64
	firstErr string
	elapsed  time.Duration
	lat      []time.Duration
}

func (r result) rps() float64 { return float64(r.n) / r.elapsed.Seconds() }

func (r result) pct(p float64) time.Duration {
	if len(r.lat) == 0 {
		return 0
	}
	i := int(p * float64(len(r.lat)-1))
	return r.lat[i]
}

func main() {
	edge := flag.String("edge", "", "base URL of the worker in workerd, e.g. http://127.0.0.1:8787 (loopback only)")
	n := flag.Int("n", 2000, "requests per server")
	c := flag.Int("c", 16, "concurrent requests")
	warm := flag.Int("warm", 200, "warm-up requests per server, not counted (V8 tiers the wasm up meanwhile)")
	limit := flag.Duration("timeout", 5*time.Minute, "stop the whole run after this long")
	flag.Parse()
	if *n < 1 || *c < 1 || *n > 100000 || *c > 256 {
		fail("need 1 <= -n <= 100000 and 1 <= -c <= 256")
	}
	ctx, cancel := context.WithTimeout(context.Background(), *limit)
	defer cancel()

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fail(err.Error())
	}
	srv := &http.Server{Handler: api.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()
	native := "http://" + ln.Addr().String()

	paths, want, err := workload(native)
	if err != nil {
		fail("workload: " + err.Error())
	}
	fmt.Printf("workload: %d requests per server, %d concurrent, cycling %d GET routes:\n", *n, *c, len(paths))
	for _, p := range paths {
		fmt.Printf("  %s\n", p)
	}

	var results []result
	if *edge != "" {
		if err := loopbackOnly(*edge); err != nil {
			fail(err.Error())
		}
		results = append(results, run(ctx, "workerd (edge worker, wasm)", *edge, paths, want, *n, *c, *warm))
	}
	results = append(results, run(ctx, "net/http (native Go)", native, paths, want, *n, *c, *warm))

	fmt.Printf("\n%-30s %8s %7s %10s %10s %10s %10s\n", "server", "requests", "errors", "req/s", "p50", "p99", "max")
	failed := false
	for _, r := range results {
		fmt.Printf("%-30s %8d %7d %10.1f %10s %10s %10s\n", r.name, r.n, r.errs, r.rps(),
			r.pct(0.50).Round(10*time.Microsecond), r.pct(0.99).Round(10*time.Microsecond), r.pct(1).Round(10*time.Microsecond))
		if r.errs > 0 {
			failed = true
			fmt.Printf("  first error: %s\n", r.firstErr)
		}
	}
	if len(results) == 2 {
		e, nat := results[0], results[1]
		fmt.Printf("\nratio native/workerd: throughput %.1fx, p50 latency %.1fx, p99 latency %.1fx\n",
			nat.rps()/e.rps(), float64(e.pct(0.5))/float64(nat.pct(0.5)), float64(e.pct(0.99))/float64(nat.pct(0.99)))
	}
	if failed || ctx.Err() != nil {
		if ctx.Err() != nil {
			fmt.Println("run stopped by -timeout")
		}
		os.Exit(1)
	}
}

// workload is the request mix, with each answer fetched once from the native handler: every
// timed answer must equal it byte for byte.
func workload(native string) ([]string, map[string]string, error) {
	models := claim.SearchModels("qwen2.5 7b", 1)
	if len(models) == 0 {
		return nil, nil, errors.New("no model found for qwen2.5 7b")
	}
	m := "m=" + url.QueryEscape(models[0].Name)
	paths := []string{
		"/api/v1/claim.yaml?" + m,
		"/api/v1/claim.json?" + m + "&tps=40&drv=nvidia",
		"/api/v1/claim.yaml?" + m + "&s=kv&ctx=32768&seq=4",
		"/api/v1/models?q=llama&limit=10",
		"/api/v1/version",
	}
	want := map[string]string{}
	for _, p := range paths {
		res, err := http.Get(native + p)
		if err != nil {
			return nil, nil, err
		}
		b, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			return nil, nil, err
		}
		if res.StatusCode != 200 {
			return nil, nil, fmt.Errorf("%s: %d %s", p, res.StatusCode, b)
		}
		want[p] = string(b)
	}
	return paths, want, nil
}

func run(ctx context.Context, name, base string, paths []string, want map[string]string, n, c, warm int) result {
	client := &http.Client{
		Timeout:   30 * time.Second,
		Transport: &http.Transport{MaxIdleConnsPerHost: c, MaxConnsPerHost: c, DisableCompression: true},
	}
	defer client.CloseIdleConnections()
	one := func(p string) (time.Duration, string, error) {
		var conn string
		trace := &httptrace.ClientTrace{
			GotConn: func(i httptrace.GotConnInfo) {
				conn = "new connection " + i.Conn.LocalAddr().String()
				if i.Reused {
					conn = "reused connection " + i.Conn.LocalAddr().String()
				}
			},
			WroteRequest: func(httptrace.WroteRequestInfo) { conn += ", request written" },
		}
		req, err := http.NewRequestWithContext(httptrace.WithClientTrace(ctx, trace), "GET", base+p, nil)
		if err != nil {
			return 0, "", err
		}
		start := time.Now()
		res, err := client.Do(req)
		if err != nil {
			// a timeout counts in the latencies too
			return time.Since(start), conn, fmt.Errorf("%w (%s)", err, conn)
		}
		b, err := io.ReadAll(res.Body)
		res.Body.Close()
		d := time.Since(start)
		switch {
		case err != nil:
			return d, conn, err
		case res.StatusCode != 200:
			return d, conn, fmt.Errorf("%s: status %d", p, res.StatusCode)
		case string(b) != want[p]:
			return d, conn, fmt.Errorf("%s: body differs from the native handler's", p)
		}
		return d, conn, nil
	}
	// The warm-up runs at the same concurrency, so the timed run reuses warm connections and
	// the runtime has compiled its hot code.
	var wwg sync.WaitGroup
	var wnext atomic.Int64
	for w := 0; w < c; w++ {
		wwg.Add(1)
		go func() {
			defer wwg.Done()
			for i := int(wnext.Add(1)) - 1; i < warm && ctx.Err() == nil; i = int(wnext.Add(1)) - 1 {
				one(paths[i%len(paths)])
			}
		}()
	}
	wwg.Wait()

	r := result{name: name, n: n, lat: make([]time.Duration, n)}
	conns := make([]string, n)
	var next atomic.Int64
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := time.Now()
	for w := 0; w < c; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n || ctx.Err() != nil {
					return
				}
				d, conn, err := one(paths[i%len(paths)])
				r.lat[i], conns[i] = d, conn
				if err != nil {
					if k := atomic.AddInt64(&r.errs, 1); k <= 5 {
						at := time.Since(start) - d
						mu.Lock()
						if k == 1 {
							r.firstErr = err.Error()
						}
						fmt.Fprintf(os.Stderr, "bench: %s: request %d (sent %.1fs into the run) failed after %v: %v\n", name, i, at.Seconds(), d.Round(time.Millisecond), err)
						mu.Unlock()
					}
				}
			}
		}()
	}
	wg.Wait()
	r.elapsed = time.Since(start)
	slowest := 0
	for i := range r.lat {
		if r.lat[i] > r.lat[slowest] {
			slowest = i
		}
	}
	fmt.Fprintf(os.Stderr, "bench: %s: slowest request %d (%s), %v, %s\n", name, slowest, paths[slowest%len(paths)], r.lat[slowest].Round(time.Millisecond), conns[slowest])
	sort.Slice(r.lat, func(a, b int) bool { return r.lat[a] < r.lat[b] })
	return r
}

func loopbackOnly(base string) error {
	u, err := url.Parse(base)
	if err != nil {
		return err
	}
	host := u.Hostname()
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("-edge %s: only loopback addresses (127.0.0.0/8, ::1, localhost) are allowed", base)
}

func fail(msg string) {
	fmt.Fprintln(os.Stderr, "bench:", msg)
	os.Exit(2)
}
