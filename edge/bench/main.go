// Command bench is a bounded load run on loopback: the same requests sent to the edge worker in
// workerd (-edge) and to the same handler (edge/api) served by net/http, in two phases: -n
// requests at concurrency -c (throughput) and -seq requests one at a time (latency alone). It
// prints requests per second, p50/p99 latency and errors side by side, the ratio
// workerd/net/http, and workerd's CPU time per request beside the Workers free plan's 10 ms
// budget. workerd runs a worker's isolate on one thread, so edge/bench.sh starts one workerd
// process per core (-edge lists them, each on a port of its own; each connection of the
// client goes to the next process in turn, as a load balancer would spread them), and net/http
// runs as it comes, on every core: the headline ratio is between those two. The per-core
// ratio is one workerd process (one more, the first of -edge) against net/http with
// GOMAXPROCS=1, each in a run of its own. It talks to 127.0.0.1 only and refuses any other address. edge/bench.sh runs
// it.
//
// CPU time is each server process's own accounting by the kernel: user + system time of all
// its threads (/proc/<pid>/stat) over a phase, divided by the requests of the phase. The
// native server runs in a child process (this program with -serve-native) so that the client's
// CPU time is not counted in it. For workerd (-edge-pid) it is an upper bound of what
// Cloudflare bills: it also counts workerd's HTTP parsing, its event loop and V8's garbage
// collection, which Cloudflare does not charge to the worker.
package main

import (
	"bufio"
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
	"os/exec"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fitclaim/fitclaim/edge/api"
	"github.com/fitclaim/fitclaim/edge/bench/mix"
)

// freePlanCPU is the CPU time a request may use on the Workers free plan
// (https://developers.cloudflare.com/workers/platform/limits/#cpu-time: 10 ms).
const freePlanCPU = 10 * time.Millisecond

// Targets of issue 10, printed beside the figures (a slow shared machine must not fail the run).
const (
	targetRatio = 0.5                  // workerd throughput / net/http's at concurrency 8
	targetP50   = 5 * time.Millisecond // "a few milliseconds" for a request alone
)

type result struct {
	n        int
	errs     int64
	firstErr string
	elapsed  time.Duration
	lat      []time.Duration
	cpu      time.Duration // the server process's CPU time over the phase; 0 when unknown
}

func (r result) rps() float64 { return float64(r.n) / r.elapsed.Seconds() }

func (r result) pct(p float64) time.Duration {
	if len(r.lat) == 0 {
		return 0
	}
	i := int(p * float64(len(r.lat)-1))
	return r.lat[i]
}

func (r result) cpuPerRequest() time.Duration { return r.cpu / time.Duration(r.n) }

type server struct {
	name string
	base string
	pids []int // its processes, for CPU time (none: not measured)
	// spread, when it holds more than one host:port, is where the client's connections go,
	// each to the next in turn (workerd processes serving the same build); base's host is
	// then only the requests' Host.
	spread []string
}

