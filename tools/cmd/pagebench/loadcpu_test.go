package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A made-up load: renderer pid 1 (main thread 10, V8's worker 11), browser pid 2 (thread 20).
// Navigation at 1,000 µs (an SVG image's document's at 20,000 µs is not the page's), done at 31,000 µs. Counted, by outermost event inside the window:
// main: a task of 8 ms CPU (its nested lazy compile of 2 ms and streaming read of 3 ms are not
// counted again) + a task of 4 ms = 12 ms; V8's worker: a TurboFan job of 5 ms; the browser:
// 3 ms. Not counted: a main-thread task before the navigation (1 ms), one ending after done
// (7 ms). Total 12 + 5 + 3 = 20 ms. The marks' thread clock: compile-start at 100 µs, compiled
// at 2,600 µs of CPU: 2.5 ms between them.
const loadTrace = `{"traceEvents":[
{"name":"thread_name","ph":"M","pid":1,"tid":10,"args":{"name":"CrRendererMain"}},
{"name":"thread_name","ph":"M","pid":1,"tid":11,"args":{"name":"ThreadPoolForegroundWorker"}},
{"name":"thread_name","ph":"M","pid":2,"tid":20,"args":{"name":"CrBrowserMain"}},
{"name":"RunTask","ph":"X","pid":1,"tid":10,"ts":500,"dur":400,"tdur":1000},
{"name":"navigationStart","ph":"R","pid":1,"tid":10,"ts":1000,"args":{"data":{"documentLoaderURL":"http://127.0.0.1/#m=x"}}},
{"name":"navigationStart","ph":"R","pid":1,"tid":10,"ts":20000,"args":{"data":{"documentLoaderURL":""}}},
{"name":"fitclaim:compile-start","ph":"I","pid":1,"tid":10,"ts":2000,"tts":100},
{"name":"RunTask","ph":"X","pid":1,"tid":10,"ts":3000,"dur":10000,"tdur":8000},
{"name":"wasm.CompileLazy","ph":"X","pid":1,"tid":10,"ts":3000,"dur":2000,"tdur":2000},
{"name":"wasm.OnBytesReceived","ph":"X","pid":1,"tid":10,"ts":6000,"dur":3000,"tdur":3000},
{"name":"fitclaim:compiled","ph":"I","pid":1,"tid":10,"ts":14000,"tts":2600},
{"name":"RunTask","ph":"X","pid":1,"tid":10,"ts":15000,"dur":5000,"tdur":4000},
{"name":"wasm.TopTierCompilation","ph":"X","pid":1,"tid":11,"ts":4000,"dur":9000,"tdur":5000},
{"name":"RunTask","ph":"X","pid":2,"tid":20,"ts":4000,"dur":4000,"tdur":3000},
{"name":"fitclaim-bench:done","ph":"I","pid":1,"tid":10,"ts":31000,"tts":9000},
{"name":"RunTask","ph":"X","pid":1,"tid":10,"ts":30000,"dur":8000,"tdur":7000}
]}`

func TestLoadCPU(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace.json")
	if err := os.WriteFile(path, []byte(loadTrace), 0o644); err != nil {
		t.Fatal(err)
	}
	total, text := loadCPU(path, "page")
	if total != 20000 {
		t.Errorf("total CPU %v µs, want 20,000 (12 ms main + 5 ms V8 + 3 ms browser):\n%s", total, text)
	}
	for _, want := range []string{
		"navigation -> done 30 ms wall; CPU 20 ms: the page's main thread 12, V8's background threads 5 (TurboFan 5), the browser's other threads 3",
		"compiled 2.5,",
		"1 lazy wasm compiles 2.0 ms CPU; reading the streamed wasm 3.0 ms CPU",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the account lacks %q:\n%s", want, text)
		}
	}
}
