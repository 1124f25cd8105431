// Package wasmlines takes the source file and line tables out of a Go js/wasm module's function
// table (its pclntab), leaving every table the runtime needs to run: Strip edits the module's
// initial memory in place.
//
// Why: in the page's engine the per-function line and file tables are the largest single part
// of the data section that nothing at run time reads: 109 KB of the pclntab's 161 KB of
// pc-value tables, ~63 KB of the file's brotli bytes (bench/README.md, "Line tables"). The
// runtime reads them only to print a position (a panic's stack trace, runtime.Caller,
// runtime.Frames, Func.FileLine); the page's engine prints no stack (its bridge turns a panic
// into an error message), so a stripped engine behaves the same and a trace it did print would
// still name every function, with "?:0" for the position. The edge's module keeps its tables:
// its panics are logged with their stacks for whoever runs it.
//
// What stays: every function's entry, name, frame size table (pcsp, for unwinding and stack
// growth), pcdata tables (stack maps, unsafe points, inline-tree indexes, bounds-check panics)
// and funcdata. What goes: each function's pcfile and pcln offsets are set to 0 (the runtime's
// pcvalue answers -1 for offset 0, and funcline1 then "?", 0) and its startLine (its func
// keyword's line, read only for runtime.Frame's start line, which pprof writes); the bytes of
// those tables are zeroed where no kept table uses them (the linker shares identical tables
// between functions and kinds), and the compilation units' file-name tables (cutab, filetab),
// read only through pcfile, are zeroed. Zeros compress to nothing; wasmdata then drops long
// runs of them from the data segments altogether.
//
// The layout read is Go 1.20's and later (pclntab magic 0xfffffff1, _func of runtime2.go);
// Strip checks every offset it follows and refuses, with an error, a table it cannot read, so
// a toolchain that changes the layout fails the build instead of shipping a broken engine.
package wasmlines

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// magic is pcHeader's first 8 bytes for GOARCH=wasm: Go120PCLnTabMagic, two zero pads,
// minLC 1 (sys.PCQuantum), ptrSize 8.
var magic = []byte{0xf1, 0xff, 0xff, 0xff, 0x00, 0x00, 0x01, 0x08}

const (
	headerSize = 72 // pcHeader: 8 bytes of magic and sizes, then 8 uintptr-sized fields
	funcSize   = 44 // _func up to its variable-length pcdata and funcdata offsets

	offPcsp      = 16 // _func field offsets
	offPcfile    = 20
	offPcln      = 24
	offNpcdata   = 28
	offStartLine = 36
	offNfuncdata = 43

	maxPcdata   = 16 // abi has 5 PCDATA and 8 FUNCDATA kinds; more means a layout not understood
	maxFuncdata = 16
)

// Stats describes what Strip did.
type Stats struct {
	Funcs int // functions in the table
	// Tables is the number of distinct line and file tables taken out; TableBytes the bytes of
	// them zeroed (bytes a kept table shares stay).
	Tables, TableBytes int
	// NameTableBytes is the size of cutab and filetab, zeroed.
	NameTableBytes int
}

type header struct {
	at                                       int // pcHeader's index in the image
	nfunc                                    int
	funcnametab, cutab, filetab, pctab, pcln int // absolute indexes in the image
}

// Strip finds the one pclntab in img, a Go js/wasm module's initial linear memory (wasmdata.Image),
// and takes its line and file tables out as the package comment says. It returns an error, and
// leaves img unchanged, when it finds no pclntab, more than one, or one it cannot read whole.
func Strip(img []byte) (Stats, error) {
	h, err := find(img)
	if err != nil {
		return Stats{}, err
	}
	funcs, err := readFuncs(img, h)
	if err != nil {
		return Stats{}, err
	}
	pctab := img[h.pctab:h.pcln]
	tableEnd := func(off uint32) (int, error) {
		end, err := tableLen(pctab, off)
		if err != nil {
			return 0, fmt.Errorf("wasmlines: pc-value table at pctab+%d: %w", off, err)
		}
		return end, nil
	}
	kept := make([]bool, len(pctab))
	dropped := map[uint32]int{} // table offset -> end
	for _, f := range funcs {
		for _, off := range f.kept {
			end, err := tableEnd(off)
			if err != nil {
				return Stats{}, err
			}
			for i := int(off); i < end; i++ {
				kept[i] = true
			}
		}
		for _, off := range []uint32{f.pcfile, f.pcln} {
			if off == 0 {
				continue
			}
			end, err := tableEnd(off)
			if err != nil {
				return Stats{}, err
			}
			dropped[off] = end
		}
	}

	// Everything is read and checked: now edit.
	st := Stats{Funcs: len(funcs), Tables: len(dropped)}
	for off, end := range dropped {
		for i := int(off); i < end; i++ {
			if !kept[i] && pctab[i] != 0 {
				pctab[i] = 0
				st.TableBytes++
			}
		}
	}
	for _, f := range funcs {
		binary.LittleEndian.PutUint32(img[f.at+offPcfile:], 0)
		binary.LittleEndian.PutUint32(img[f.at+offPcln:], 0)
		binary.LittleEndian.PutUint32(img[f.at+offStartLine:], 0)
	}
	names := img[h.cutab:h.pctab] // cutab then filetab
	clear(names)
	st.NameTableBytes = len(names)
	return st, nil
}