func main() {
	edge := flag.String("edge", "", "base URL of the worker in workerd, e.g. http://127.0.0.1:8787 (loopback only); several, comma-separated, for workerd processes serving the same build: the first is timed alone (per core), the others together")
	edgePID := flag.String("edge-pid", "", "workerd's process ids, comma-separated in -edge's order, for their CPU time (/proc/<pid>/stat)")
	floor := flag.String("floor", "", "base URL of a workerd serving a JS worker that answers \"ok\" (edge/bench/floor; loopback only)")
	floorPID := flag.Int("floor-pid", 0, "that workerd's process id")
	n := flag.Int("n", 2000, "requests per server at concurrency -c")
	c := flag.Int("c", 8, "concurrent requests")
	seq := flag.Int("seq", 300, "requests per server one at a time (0: skip)")
	// V8 compiles the wasm with its baseline compiler first and optimises hot functions in the
	// background as they run (dynamic tiering: a function is optimised once it has run enough).
	// Over the mix one workerd process costs, per request of each 750 in turn from its start,
	// 960, 600, 600, 427 µs of CPU, then 240-370 from the 3,000th on, as much as with every
	// function optimised up front (V8's --no-liftoff: 213-307 µs over the same rounds; load
	// 9-11, edge/README.md). With 1,500 a process, the headline run (1,000 a process after the
	// warm-up) timed the isolates while V8 was still optimising them. The timed phases measure
	// the steady state of a long-lived isolate.
	warm := flag.Int("warm", 5000, "warm-up requests per server (per workerd process), not counted (V8 tiers the wasm up meanwhile)")
	limit := flag.Duration("timeout", 5*time.Minute, "stop the whole run after this long")
	serveNative := flag.Bool("serve-native", false, "internal: serve edge/api on a loopback port, print its address, stop when stdin closes")
	printMix := flag.Bool("print-mix", false, "print the request mix, one path a line, and stop (edge/bench/glue/run.sh)")
	flag.Parse()
	if *serveNative {
		serve()
		return
	}
	if *printMix {
		paths, err := mix.Paths()
		if err != nil {
			fail("mix: " + err.Error())
		}
		fmt.Println(strings.Join(paths, "\n"))
		return
	}
	if *n < 1 || *c < 1 || *n > 100000 || *c > 256 || *seq < 0 || *seq > 100000 {
		fail("need 1 <= -n <= 100000, 1 <= -c <= 256 and 0 <= -seq <= 100000")
	}
	ctx, cancel := context.WithTimeout(context.Background(), *limit)
	defer cancel()

	native, nativePID, stop, err := startNative(0)
	if err != nil {
		fail("starting the native server: " + err.Error())
	}
	defer stop()
	// The same handler again with one core: workerd runs a worker on one thread, so this is
	// the per-core comparison (the headline ratio stays the one against every core).
	native1, native1PID, stop1, err := startNative(1)
	if err != nil {
		stop()
		fail("starting the one-core native server: " + err.Error())
	}
	defer stop1()
	stopAll := func() { stop(); stop1() }

	paths, want, err := workload(native)
	if err != nil {
		fail("workload: " + err.Error())
	}
	fmt.Printf("workload: cycling %d GET routes; %d requests per server at concurrency %d, then %d one at a time:\n", len(paths), *n, *c, *seq)
	for _, p := range paths {
		fmt.Printf("  %s\n", p)
	}

	// The servers in the order they run; the indexes say which is which (-1: not run).
	var servers []server
	edgeAll, edgeOne := -1, -1
	if *edge != "" {
		bases := strings.Split(*edge, ",")
		var hosts []string
		for _, b := range bases {
			u, err := url.Parse(b)
			if err != nil {
				fail(err.Error())
			}
			if err := loopbackOnly(b); err != nil {
				fail(err.Error())
			}
			hosts = append(hosts, u.Host)
		}
		pids, err := parsePIDs(*edgePID)
		if err != nil {
			fail("-edge-pid: " + err.Error())
		}
		if len(pids) > 0 && len(pids) != len(bases) {
			fail(fmt.Sprintf("-edge-pid: %d process ids for %d -edge URLs", len(pids), len(bases)))
		}
		// The first process serves the per-core run alone; the others, when there are, the
		// headline run together (so each process has had the same warm-up when it is timed).
		if len(bases) > 1 {
			var rest []int
			if len(pids) > 0 {
				rest = pids[1:]
			}
			edgeAll = len(servers)
			servers = append(servers, server{fmt.Sprintf("workerd, %d processes", len(bases)-1), bases[1], rest, hosts[1:]})
		}
		edgeOne = len(servers)
		servers = append(servers, server{"workerd, 1 process", bases[0], pids[:min(1, len(pids))], nil})
	}
	iNat, iOne := len(servers), len(servers)+1
	servers = append(servers,
		server{"net/http (native Go)", native, []int{nativePID}, nil},
		server{"net/http GOMAXPROCS=1", native1, []int{native1PID}, nil})

	// Warm-up, then the phases server by server: the same connections (c of them) stay open
	// from the warm-up to the end. Every workerd process gets -warm requests (V8 tiers up each
	// isolate on its own). A request alone is the same for one process or several: the
	// several are measured at concurrency c only.
	clients := make([]*http.Client, len(servers))
	for i, s := range servers {
		clients[i] = newClient(*c, s.spread)
		defer clients[i].CloseIdleConnections()
		run(ctx, s, clients[i], paths, want, *warm*max(1, len(s.spread)), *c)
	}
	conc := make([]result, len(servers))
	alone := make([]result, len(servers))
	for i, s := range servers {
		conc[i] = run(ctx, s, clients[i], paths, want, *n, *c)
	}
	if *seq > 0 {
		for i, s := range servers {
			if i != edgeAll {
				alone[i] = run(ctx, s, clients[i], paths, want, *seq, 1)
			}
		}
	}

	failed := false
	report := func(title string, rs []result) {
		fmt.Printf("\n%s\n%-30s %8s %7s %10s %10s %10s %10s %12s\n", title, "server", "requests", "errors", "req/s", "p50", "p99", "max", "CPU/request")
		for i, r := range rs {
			if r.n == 0 {
				continue
			}
			cpu := "-"
			if r.cpu > 0 {
				cpu = ms(r.cpuPerRequest())
			}
			fmt.Printf("%-30s %8d %7d %10.1f %10s %10s %10s %12s\n", servers[i].name, r.n, r.errs, r.rps(),
				ms(r.pct(0.50)), ms(r.pct(0.99)), ms(r.pct(1)), cpu)
			if r.errs > 0 {
				failed = true
				fmt.Printf("  first error: %s\n", r.firstErr)
			}
		}
	}
	report(fmt.Sprintf("concurrency %d:", *c), conc)
	if *seq > 0 {
		report("one at a time:", alone)
	}

	if edgeOne >= 0 {
		all := edgeOne // the headline: every workerd process there is against net/http on every core
		if edgeAll >= 0 {
			all = edgeAll
		}
		e, e1, nat, one := conc[all], conc[edgeOne], conc[iNat], conc[iOne]
		ratio := e.rps() / nat.rps()
		fmt.Printf("\nthroughput workerd/net/http at concurrency %d: %.2fx (target >= %.1fx: %s): %s, %.0f req/s, against net/http on all %d cores, %.0f req/s\n",
			*c, ratio, targetRatio, met(ratio >= targetRatio), servers[all].name, e.rps(), runtime.NumCPU(), nat.rps())
		fmt.Printf("  per core: one workerd process against net/http with GOMAXPROCS=1 (its own process): %.2fx (%.0f vs %.0f req/s);\n", e1.rps()/one.rps(), e1.rps(), one.rps())
		fmt.Printf("  workerd runs an isolate on one thread: edge/bench.sh starts a process per core (EDGE_PROCS); this client shares the %d cores\n", runtime.NumCPU())
		if *seq > 0 {
			p50 := alone[edgeOne].pct(0.5)
			fmt.Printf("workerd p50 one at a time: %s (target <= %s: %s); net/http %s\n", ms(p50), ms(targetP50), met(p50 <= targetP50), ms(alone[iNat].pct(0.5)))
		}
		var errs int64
		for i := range servers {
			errs += conc[i].errs + alone[i].errs
		}
		fmt.Printf("errors: %d (target 0: %s)\n", errs, met(errs == 0))
		if e.cpu > 0 {
			line := fmt.Sprintf("workerd CPU time per request: %s at concurrency %d", ms(e.cpuPerRequest()), *c)
			if all != edgeOne && e1.cpu > 0 {
				line += fmt.Sprintf(" (one process alone: %s)", ms(e1.cpuPerRequest()))
			}
			if *seq > 0 && alone[edgeOne].cpu > 0 {
				line += fmt.Sprintf(", %s one at a time", ms(alone[edgeOne].cpuPerRequest()))
			}
			worst := max(e.cpuPerRequest(), e1.cpuPerRequest(), alone[edgeOne].cpuPerRequest())
			fmt.Printf("%s; Workers free plan budget %s per request (%s)\n", line, ms(freePlanCPU), met(worst <= freePlanCPU))
			fmt.Println("  (CPU time = user + system time of all of workerd's threads over the phase, from /proc/<pid>/stat,")
			fmt.Println("   divided by its requests: it includes workerd's HTTP handling and V8's GC, so it is an upper bound)")
			if nat.cpu > 0 && one.cpu > 0 {
				// Throughput on a busy machine depends on how the scheduler shares the cores;
				// CPU time per request does not, so this ratio says what the code costs.
				fmt.Printf("CPU time per request at concurrency %d, workerd/net/http (its own process): %.1fx (%s vs %s; GOMAXPROCS=1: %s)\n",
					*c, float64(e.cpuPerRequest())/float64(nat.cpuPerRequest()), ms(e.cpuPerRequest()), ms(nat.cpuPerRequest()), ms(one.cpuPerRequest()))
			}
		} else if *edge != "" {
			fmt.Println("workerd CPU time per request: not measured (no -edge-pid, or no /proc)")
		}
	}
	if *floor != "" {
		if err := loopbackOnly(*floor); err != nil {
			fail(err.Error())
		}
		// The floor last, with a client of its own: what workerd serves with no Go at all.
		s := server{"workerd floor (JS \"ok\")", *floor, []int{*floorPID}, nil}
		client := newClient(*c, nil)
		ok := map[string]string{"/": "ok\n"}
		run(ctx, s, client, []string{"/"}, ok, *warm, *c)
		r := run(ctx, s, client, []string{"/"}, ok, *n, *c)
		client.CloseIdleConnections()
		cpu := "CPU time not measured"
		if r.cpu > 0 {
			cpu = ms(r.cpuPerRequest()) + " CPU time per request"
		}
		fmt.Printf("workerd's floor, a JS worker answering \"ok\" (no Go): %.0f req/s at concurrency %d, %s, %d errors\n", r.rps(), *c, cpu, r.errs)
		if r.errs > 0 {
			failed = true
		}
	}
	if failed || ctx.Err() != nil {
		if ctx.Err() != nil {
			fmt.Println("run stopped by -timeout")
		}
		stopAll() // os.Exit skips deferred calls
		os.Exit(1)
	}
}

