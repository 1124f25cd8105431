// Command site assembles the static site from web/ into a directory; ./build.sh runs it as
// "site -root . -out dist [-wasm-pkg ./wasm/page] [-example FRAGMENT]". It
//
//   - builds the page's wasm (GOOS=js GOARCH=wasm, small flags), takes its line tables out
//     (tools/internal/wasmlines), merges its data segments (tools/internal/wasmdata) and takes
//     Go's wasm_exec.js;
//   - renders the example claim with the Go engine and writes it into index.html, so a bare
//     visit shows a complete claim before the wasm has loaded (example.go);
//   - gives every asset a content-hashed name under assets/ and rewrites the references to it
//     (assets.go);
//   - writes the service worker's cache version and precache list into sw.js (sw.go);
//   - writes a brotli (when the brotli command is there) and a gzip copy beside each text file
//     and the wasm, for servers that send precompressed files (tools/internal/precompress;
//     -precompress=false skips them: the e2e tests build further versions of the site so).
//
// The output is built in a temporary directory beside -out and moved into place at the end, so
// a failed build leaves the previous site intact.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/tools/internal/precompress"
	"github.com/fitclaim/fitclaim/tools/internal/wasmdata"
	"github.com/fitclaim/fitclaim/tools/internal/wasmlines"
)

// wasmName is the page's engine as web/ refers to it.
const wasmName = "fitclaim.wasm"

// laterWasmName is the page's second engine (built from laterWasmPkg), fetched after the first
// claim on the first use of the cluster panel, the Deployment tab or the hardware panel's
// estimate (web/later.js): package cluster with sigs.k8s.io/yaml, deploy and estimate stay out
// of the wasm the first claim waits for.
const (
	laterWasmName = "fitclaim-later.wasm"
	laterWasmPkg  = "./wasm/pagelater"
)

func main() {
	root := flag.String("root", ".", "the repository's root (holds web/ and the wasm package)")
	out := flag.String("out", "dist", "where the site goes (replaced)")
	wasmPkg := flag.String("wasm-pkg", "./wasm/page", "the page's wasm entry point, relative to -root")
	example := flag.String("example", defaultExample, "permalink fragment of the claim a bare visit shows")
	bundle := flag.Bool("bundle", true, "serve index.html's deferred scripts as one asset (false: each file of web/ on its own)")
	compress := flag.Bool("precompress", true, "write the .br and .gz copies (false: a site for a test, served uncompressed, ~20 s sooner)")
	flag.Parse()
	if err := build(*root, *out, *wasmPkg, *example, *bundle, *compress); err != nil {
		fmt.Fprintln(os.Stderr, "site:", err)
		os.Exit(1)
	}
}

func build(root, out, wasmPkg, example string, bundle, compress bool) error {
	web := filepath.Join(root, "web")
	if _, err := os.Stat(web); err != nil {
		return fmt.Errorf("%v: nothing to build", err)
	}
	out, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(out), ".dist-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	work := filepath.Join(tmp, ".work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		return err
	}

	wasm := filepath.Join(work, wasmName)
	if err := buildWasm(root, wasmPkg, wasm, noInline, pageTags); err != nil {
		return err
	}
	assets := map[string]string{wasmName: wasm}
	cat := filepath.Join(work, catalogName)
	if err := os.WriteFile(cat, []byte(catalog.Text()), 0o644); err != nil {
		return err
	}
	assets[catalogName] = cat
	if _, err := os.Stat(filepath.Join(root, laterWasmPkg)); err == nil {
		lw := filepath.Join(work, laterWasmName)
		if err := buildWasm(root, laterWasmPkg, lw, laterNoInline, pageTags); err != nil {
			return err
		}
		assets[laterWasmName] = lw
	}
	goroot, err := goEnv(root, "GOROOT")
	if err != nil {
		return err
	}
	glue := filepath.Join(work, "wasm_exec.js")
	if err := copyFile(filepath.Join(goroot, "lib", "wasm", "wasm_exec.js"), glue); err != nil {
		return err
	}
	assets["wasm_exec.js"] = glue
	ex, err := renderExample(example)
	if err != nil {
		return err
	}
	s := newSite(tmp)
	s.bundle = bundle
	if s.shards, err = writeShards(tmp); err != nil {
		return err
	}
	if cfg := filepath.Join(root, "netlify.toml"); fileExists(cfg) {
		s.config = cfg
	}
	if err := s.assemble(web, assets, ex); err != nil {
		return err
	}
	if err := os.RemoveAll(work); err != nil {
		return err
	}
	if err := writeServiceWorker(tmp); err != nil {
		return err
	}
	if compress {
		if err := precompress.Dir(tmp); err != nil {
			return err
		}
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	if err := os.Rename(tmp, out); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "==> built %s (%d assets, example #%s)\n", out, len(s.hashed), example)
	return nil
}

