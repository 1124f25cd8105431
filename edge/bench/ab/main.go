// Command ab compares builds of the edge worker, each running in a workerd of its own, on the
// edge bench's request mix (edge/bench/mix): after a warm-up of each, it sends rounds of -n
// requests at concurrency -c to each build in turn, alternating, and prints per build the
// workerd process's CPU time per request (user + system time, /proc/<pid>/stat) and its
// requests/s, the lowest and the median over the rounds. Alternating rounds lets a shared,
// busy machine's load fall on every build alike: a change of a few per cent in CPU time per
// request shows here, where one edge/bench.sh run beside another does not. Every answer must
// be 200 with the first build's bytes. run.sh starts the workerds. -paths=NAME=P1,P2 sends
// that build those paths instead of the mix (e.g. the worker on /api/v1/version alone: the fixed
// cost of a call into Go with almost no API work; edge/README.md's eighth session); such a build's
// answers are checked against its own first answers.
// Usage: ab [-n 1000] [-c 8] [-rounds 7] [-warm 5000] [-check=false] [-paths=NAME=P,P ...] NAME=URL@PID ...
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fitclaim/fitclaim/edge/bench/mix"
)

type build struct {
	name, base string
	pid        int
	paths      []string // the mix, or this build's own (-paths)
	want       [][]byte // the answers it must give, or nil
	client     *http.Client
	cpu, rps   []float64 // per round: µs of CPU per request, requests/s
}

func main() {
	n := flag.Int("n", 1000, "requests per round")
	c := flag.Int("c", 8, "concurrent requests")
	rounds := flag.Int("rounds", 7, "rounds per build, alternating")
	warm := flag.Int("warm", 5000, "warm-up requests per build (V8 tiers the wasm up meanwhile: edge/bench/main.go says how long that takes)")
	check := flag.Bool("check", true, "require every build's answers to be the first build's bytes (false: any 200, for stubs that measure a part)")
	own := map[string][]string{}
	flag.Func("paths", "NAME=P1,P2...: the paths sent to build NAME instead of the mix (repeatable)", func(v string) error {
		name, list, ok := strings.Cut(v, "=")
		if !ok || list == "" {
			return fmt.Errorf("want NAME=PATH,PATH")
		}
		own[name] = strings.Split(list, ",")
		return nil
	})
	flag.Parse()
	paths, err := mix.Paths()
	if err != nil {
		fail(err)
	}
	var builds []*build
	for _, arg := range flag.Args() {
		name, rest, ok1 := strings.Cut(arg, "=")
		base, pidText, ok2 := strings.Cut(rest, "@")
		pid, err := strconv.Atoi(pidText)
		if !ok1 || !ok2 || err != nil || !strings.HasPrefix(base, "http://127.0.0.1:") {
			fail(fmt.Errorf("%q: want NAME=http://127.0.0.1:PORT@PID", arg))
		}
		builds = append(builds, &build{name: name, base: base, pid: pid, client: &http.Client{
			Timeout:   30 * time.Second,
			Transport: &http.Transport{MaxIdleConnsPerHost: *c, MaxConnsPerHost: *c, DisableCompression: true},
		}})
	}
	if len(builds) == 0 {
		fail(fmt.Errorf("no builds given"))
	}
	answers := func(b *build, paths []string) [][]byte {
		want := make([][]byte, len(paths))
		for i, p := range paths {
			if want[i], err = get(b.client, b.base+p); err != nil {
				fail(err)
			}
		}
		return want
	}
	var mixWant [][]byte
	if *check {
		mixWant = answers(builds[0], paths)
	}
	for _, b := range builds {
		b.paths, b.want = paths, mixWant
		if p, ok := own[b.name]; ok {
			b.paths = p
			b.want = answers(b, p)
			if !*check {
				b.want = nil
			}
		}
	}
	for _, b := range builds {
		if _, err := load(b, b.paths, b.want, *warm, *c); err != nil {
			fail(err)
		}
	}
	for r := 0; r < *rounds; r++ {
		for _, b := range builds {
			cpu0, err := processCPU(b.pid)
			if err != nil {
				fail(err)
			}
			elapsed, err := load(b, b.paths, b.want, *n, *c)
			if err != nil {
				fail(err)
			}
			cpu1, _ := processCPU(b.pid)
			b.cpu = append(b.cpu, float64(cpu1-cpu0)/float64(time.Microsecond)/float64(*n))
			b.rps = append(b.rps, float64(*n)/elapsed.Seconds())
		}
	}
	load, _ := os.ReadFile("/proc/loadavg")
	fmt.Printf("%d rounds of %d requests at concurrency %d per build, alternating; load %s\n", *rounds, *n, *c, strings.Join(strings.Fields(string(load))[:3], " "))
	fmt.Printf("%-24s %22s %22s %18s\n", "build", "CPU µs/request min/med", "req/s max/med", "CPU ÷ first, med")
	// The ratio of a build's CPU time per request to the first build's in the same round (the
	// rounds next to each other, so under the same load), median over the rounds: steadier on a
	// shared machine than the ratio of the two medians.
	ratios := make([][]float64, len(builds))
	for i, b := range builds {
		for r := range b.cpu {
			ratios[i] = append(ratios[i], b.cpu[r]/builds[0].cpu[r])
		}
		slices.Sort(ratios[i])
	}
	for i, b := range builds {
		slices.Sort(b.cpu)
		slices.Sort(b.rps)
		fmt.Printf("%-24s %10.0f /%9.0f %10.0f /%9.0f %17.3fx\n", b.name, b.cpu[0], b.cpu[len(b.cpu)/2], b.rps[len(b.rps)-1], b.rps[len(b.rps)/2], ratios[i][len(ratios[i])/2])
	}
}

// load sends n requests of the mix at concurrency c and checks every answer.
func load(b *build, paths []string, want [][]byte, n, c int) (time.Duration, error) {
	var next atomic.Int64
	var first error
	var once sync.Once
	var wg sync.WaitGroup
	start := time.Now()
	for range c {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				k := i % len(paths)
				body, err := get(b.client, b.base+paths[k])
				if err == nil && want != nil && !bytes.Equal(body, want[k]) {
					err = fmt.Errorf("%s %s: not the first build's answer", b.name, paths[k])
				}
				if err != nil {
					once.Do(func() { first = err })
					return
				}
			}
		}()
	}
	wg.Wait()
	return time.Since(start), first
}

func get(client *http.Client, url string) ([]byte, error) {
	res, err := client.Get(url)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err == nil && res.StatusCode != http.StatusOK {
		err = fmt.Errorf("%s: %s", url, res.Status)
	}
	return body, err
}

// processCPU is a process's user + system time (/proc/<pid>/stat, in clock ticks of 10 ms).
func processCPU(pid int) (time.Duration, error) {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	_, rest, _ := strings.Cut(string(stat), ") ")
	f := strings.Fields(rest)
	user, err1 := strconv.ParseInt(f[11], 10, 64)
	sys, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("/proc/%d/stat: unreadable", pid)
	}
	return time.Duration(user+sys) * 10 * time.Millisecond, nil
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "ab:", err)
	os.Exit(1)
}