// find returns the image's one pcHeader whose offsets all lie in order inside the image.
func find(img []byte) (header, error) {
	var found []header
	for from := 0; ; {
		i := bytes.Index(img[from:], magic)
		if i < 0 {
			break
		}
		at := from + i
		from = at + 1
		if h, ok := readHeader(img, at); ok {
			found = append(found, h)
		}
	}
	switch len(found) {
	case 0:
		return header{}, errors.New("wasmlines: no Go 1.20+ wasm pclntab in the data (magic 0xfffffff1, minLC 1, ptrSize 8): not a Go js/wasm module, or a Go whose layout this tool does not know")
	case 1:
		return found[0], nil
	default:
		return header{}, fmt.Errorf("wasmlines: %d candidate pclntab headers in the data; refusing to guess", len(found))
	}
}

func readHeader(img []byte, at int) (header, bool) {
	if at+headerSize > len(img) {
		return header{}, false
	}
	u := func(k int) uint64 { return binary.LittleEndian.Uint64(img[at+8+8*k:]) }
	nfunc := u(0)
	offs := []uint64{u(3), u(4), u(5), u(6), u(7)} // funcname, cu, filetab, pctab, pcln (u(1) nfiles, u(2) unused)
	prev := uint64(headerSize)
	for _, o := range offs {
		if o < prev || o > uint64(len(img)-at) {
			return header{}, false
		}
		prev = o
	}
	if nfunc == 0 || nfunc > uint64(len(img)) {
		return header{}, false
	}
	h := header{at: at, nfunc: int(nfunc),
		funcnametab: at + int(offs[0]), cutab: at + int(offs[1]), filetab: at + int(offs[2]),
		pctab: at + int(offs[3]), pcln: at + int(offs[4])}
	if h.pcln+8*(h.nfunc+1) > len(img) {
		return header{}, false
	}
	return h, true
}

// fn is one function's entry in the table: where its _func is, and the tables it names.
type fn struct {
	at           int      // _func's index in the image
	pcfile, pcln uint32   // the tables Strip takes out
	kept         []uint32 // pcsp and the pcdata tables (0 = none)
}

// readFuncs reads every _func the ftab names, checking each against the ftab and the tables.
func readFuncs(img []byte, h header) ([]fn, error) {
	u32 := func(i int) uint32 { return binary.LittleEndian.Uint32(img[i:]) }
	names := uint32(h.cutab - h.funcnametab)
	pctab := uint32(h.pcln - h.pctab)
	funcs := make([]fn, 0, h.nfunc)
	var lastEntry uint32
	for k := 0; k < h.nfunc; k++ {
		entry, funcoff := u32(h.pcln+8*k), u32(h.pcln+8*k+4)
		if k > 0 && entry < lastEntry {
			return nil, fmt.Errorf("wasmlines: function %d: ftab not sorted by entry", k)
		}
		lastEntry = entry
		at := h.pcln + int(funcoff)
		if funcoff < uint32(8*(h.nfunc+1)) || at+funcSize > len(img) {
			return nil, fmt.Errorf("wasmlines: function %d: _func offset %d outside the table", k, funcoff)
		}
		if got := u32(at); got != entry {
			return nil, fmt.Errorf("wasmlines: function %d: _func.entryOff %d, ftab says %d (a _func layout this tool does not know)", k, got, entry)
		}
		if name := u32(at + 4); name >= names {
			return nil, fmt.Errorf("wasmlines: function %d: name offset %d past funcnametab (%d bytes)", k, name, names)
		}
		npcdata, nfuncdata := u32(at+offNpcdata), img[at+offNfuncdata]
		if npcdata > maxPcdata || nfuncdata > maxFuncdata || at+funcSize+4*int(npcdata) > len(img) {
			return nil, fmt.Errorf("wasmlines: function %d: %d pcdata, %d funcdata tables (a _func layout this tool does not know)", k, npcdata, nfuncdata)
		}
		f := fn{at: at, pcfile: u32(at + offPcfile), pcln: u32(at + offPcln)}
		f.kept = append(f.kept, u32(at+offPcsp))
		for j := 0; j < int(npcdata); j++ {
			f.kept = append(f.kept, u32(at+funcSize+4*j))
		}
		for _, off := range append([]uint32{f.pcfile, f.pcln}, f.kept...) {
			if off >= pctab {
				return nil, fmt.Errorf("wasmlines: function %d: table offset %d past pctab (%d bytes)", k, off, pctab)
			}
		}
		funcs = append(funcs, f)
	}
	return funcs, nil
}

// tableLen returns the end (exclusive, an index into pctab) of the pc-value table at off: pairs of
// a zigzag value delta and a pc delta, both unsigned varints, ended by a zero byte where a
// value delta would follow the first pair (runtime.step). Offset 0 is no table.
func tableLen(pctab []byte, off uint32) (int, error) {
	if off == 0 {
		return 0, nil
	}
	i := int(off)
	for first := true; ; first = false {
		if i >= len(pctab) {
			return 0, errors.New("runs past pctab")
		}
		if pctab[i] == 0 && !first { // runtime.step's test: the end is one zero byte
			return i + 1, nil
		}
		_, n := binary.Uvarint(pctab[i:])
		if n <= 0 {
			return 0, errors.New("runs past pctab")
		}
		i += n
		_, n = binary.Uvarint(pctab[i:])
		if n <= 0 {
			return 0, errors.New("runs past pctab")
		}
		i += n
	}
}
