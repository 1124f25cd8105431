package main

import (
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/chromedp/cdproto/network"
)

// netLog records CDP's Network events of one load (-network-log): every request, when it was
// sent, its priority, each chunk of its body as the page received it and when it finished, so
// what shares the emulated bandwidth with the wasm, and when, can be read off (a diagnosis).
type netLog struct {
	mu   sync.Mutex
	reqs map[network.RequestID]*netReq
	t0   float64 // the first request's timestamp (the document's), seconds
}

type netReq struct {
	url, typ, prio, initiator string
	sent, headers, finished   float64 // seconds (monotonic); 0: not seen
	chunks                    [][2]float64
	encoded                   float64
	fromCache                 bool
}

func newNetLog() *netLog { return &netLog{reqs: map[network.RequestID]*netReq{}} }

func (l *netLog) event(ev any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	get := func(id network.RequestID) *netReq {
		r := l.reqs[id]
		if r == nil {
			r = &netReq{}
			l.reqs[id] = r
		}
		return r
	}
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		r := get(ev.RequestID)
		r.url, r.typ = ev.Request.URL, string(ev.Type)
		r.prio = string(ev.Request.InitialPriority)
		if ev.Initiator != nil {
			r.initiator = string(ev.Initiator.Type)
		}
		if ev.Timestamp != nil {
			r.sent = float64(ev.Timestamp.Time().UnixNano()) / 1e9
			if l.t0 == 0 || r.sent < l.t0 {
				l.t0 = r.sent
			}
		}
	case *network.EventResourceChangedPriority:
		get(ev.RequestID).prio += "→" + string(ev.NewPriority)
	case *network.EventResponseReceived:
		r := get(ev.RequestID)
		if ev.Timestamp != nil {
			r.headers = float64(ev.Timestamp.Time().UnixNano()) / 1e9
		}
		if ev.Response != nil {
			r.fromCache = ev.Response.FromDiskCache || ev.Response.FromServiceWorker || ev.Response.FromPrefetchCache
		}
	case *network.EventDataReceived:
		r := get(ev.RequestID)
		if ev.Timestamp != nil {
			r.chunks = append(r.chunks, [2]float64{float64(ev.Timestamp.Time().UnixNano()) / 1e9, float64(ev.EncodedDataLength)})
		}
	case *network.EventLoadingFinished:
		r := get(ev.RequestID)
		if ev.Timestamp != nil {
			r.finished = float64(ev.Timestamp.Time().UnixNano()) / 1e9
		}
		r.encoded = ev.EncodedDataLength
	}
}

// report prints every request of the load, in the order sent (ms from the first request), and,
// for the first .wasm, the bytes the other requests received while its body came.
func (l *netLog) report(label string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var rs []*netReq
	for _, r := range l.reqs {
		if r.sent > 0 {
			rs = append(rs, r)
		}
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].sent < rs[j].sent })
	ms := func(t float64) string {
		if t == 0 {
			return "     -"
		}
		return fmt.Sprintf("%6.0f", (t-l.t0)*1000)
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "    network (-network-log) of %s: ms from the document's request; sent, headers, first and last body chunk, finished; bytes over the wire (chunks)\n", label)
	var wasm *netReq
	for _, r := range rs {
		first, last := 0.0, 0.0
		if len(r.chunks) > 0 {
			first, last = r.chunks[0][0], r.chunks[len(r.chunks)-1][0]
		}
		name := path.Base(strings.SplitN(strings.SplitN(r.url, "#", 2)[0], "?", 2)[0])
		if len(name) > 28 {
			name = name[:28]
		}
		c := ""
		if r.fromCache {
			c = " cache"
		}
		fmt.Fprintf(&sb, "      %-28s %-10s %-14s %s %s %s %s %s %9.0f B (%d)%s\n", name, r.typ, r.prio, ms(r.sent), ms(r.headers), ms(first), ms(last), ms(r.finished), r.encoded, len(r.chunks), c)
		if wasm == nil && strings.HasSuffix(name, ".wasm") {
			wasm = r
		}
	}
	if wasm != nil && len(wasm.chunks) > 1 {
		a, z := wasm.chunks[0][0], wasm.finished
		if z == 0 {
			z = wasm.chunks[len(wasm.chunks)-1][0]
		}
		other := 0.0
		var names []string
		for _, r := range rs {
			if r == wasm {
				continue
			}
			got := 0.0
			for _, c := range r.chunks {
				if c[0] >= a && c[0] <= z {
					got += c[1]
				}
			}
			if got > 0 {
				names = append(names, fmt.Sprintf("%s %.0f B", path.Base(r.url), got))
			}
			other += got
		}
		// the largest gaps between the wasm's chunks
		var gaps []float64
		var long []string
		for i := 1; i < len(wasm.chunks); i++ {
			g := (wasm.chunks[i][0] - wasm.chunks[i-1][0]) * 1000
			gaps = append(gaps, g)
			if g >= 20 {
				got := 0.0
				for _, c := range wasm.chunks[:i] {
					got += c[1]
				}
				long = append(long, fmt.Sprintf("%.0f→%.0f ms (%.0f KB in)", (wasm.chunks[i-1][0]-l.t0)*1000, (wasm.chunks[i][0]-l.t0)*1000, got/1000))
			}
		}

		sort.Sort(sort.Reverse(sort.Float64Slice(gaps)))
		if len(gaps) > 5 {
			gaps = gaps[:5]
		}
		sum := 0.0
		for _, c := range wasm.chunks {
			sum += c[1]
		}
		fmt.Fprintf(&sb, "      the wasm's body: %.0f ms first chunk → finished, %.0f B in %d chunks (chunks' sum %.0f B); other requests' bytes meanwhile: %.0f B %v; its largest gaps between chunks (ms): %.0f\n",
			(z-a)*1000, wasm.encoded, len(wasm.chunks), sum, other, names, gaps)
		fmt.Fprintf(&sb, "      the wasm's gaps of 20 ms or more: %s\n", strings.Join(long, ", "))
	}
	return sb.String()
}
