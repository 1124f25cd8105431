package wasmlines_test

import (
	"bytes"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/tools/internal/gowasm"
	"github.com/fitclaim/fitclaim/tools/internal/wasmdata"
	"github.com/fitclaim/fitclaim/tools/internal/wasmlines"
)

// program exercises what the runtime needs its kept tables for: stack growth through deep
// recursion holding pointers (pcsp and the stack maps), collections while goroutines are parked
// mid-call, defers, a recovered panic, maps. It prints a checksum of what it computed and, last,
// its own stack (the only output that uses the line tables).
const program = `package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
)

type node struct {
	next *node
	val  []byte
}

func deep(n int, acc *node) int {
	if n == 0 {
		runtime.GC()
		s := 0
		for p := acc; p != nil; p = p.next {
			s += int(p.val[0])
		}
		return s
	}
	var buf [64]byte // a big frame: the stack grows and is copied
	buf[n%64] = byte(n)
	return deep(n-1, &node{next: acc, val: []byte{buf[n%64]}}) + int(buf[n%64]&1)
}

func risky(i int) (r string) {
	defer func() {
		if p := recover(); p != nil {
			r = fmt.Sprint("recovered: ", p)
		}
	}()
	var m map[string]int
	if i%2 == 1 {
		m["x"] = i // panics: assignment to entry in nil map
	}
	return "fine"
}

func main() {
	var wg sync.WaitGroup
	results := make([]int, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			results[g] = deep(2000+g*300, nil)
		}(g)
	}
	wg.Wait()
	words := map[string]int{}
	for i := 0; i < 5000; i++ {
		words[fmt.Sprint("w", i%777)] += i
	}
	fmt.Println("results", results, len(words), words["w42"])
	fmt.Println(risky(1), risky(2))
	printStack(3)
	fmt.Println(strings.Repeat("=", 3))
}

//go:noinline
func printStack(n int) {
	if n > 0 {
		printStack(n - 1)
		return
	}
	fmt.Println("stack:")
	os.Stdout.Write(debug.Stack())
}
`

func build(t *testing.T) []byte {
	t.Helper()
	return gowasm.Build(t, program)
}

// run runs a js/wasm module under Node with Go's own glue and returns what it printed.
func run(t *testing.T, mod []byte) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("node not found (CI installs it)")
		}
		t.Skip("node not found")
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "m.wasm")
	if err := os.WriteFile(path, mod, 0o644); err != nil {
		t.Fatal(err)
	}
	glue := filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec_node.js")
	out, err := exec.Command(node, glue, path).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	return string(out)
}

func strip(t *testing.T, mod []byte) ([]byte, wasmlines.Stats) {
	t.Helper()
	var st wasmlines.Stats
	out, _, err := wasmdata.EditImage(mod, wasmdata.Gap, func(img []byte) error {
		var err error
		st, err = wasmlines.Strip(img)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out, st
}

var position = regexp.MustCompile(`\t\S+\.go:\d+`)

// TestStrippedModuleRunsTheSame: the stripped module computes and prints the same (collections,
// stack growth, goroutines, defers, a recovered panic), and its stack trace names the same
// functions with "?:0" for every position; the unstripped one printed real positions.
func TestStrippedModuleRunsTheSame(t *testing.T) {
	mod := build(t)
	stripped, st := strip(t, mod)
	if st.Funcs < 500 || st.Tables < 500 || st.TableBytes < 10000 || st.NameTableBytes == 0 {
		t.Fatalf("stripped too little to be the line tables: %+v", st)
	}
	before, after := run(t, mod), run(t, stripped)
	t.Logf("%d -> %d bytes raw; %+v", len(mod), len(stripped), st)

	head := func(s string) string { return s[:strings.Index(s, "stack:")] }
	if head(before) != head(after) {
		t.Fatalf("the stripped module computed something else:\nbefore:\n%s\nafter:\n%s", head(before), head(after))
	}
	if !strings.Contains(before, "recovered: assignment to entry in nil map fine") {
		t.Fatalf("the program did not run as written:\n%s", before)
	}
	if !position.MatchString(before) {
		t.Fatalf("the unstripped stack has no file:line positions (the test proves nothing):\n%s", before)
	}
	if position.MatchString(after) {
		t.Fatalf("the stripped stack still has positions:\n%s", after)
	}
	funcs := func(s string) []string {
		var out []string
		for _, l := range strings.Split(s[strings.Index(s, "stack:"):], "\n") {
			if strings.Contains(l, "(") && !strings.HasPrefix(l, "\t") {
				out = append(out, l[:strings.Index(l, "(")])
			}
		}
		return out
	}
	if b, a := funcs(before), funcs(after); strings.Join(b, " ") != strings.Join(a, " ") || len(b) < 5 {
		t.Fatalf("the stack's functions differ:\nbefore %q\nafter  %q", b, a)
	}
	if !strings.Contains(after, "\t?:0") {
		t.Fatalf("the stripped stack does not say ?:0 for positions:\n%s", after)
	}
}

// TestStripIsIdempotent: a second strip finds every line table gone (offset 0) and changes
// nothing.
func TestStripIsIdempotent(t *testing.T) {
	mod := build(t)
	once, _ := strip(t, mod)
	twice, st := strip(t, once)
	if st.Tables != 0 || st.TableBytes != 0 {
		t.Fatalf("a second strip still found line tables: %+v", st)
	}
	if !bytes.Equal(once, twice) {
		t.Fatal("stripping a stripped module changed it")
	}
}

// TestStripRefusesWhatItCannotRead: an image without a pclntab, with a corrupt one, or with two,
// is refused with an error, and the image is left as it was.
func TestStripRefusesWhatItCannotRead(t *testing.T) {
	if _, err := wasmlines.Strip(make([]byte, 4096)); err == nil || !strings.Contains(err.Error(), "no Go 1.20+ wasm pclntab") {
		t.Fatalf("no pclntab: err = %v", err)
	}

	mod := build(t)
	segs, err := wasmdata.DataSegments(mod)
	if err != nil {
		t.Fatal(err)
	}
	img := wasmdata.Image(segs)
	magic := []byte{0xf1, 0xff, 0xff, 0xff, 0x00, 0x00, 0x01, 0x08}
	at := bytes.Index(img, magic)
	if at < 0 {
		t.Fatal("no pclntab in a Go wasm's image")
	}

	// A _func whose entry disagrees with the ftab: a layout not understood.
	bad := bytes.Clone(img)
	pcln := at + int(binary.LittleEndian.Uint64(bad[at+8+8*7:]))
	funcoff := binary.LittleEndian.Uint32(bad[pcln+4:])
	binary.LittleEndian.PutUint32(bad[pcln+int(funcoff):], 0xdead)
	keep := bytes.Clone(bad)
	if _, err := wasmlines.Strip(bad); err == nil || !strings.Contains(err.Error(), "entryOff") {
		t.Fatalf("corrupt _func: err = %v", err)
	}
	if !bytes.Equal(bad, keep) {
		t.Fatal("a refused image was changed")
	}

	// Two pclntabs: which one the runtime uses is not for this tool to guess.
	two := append(bytes.Clone(img), img[at:]...)
	if _, err := wasmlines.Strip(two); err == nil || !strings.Contains(err.Error(), "2 candidate") {
		t.Fatalf("two pclntabs: err = %v", err)
	}
}
