// Command wasmsize prints how many bytes of a Go wasm's code each package takes, from the
// function bodies of its code section and the names of its name section (so the wasm must be
// built without -s, which drops the names; the sizes are those of the stripped build, whose code
// is the same). It is a diagnosis for trimming the page's engine (issue 10 §2), not a test.
//
//	wasmsize [-top 40] [-funcs PREFIX] [-base OLD.wasm] FILE.wasm
//
// -funcs lists the functions whose name starts with PREFIX, largest first; -base prints each
// package's bytes beside OLD.wasm's and the difference. Build the page's engine with names:
//
//	GOOS=js GOARCH=wasm go build -trimpath -o /tmp/page.wasm ./wasm/page
package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
)

func main() {
	top := flag.Int("top", 40, "packages to print, largest first (0: all)")
	funcs := flag.String("funcs", "", "list the functions whose name starts with this prefix instead")
	base := flag.String("base", "", "another wasm to compare with, package by package")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: wasmsize [-top N] [-funcs PREFIX] [-base OLD.wasm] FILE.wasm")
		os.Exit(2)
	}
	m, err := load(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "wasmsize:", err)
		os.Exit(1)
	}
	if *funcs != "" {
		var list []fn
		total := 0
		for _, f := range m.funcs {
			if strings.HasPrefix(f.name, *funcs) {
				list = append(list, f)
				total += f.size
			}
		}
		sort.Slice(list, func(i, j int) bool { return list[i].size > list[j].size })
		for _, f := range list {
			fmt.Printf("%8d  %s\n", f.size, f.name)
		}
		fmt.Printf("%8d  total, %d functions\n", total, len(list))
		return
	}
	var old *module
	if *base != "" {
		if old, err = load(*base); err != nil {
			fmt.Fprintln(os.Stderr, "wasmsize:", err)
			os.Exit(1)
		}
	}
	byPkg := m.byPackage()
	var oldPkg map[string]int
	if old != nil {
		oldPkg = old.byPackage()
		for p := range oldPkg {
			if _, ok := byPkg[p]; !ok {
				byPkg[p] = 0
			}
		}
	}
	pkgs := make([]string, 0, len(byPkg))
	for p := range byPkg {
		pkgs = append(pkgs, p)
	}
	sort.Slice(pkgs, func(i, j int) bool {
		if byPkg[pkgs[i]] != byPkg[pkgs[j]] {
			return byPkg[pkgs[i]] > byPkg[pkgs[j]]
		}
		return pkgs[i] < pkgs[j]
	})
	code := 0
	for _, f := range m.funcs {
		code += f.size
	}
	fmt.Printf("%s: %d bytes, code %d in %d functions, data %d\n", flag.Arg(0), m.fileSize, code, len(m.funcs), m.dataSize)
	if old != nil {
		oldCode := 0
		for _, f := range old.funcs {
			oldCode += f.size
		}
		fmt.Printf("%s: %d bytes, code %d in %d functions, data %d\n", *base, old.fileSize, oldCode, len(old.funcs), old.dataSize)
	}
	for i, p := range pkgs {
		if *top > 0 && i >= *top {
			break
		}
		if old != nil {
			fmt.Printf("%9d %9d %+9d  %s\n", byPkg[p], oldPkg[p], byPkg[p]-oldPkg[p], p)
		} else {
			fmt.Printf("%9d  %s\n", byPkg[p], p)
		}
	}
}

type fn struct {
	name string
	size int
}

type module struct {
	fileSize, dataSize int
	funcs              []fn
}

// byPackage sums the functions' bytes by the package their name begins with.
func (m *module) byPackage() map[string]int {
	out := map[string]int{}
	for _, f := range m.funcs {
		out[pkgOf(f.name)] += f.size
	}
	return out
}

// pkgOf is the package a Go symbol's name begins with, as the wasm names it (slashes written
// as underscores): up to the first dot, after the domain of a module path
// ("github.com_x_y.(*T).M" is github.com_x_y; "type_.eq.[2]string" is "type_").
func pkgOf(name string) string {
	from := 0
	if u := strings.IndexByte(name, '_'); u > 0 && isDomain(name[:u]) {
		from = u
	}
	if dot := strings.IndexByte(name[from:], '.'); dot >= 0 {
		return name[:from+dot]
	}
	return name
}

// isDomain says whether a name's first segment is a module path's domain (github.com,
// golang.org, sigs.k8s.io), not a package and a function (runtime.__mheap_, sync.OnceValue_go).
func isDomain(s string) bool {
	for _, tld := range []string{".com", ".org", ".io", ".in", ".net", ".dev"} {
		if strings.HasSuffix(s, tld) && strings.IndexByte(s, '.') > 0 {
			return true
		}
	}
	return false
}

// load reads the code section's body sizes and the name section's function names.
func load(path string) (*module, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(b) < 8 || !bytes.Equal(b[:4], []byte("\x00asm")) {
		return nil, errors.New(path + ": not a wasm module")
	}
	m := &module{fileSize: len(b)}
	r := reader{b: b[8:]}
	imported := 0
	var sizes []int
	names := map[int]string{}
	for len(r.b) > 0 && !r.bad {
		id := r.byte()
		sec := reader{b: r.take(r.uleb())}
		switch id {
		case 2: // imports: functions imported come first in the function index space
			for n := sec.uleb(); n > 0 && !sec.bad; n-- {
				sec.take(sec.uleb())
				sec.take(sec.uleb())
				switch kind := sec.byte(); kind {
				case 0:
					sec.uleb()
					imported++
				case 1:
					sec.byte()
					sec.limits()
				case 2:
					sec.limits()
				case 3:
					sec.byte()
					sec.byte()
				}
			}
		case 10: // code
			for n := sec.uleb(); n > 0 && !sec.bad; n-- {
				size := sec.uleb()
				sec.take(size)
				sizes = append(sizes, size)
			}
		case 11:
			m.dataSize = len(sec.b)
		case 0:
			if sec.name() != "name" {
				continue
			}
			for len(sec.b) > 0 && !sec.bad {
				sub := sec.byte()
				body := reader{b: sec.take(sec.uleb())}
				if sub != 1 {
					continue
				}
				for n := body.uleb(); n > 0 && !body.bad; n-- {
					idx := body.uleb()
					names[idx] = body.name()
				}
			}
		}
		if sec.bad {
			r.bad = true
		}
	}
	if r.bad {
		return nil, errors.New(path + ": a malformed section")
	}
	if len(names) == 0 {
		return nil, errors.New(path + ": no name section (built with -s?)")
	}
	for i, size := range sizes {
		name, ok := names[imported+i]
		if !ok {
			name = fmt.Sprintf("func[%d]", imported+i)
		}
		m.funcs = append(m.funcs, fn{name, size})
	}
	return m, nil
}

type reader struct {
	b   []byte
	bad bool
}

func (r *reader) take(n int) []byte {
	if r.bad || n < 0 || n > len(r.b) {
		r.bad = true
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *reader) byte() byte {
	if b := r.take(1); b != nil {
		return b[0]
	}
	return 0
}

func (r *reader) uleb() int {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.bad = true
		return 0
	}
	r.b = r.b[n:]
	return int(v)
}

func (r *reader) name() string { return string(r.take(r.uleb())) }

func (r *reader) limits() {
	if flags := r.byte(); flags&1 != 0 {
		r.uleb()
		r.uleb()
	} else {
		r.uleb()
	}
}
