// Command calibrate fits fit's decode-speed model to the measured runs and writes the constants:
//
//	go run ./fit/calibrate [-data data/truth-train.tsv] [-out fit/speed_constants.go]
//
// (go generate ./fit runs it). The work is in internal/speedcal; its test fails when the
// committed constants are not what the data gives.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/fitclaim/fitclaim/internal/speedcal"
)

func main() {
	data := flag.String("data", "data/truth-train.tsv", "the measured runs")
	out := flag.String("out", "fit/speed_constants.go", "the generated Go file")
	flag.Parse()
	tsv, err := os.ReadFile(*data)
	if err != nil {
		fmt.Fprintln(os.Stderr, "calibrate:", err)
		os.Exit(1)
	}
	src, err := speedcal.Generate(tsv)
	if err != nil {
		fmt.Fprintln(os.Stderr, "calibrate:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "calibrate:", err)
		os.Exit(1)
	}
}
