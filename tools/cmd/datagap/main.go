// Command datagap prints what merging a Go wasm's data segments (tools/internal/wasmdata, as
// tools/cmd/site does for the shipped engines) does to its size: for each gap G, the raw bytes,
// gzip -9, brotli -q 11 (when the brotli command is installed) and the segments left. It is how
// tools/cmd/site's dataGap was chosen (bench/README.md, "Data segments"), not a test.
//
//	datagap [-gaps none,8,16,32,128,all] FILE.wasm...
//
// "none" is the file as it is; "all" merges every segment into one.
package main

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/fitclaim/fitclaim/tools/internal/wasmdata"
)

func main() {
	gaps := flag.String("gaps", "none,8,16,32,64,128,all", "comma-separated gaps in bytes; none: the file as it is; all: one segment")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: datagap [-gaps LIST] FILE.wasm...")
		os.Exit(2)
	}
	brotli, _ := exec.LookPath("brotli")
	for _, p := range flag.Args() {
		if err := report(p, *gaps, brotli); err != nil {
			fmt.Fprintln(os.Stderr, "datagap:", err)
			os.Exit(1)
		}
	}
}

func report(path, gaps, brotli string) error {
	in, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	fmt.Printf("%s\n%-6s %10s %10s %10s %9s\n", path, "gap", "raw", "gzip -9", "brotli", "segments")
	for _, g := range strings.Split(gaps, ",") {
		out, n := in, 0
		switch g {
		case "none":
			segs, err := wasmdata.DataSegments(in)
			if err != nil {
				return err
			}
			n = len(segs)
		default:
			gap := math.MaxInt32
			if g != "all" {
				if gap, err = strconv.Atoi(g); err != nil || gap < 0 {
					return fmt.Errorf("-gaps: %q is not a gap (bytes >= 0, none or all)", g)
				}
			}
			var st wasmdata.Stats
			if out, st, err = wasmdata.MergeData(in, gap); err != nil {
				return err
			}
			n = st.SegmentsAfter
		}
		br := "-"
		if brotli != "" {
			b, err := brotliSize(brotli, out)
			if err != nil {
				return err
			}
			br = strconv.Itoa(b)
		}
		fmt.Printf("%-6s %10d %10d %10s %9d\n", g, len(out), gzipSize(out), br, n)
	}
	return nil
}

func gzipSize(b []byte) int {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	w.Write(b)
	w.Close()
	return buf.Len()
}

func brotliSize(brotli string, b []byte) (int, error) {
	cmd := exec.Command(brotli, "-c", "-q", "11")
	cmd.Stdin = bytes.NewReader(b)
	out, err := cmd.Output()
	if err != nil {
		return 0, fmt.Errorf("brotli: %w", err)
	}
	return len(out), nil
}