// startNative runs this program with -serve-native as a child process and returns the URL it
// serves, its process id and a function that stops it. procs > 0 sets the child's GOMAXPROCS.
func startNative(procs int) (base string, pid int, stop func(), err error) {
	self, err := os.Executable()
	if err != nil {
		return "", 0, nil, err
	}
	cmd := exec.Command(self, "-serve-native")
	if procs > 0 {
		cmd.Env = append(os.Environ(), "GOMAXPROCS="+strconv.Itoa(procs))
	}
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return "", 0, nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", 0, nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", 0, nil, err
	}
	var once sync.Once
	stop = func() {
		once.Do(func() {
			in.Close() // the child exits when its stdin closes
			done := make(chan struct{})
			go func() { cmd.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				cmd.Process.Kill()
				<-done
			}
		})
	}
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		stop()
		return "", 0, nil, fmt.Errorf("no address from the child: %v", err)
	}
	return "http://" + strings.TrimSpace(addr), cmd.Process.Pid, stop, nil
}

// serve is the child of startNative: edge/api's handler in net/http on a free loopback port,
// until stdin closes.
func serve() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fail(err.Error())
	}
	fmt.Println(ln.Addr().String())
	go func() {
		io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}()
	srv := &http.Server{Handler: api.Handler(), ReadHeaderTimeout: 10 * time.Second}
	fail(srv.Serve(ln).Error())
}