// noInline is the compiler's flag for fitclaim's own packages in the page's engines: no
// inlining. Inlined, a Go function's callees' code is its own over again, and a Go function is
// one wasm function, which V8 compiles a second time with its optimizing tier (TurboFan, on
// background threads) once the page's first renders make it hot; the big ones took the most of
// that, and on a 2-core machine the page's thread waits behind it (issue 10 §3: the slow cold
// renders). Without: the engine's code 2.18 -> 2.09 MB, the answer writers a third to a fifth of
// their size (bridge.writeResult 15.0 -> 6.4 KB, explain 10.3 -> 2.0 KB), TurboFan's CPU in a
// cold page ~2.1 -> ~1.5 s; cold renders (pagebench -compare -render-rounds 5, chrt -r 1, load
// 33-37) p99 2.83 vs 4.67 ms, median 0.605 vs 0.535 ms (more calls). The standard library keeps
// its inlining: without it (all=-l) the page's engine is 48 KB smaller brotli, but its renders are
// slower (laterNoInline; bench/README.md).
const noInline = "-gcflags=github.com/fitclaim/fitclaim/...=-l"

// laterNoInline is the compiler's flag for the second engine (laterWasmPkg, fetched on a panel's
// first use): no inlining in any package. The standard library's and the runtime's inline trees
// make the pclntab larger and compress worse: without them the second engine is 1,260,793 ->
// 1,140,500 B brotli (-120,293, -9.5 %; gzip 1,716,792 -> 1,562,682), ~90 ms less of a panel's
// first use at 10 Mbit/s. Its Go code is slower: in Chromium (wasmbrowsertest, best of 6) a
// Deployment render 387 -> 481 us, a hardware estimate 303 -> 360 us, a warm cluster check of
// 6.6 KB 2.98 -> 5.58 ms (its first, still compiling, ~11-14 ms either way; the panel checks
// 250 ms after the last keystroke); its CPU to the first answer (compile, Go's start, one
// estimate; Node, 8 paired rounds) 0.94x. The page's engine
// keeps noInline: there all=-l took 48 KB off but its cold renders' median 1.20-1.34x and p99
// 1.40-1.53x (bench/README.md, "less inlining").
const laterNoInline = "-gcflags=all=-l"

// pageTags are the page's engine's build tags: catalogext leaves the model catalog's table
// out of it (catalog/source.go); the page fetches the table as an asset of its own
// (catalogName, and first the link's shard: writeShards) and gives it to the engine
// (web/boot.js). The second engine is built so too: web/later.js gives it the same bytes.
const pageTags = "catalogext"

// buildWasm builds one of the page's engines with the flags that keep it small (gcflags:
// noInline or laterNoInline) and its build tags ("": none).
func buildWasm(root, pkg, out, gcflags, tags string) error {
	fmt.Fprintf(os.Stderr, "==> building %s -> %s\n", pkg, filepath.Base(out))
	cmd := exec.Command("go", "build", "-trimpath", "-buildvcs=false", "-ldflags=-s -w", gcflags, "-tags="+tags, "-o", out, pkg)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("building %s: %w", pkg, err)
	}
	return shrinkData(out)
}

// dataGap is the largest run of zeros shrinkData keeps inside one data segment.
//
// Go's linker writes the data section as ~42,000 active segments for the page's engine: it
// starts a new segment after every run of more than ~8 zero bytes (the runtime's findfunctab
// alone is a 2-byte segment every ~20 bytes). Each segment's header carries a different offset
// and compresses badly; the zeros that replace it compress to almost nothing. The first claim
// on a real network is bound by the engine's compressed size (bench/README.md, "Data
// segments"), so the engine is shipped with its segments joined across gaps of up to dataGap
// zeros. How its 128 was chosen: bench/README.md.
const dataGap = wasmdata.Gap

// shrinkData rewrites a built engine's initial memory: the source file and line tables of its
// function table are taken out (tools/internal/wasmlines: nothing the page runs reads them; a
// stack trace would name each function with "?:0") and the data section is written anew with
// its segments joined across gaps of up to dataGap zeros. The memory it starts with is the
// stripped one byte for byte (wasmdata refuses what it cannot prove that for). It runs before
// the asset's hash is taken and before the precompressed copies are written.
func shrinkData(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var lines wasmlines.Stats
	out, st, err := wasmdata.EditImage(b, dataGap, func(img []byte) error {
		var err error
		lines, err = wasmlines.Strip(img)
		return err
	})
	if err != nil {
		return fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	fmt.Fprintf(os.Stderr, "==> %s: line tables of %d functions out (%d tables, %d + %d B zeroed); data segments %d -> %d (gaps <= %d B kept), %d -> %d B raw\n",
		filepath.Base(path), lines.Funcs, lines.Tables, lines.TableBytes, lines.NameTableBytes,
		st.SegmentsBefore, st.SegmentsAfter, dataGap, len(b), len(out))
	return os.WriteFile(path, out, 0o644)
}

func goEnv(dir, name string) (string, error) {
	cmd := exec.Command("go", "env", name)
	cmd.Dir = dir
	b, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go env %s: %w", name, err)
	}
	return strings.TrimSpace(string(b)), nil
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o644)
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
