// Command wasmmerge rewrites Go wasm files in place with their data segments merged
// (tools/internal/wasmdata, the gap tools/cmd/site uses): edge/build.sh runs it on the edge
// worker's app.wasm, whose upload Cloudflare limits by its gzip size.
//
//	wasmmerge [-gap 128] FILE.wasm...
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/fitclaim/fitclaim/tools/internal/wasmdata"
)

func main() {
	gap := flag.Int("gap", wasmdata.Gap, "the largest run of zero bytes to fill to join two segments")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: wasmmerge [-gap 128] FILE.wasm...")
		os.Exit(2)
	}
	for _, p := range flag.Args() {
		if err := merge(p, *gap); err != nil {
			fmt.Fprintln(os.Stderr, "wasmmerge:", err)
			os.Exit(1)
		}
	}
}

func merge(path string, gap int) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	out, st, err := wasmdata.MergeData(b, gap)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	fmt.Fprintf(os.Stderr, "wasmmerge: %s: data segments %d -> %d (gaps <= %d B filled), %d -> %d B raw\n",
		path, st.SegmentsBefore, st.SegmentsAfter, gap, len(b), len(out))
	return os.WriteFile(path, out, 0o644)
}