func met(ok bool) string {
	if ok {
		return "met"
	}
	return "NOT met"
}

// ms prints a duration in milliseconds with two decimals.
func ms(d time.Duration) string { return strconv.FormatFloat(float64(d)/1e6, 'f', 2, 64) + " ms" }

// processesCPU is the CPU time of all of pids' processes (processCPU); an error for none.
func processesCPU(pids []int) (time.Duration, error) {
	var sum time.Duration
	for _, pid := range pids {
		if pid == 0 {
			return 0, errors.New("no process id")
		}
		t, err := processCPU(pid)
		if err != nil {
			return 0, err
		}
		sum += t
	}
	if len(pids) == 0 {
		return 0, errors.New("not measured")
	}
	return sum, nil
}

// parsePIDs reads a comma-separated list of process ids ("" is none).
func parsePIDs(s string) ([]int, error) {
	if s == "" {
		return nil, nil
	}
	var pids []int
	for _, f := range strings.Split(s, ",") {
		pid, err := strconv.Atoi(f)
		if err != nil || pid <= 0 {
			return nil, fmt.Errorf("%q is not a process id", f)
		}
		pids = append(pids, pid)
	}
	return pids, nil
}

// newClient is the bench's HTTP client: c connections at most, kept from request to request,
// no compression. With more than one address in spread, each new connection goes to the next
// of them in turn, whatever the request's URL says (the c connections spread evenly over the
// workerd processes).
func newClient(c int, spread []string) *http.Client {
	t := &http.Transport{MaxIdleConnsPerHost: c, MaxConnsPerHost: c, DisableCompression: true}
	if len(spread) > 1 {
		var next atomic.Int64
		var d net.Dialer
		t.DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
			return d.DialContext(ctx, network, spread[int(next.Add(1)-1)%len(spread)])
		}
	}
	return &http.Client{Timeout: 30 * time.Second, Transport: t}
}

