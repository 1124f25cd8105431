//go:build !(js && wasm)

package main

import (
	"syscall"
	"time"
)

// processCPU is the process's user + system CPU time, all threads (getrusage): unlike the
// clock, it does not count the time the process waited for a core.
func processCPU() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
