package main

import (
	"os"
	"runtime/pprof"
)

// startProfile starts a CPU profile into path (nothing when path is empty) and returns what
// stops it. runtime/pprof samples with a signal timer, so it works natively only: under
// js/wasm StartCPUProfile fails, which ends the run.
func startProfile(path string) (stop func()) {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		fail(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fail(err)
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fail(err)
		}
	}
}