// processCPU is the user + system CPU time of process pid and all its threads, from
// /proc/<pid>/stat (fields 14 and 15, in clock ticks of 1/100 s: USER_HZ is 100 on Linux).
func processCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	// The command name (field 2) is in parentheses and may hold spaces: count from after it.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, errors.New("/proc/" + strconv.Itoa(pid) + "/stat: no command name")
	}
	f := strings.Fields(s[i+1:]) // f[0] is field 3 (state), so field k is f[k-3]
	if len(f) < 13 {
		return 0, errors.New("/proc/" + strconv.Itoa(pid) + "/stat: too few fields")
	}
	var ticks int64
	for _, k := range []int{14, 15} {
		t, err := strconv.ParseInt(f[k-3], 10, 64)
		if err != nil {
			return 0, err
		}
		ticks += t
	}
	return time.Duration(ticks) * 10 * time.Millisecond, nil
}

// workload is the request mix: a fixed list of varied requests, as the page and the command
// line make them (several catalog models, both sizing modes, each format and route, a custom
// model, searches), cycled in order; there is no response cache anywhere, so every request is
// computed. Each answer is fetched once from the native handler first: every timed answer must
// equal it byte for byte.
func workload(native string) ([]string, map[string]string, error) {
	paths, err := mix.Paths()
	if err != nil {
		return nil, nil, err
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

// run sends n requests at concurrency c (cycling paths) with client and checks every answer
// against want.
func run(ctx context.Context, s server, client *http.Client, paths []string, want map[string]string, n, c int) result {
	if n == 0 {
		return result{}
	}
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
		req, err := http.NewRequestWithContext(httptrace.WithClientTrace(ctx, trace), "GET", s.base+p, nil)
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

	r := result{n: n, lat: make([]time.Duration, n)}
	conns := make([]string, n)
	var next atomic.Int64
	var mu sync.Mutex
	var wg sync.WaitGroup
	cpu0, cpuErr := processesCPU(s.pids)
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
						fmt.Fprintf(os.Stderr, "bench: %s: request %d (sent %.1fs into the run) failed after %v: %v\n", s.name, i, at.Seconds(), d.Round(time.Millisecond), err)
						mu.Unlock()
					}
				}
			}
		}()
	}
	wg.Wait()
	r.elapsed = time.Since(start)
	if cpuErr == nil {
		if cpu1, err := processesCPU(s.pids); err == nil {
			r.cpu = cpu1 - cpu0
		}
	}
	slowest := 0
	for i := range r.lat {
		if r.lat[i] > r.lat[slowest] {
			slowest = i
		}
	}
	fmt.Fprintf(os.Stderr, "bench: %s, %d requests at concurrency %d: slowest request %d (%s), %v, %s\n", s.name, n, c, slowest, paths[slowest%len(paths)], r.lat[slowest].Round(time.Millisecond), conns[slowest])
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
