//go:build js && wasm && stackcopies

// Command stackcopies counts the goroutine stack copies that calls from JS into Go wasm cause
// (GOOS=js), for edge/bench/stackcopies/run.sh, which builds it with the stackcopies tag and an
// overlay of the runtime's stack.go that counts copystack, newstack and shrinkstack (the counters
// below, read through go:linkname). It serves edge/api's handler on the bench's mix through
// go:wasmexport calls, as wasm/edge's fitclaimServe does, and through a js.FuncOf callback.
package main

import (
	"net/http"
	"runtime"
	"runtime/debug"
	"syscall/js"
	"unsafe" // also for go:linkname

	"github.com/fitclaim/fitclaim/edge/api"
	"github.com/fitclaim/fitclaim/edge/bench/mix"
)

var (
	h    http.Handler
	reqs []*http.Request
	w    = mix.NewRecorder()
)

//go:linkname stackCopies runtime.StackCopies
var stackCopies uint32

//go:linkname stackGrows runtime.StackGrows
var stackGrows uint32

//go:linkname stackShrinks runtime.StackShrinks
var stackShrinks uint32

// counters holds the runtime's counts {stack copies, newstack calls, shrinkstack calls} for JS.
var counters [3]uint32

// exportCounters fills counters and returns where they are.
//
//go:wasmexport counters
func exportCounters() uint32 {
	counters = [3]uint32{stackCopies, stackGrows, stackShrinks}
	return uint32(uintptr(unsafe.Pointer(&counters)))
}

// nreqs is the number of requests in the mix.
//
//go:wasmexport nreqs
func nreqs() int32 { return int32(len(reqs)) }

// serve answers the mix's i-th request into w and returns the body's length.
//
//go:wasmexport serve
func serve(i int32) int32 {
	w.Reset()
	h.ServeHTTP(w, reqs[i])
	return int32(w.Body.Len())
}

// serveYield is serve followed by a yield to the scheduler, as the edge's yieldIfDue does.
//
//go:wasmexport serveYield
func serveYield(i int32) int32 {
	n := serve(i)
	runtime.Gosched()
	return n
}

// gcPercent sets the GC percent (main sets the edge worker's 400; the page runs at 100).
//
//go:wasmexport gcPercent
func gcPercent(p int32) { debug.SetGCPercent(int(p)) }

// deep recurses n frames of 1 KB each, growing the goroutine's stack to at least n KB.
//
//go:noinline
func deep(n int) byte {
	var pad [1024]byte
	pad[n%1024] = byte(n)
	if n == 0 {
		return pad[0]
	}
	return deep(n-1) + pad[n%1024]
}

// pregrow grows the calling goroutine's stack to about kb KB.
//
//go:wasmexport pregrow
func pregrow(kb int32) int32 { return int32(deep(int(kb))) }

func main() {
	debug.SetGCPercent(400)
	paths, err := mix.Paths()
	if err != nil {
		panic(err)
	}
	h = api.Handler()
	for _, p := range paths {
		r, err := http.NewRequest("GET", p, nil)
		if err != nil {
			panic(err)
		}
		reqs = append(reqs, r)
	}
	js.Global().Set("goServe", js.FuncOf(func(this js.Value, args []js.Value) any {
		return serve(int32(args[0].Int()))
	}))
	select {}
}
