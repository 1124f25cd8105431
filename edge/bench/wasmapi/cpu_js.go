//go:build js && wasm

package main

import (
	"syscall/js"
	"time"
)

// processCPU is the Node process's user + system CPU time (process.cpuUsage(), microseconds):
// unlike the clock, it does not count the time the process waited for a core.
func processCPU() time.Duration {
	u := js.Global().Get("process").Call("cpuUsage")
	return time.Duration(u.Get("user").Float()+u.Get("system").Float()) * time.Microsecond
}
