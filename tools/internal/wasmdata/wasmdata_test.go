package wasmdata

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/tools/internal/gowasm"
)

// goWasm builds a small Go program for GOOS=js GOARCH=wasm with the site's flags: a real
// module from the Go release the site is built with, with the runtime's many small segments.
func goWasm(t *testing.T) []byte {
	t.Helper()
	return gowasm.Build(t, `package main

import (
	"fmt"
	"os"
	"sort"
	"strings"
)

var table = map[string]int{"a": 1, "bb": 2, "ccc": 3}

func main() {
	var ks []string
	for k := range table {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	fmt.Fprintln(os.Stdout, strings.Join(ks, ","))
}
`)
}

// otherSections returns the raw bytes of every section but the data section, in order.
func otherSections(t *testing.T, mod []byte) [][]byte {
	t.Helper()
	secs, err := sections(mod)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for _, s := range secs {
		if s.id != secData {
			out = append(out, s.raw)
		}
	}
	return out
}

func image(t *testing.T, mod []byte) []byte {
	t.Helper()
	segs, err := DataSegments(mod)
	if err != nil {
		t.Fatal(err)
	}
	return Image(segs)
}

func TestMergeGoWasm(t *testing.T) {
	mod := goWasm(t)
	before, err := DataSegments(mod)
	if err != nil {
		t.Fatal(err)
	}
	if len(before) < 100 {
		t.Fatalf("a Go wasm with %d data segments: expected Go's linker to write many (has it changed?)", len(before))
	}
	img := image(t, mod)
	others := otherSections(t, mod)
	for _, gap := range []int{-1, 0, 8, 32, 4096, 1 << 30} {
		out, st, err := MergeData(mod, gap)
		if err != nil {
			t.Fatalf("gap %d: %v", gap, err)
		}
		if !bytes.Equal(image(t, out), img) {
			t.Fatalf("gap %d: the initialized memory differs", gap)
		}
		o := otherSections(t, out)
		if len(o) != len(others) {
			t.Fatalf("gap %d: %d other sections, want %d", gap, len(o), len(others))
		}
		for i := range o {
			if !bytes.Equal(o[i], others[i]) {
				t.Fatalf("gap %d: section %d changed", gap, i)
			}
		}
		if st.SegmentsBefore != len(before) {
			t.Errorf("gap %d: SegmentsBefore %d, want %d", gap, st.SegmentsBefore, len(before))
		}
		again, st2, err := MergeData(out, gap)
		if err != nil {
			t.Fatalf("gap %d, second pass: %v", gap, err)
		}
		if !bytes.Equal(again, out) || st2.SegmentsAfter != st.SegmentsAfter || st2.Zeros != 0 {
			t.Fatalf("gap %d: not idempotent (%d -> %d segments, %d zeros)", gap, st.SegmentsAfter, st2.SegmentsAfter, st2.Zeros)
		}
		t.Logf("gap %d: %d -> %d segments, data %d -> %d B, module %d -> %d B", gap, st.SegmentsBefore, st.SegmentsAfter, st.DataBefore, st.DataAfter, len(mod), len(out))
		switch {
		case gap < 0 && st.SegmentsAfter != st.SegmentsBefore:
			t.Errorf("gap %d merged segments", gap)
		case gap == 1<<30 && st.SegmentsAfter != 1:
			t.Errorf("gap %d: %d segments, want 1", gap, st.SegmentsAfter)
		case gap == 32 && st.SegmentsAfter*10 > st.SegmentsBefore:
			t.Errorf("gap 32: %d -> %d segments: expected far fewer", st.SegmentsBefore, st.SegmentsAfter)
		}
	}
}

// module assembles a wasm module from sections (id, body).
func module(secs ...[]byte) []byte {
	b := append([]byte(nil), header...)
	for _, s := range secs {
		b = append(b, s[0])
		b = binary.AppendUvarint(b, uint64(len(s)-1))
		b = append(b, s[1:]...)
	}
	return b
}

func sec(id byte, body ...[]byte) []byte {
	return append([]byte{id}, bytes.Join(body, nil)...)
}

// seg is an active segment (flags 0) at off.
func seg(off int64, data ...byte) []byte {
	b := []byte{0, opI32Const}
	b = appendSleb(b, off)
	b = append(b, opEnd)
	b = binary.AppendUvarint(b, uint64(len(data)))
	return append(b, data...)
}

func data(segs ...[]byte) []byte {
	return sec(secData, append([][]byte{binary.AppendUvarint(nil, uint64(len(segs)))}, segs...)...)
}

var (
	memSec    = sec(5, []byte{1, 0, 1}) // one memory, 1 page
	customSec = sec(0, []byte{4, 'n', 'o', 't', 'e'}, []byte("kept as it is"))
)

func TestMergeFixture(t *testing.T) {
	// Unsorted, with gaps of 0, 5 and 10 bytes, one segment at an offset that is a
	// multi-byte (and sign-sensitive) LEB, and a custom section after the data section.
	mod := module(memSec,
		data(seg(100, 1, 2), seg(90, 7), seg(102, 3), seg(108, 4, 0, 5), seg(64, 9), seg(0x2000, 0xff)),
		customSec)
	img := image(t, mod)
	out, st, err := MergeData(mod, 5)
	if err != nil {
		t.Fatal(err)
	}
	segs, err := DataSegments(out)
	if err != nil {
		t.Fatal(err)
	}
	want := []Segment{{64, []byte{9}}, {90, []byte{7}}, {100, []byte{1, 2, 3, 0, 0, 0, 0, 0, 4, 0, 5}}, {0x2000, []byte{0xff}}}
	if len(segs) != len(want) {
		t.Fatalf("segments %v, want %v", segs, want)
	}
	for i := range want {
		if segs[i].Offset != want[i].Offset || !bytes.Equal(segs[i].Data, want[i].Data) {
			t.Fatalf("segment %d: %v, want %v", i, segs[i], want[i])
		}
	}
	if st.SegmentsBefore != 6 || st.SegmentsAfter != 4 || st.Zeros != 5 {
		t.Errorf("stats %+v", st)
	}
	if !bytes.Equal(image(t, out), img) {
		t.Error("the initialized memory differs")
	}
	if !bytes.HasSuffix(out, module(customSec)[len(header):]) || !bytes.HasPrefix(out, module(memSec)) {
		t.Error("the other sections changed")
	}

	// No data section: unchanged.
	plain := module(memSec, customSec)
	if got, _, err := MergeData(plain, 32); err != nil || !bytes.Equal(got, plain) {
		t.Errorf("a module without data: %v", err)
	}
}

func TestMergeRefuses(t *testing.T) {
	for _, c := range []struct {
		name string
		mod  []byte
		want string
	}{
		{"not wasm", []byte("\x00asm\x02\x00\x00\x00"), "not a wasm module"},
		{"short", []byte("\x00as"), "not a wasm module"},
		{"section past end", append(module(memSec), secData, 50, 1), "runs past the end"},
		{"passive", module(memSec, sec(secData, []byte{1, 1, 2, 'h', 'i'})), "passive"},
		{"memory index", module(memSec, sec(secData, []byte{1, 2, 1, opI32Const, 0, opEnd, 1, 'h'})), "names its memory"},
		{"unknown flags", module(memSec, sec(secData, []byte{1, 7})), "unknown flags 7"},
		{"global offset", module(memSec, sec(secData, []byte{1, 0, 0x23, 0, opEnd, 1, 'h'})), "not an i32.const"},
		{"long expression", module(memSec, sec(secData, []byte{1, 0, opI32Const, 0, opI32Const, 1, opEnd, 1, 'h'})), "longer than one i32.const"},
		{"overlap", module(memSec, data(seg(10, 1, 2, 3), seg(12, 4))), "overlap"},
		{"datacount", module(memSec, sec(secDataCount, []byte{1}), data(seg(0, 1))), "DataCount"},
		{"two data sections", module(memSec, data(seg(0, 1)), data(seg(8, 1))), "more than one data section"},
		{"segment past section", module(memSec, sec(secData, []byte{1, 0, opI32Const, 0, opEnd, 9, 'h'})), "past the end of the section"},
		{"trailing bytes", module(memSec, sec(secData, append(data(seg(0, 1))[1:], 0xaa))), "after its 1 segments"},
		{"too many segments", module(memSec, sec(secData, []byte{0x7f})), "segments in"},
		{"truncated LEB", module(memSec, sec(secData, []byte{0x80})), "LEB128"},
		{"overlong offset", module(memSec, sec(secData, []byte{1, 0, opI32Const, 0x80, 0x80, 0x80, 0x80, 0x80, 0, opEnd, 0})), "LEB128"},
	} {
		_, _, err := MergeData(c.mod, 32)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

// FuzzMergeData: never a panic; whatever is accepted keeps its memory image and is idempotent.
func FuzzMergeData(f *testing.F) {
	f.Add(module(memSec, data(seg(100, 1, 2), seg(90, 7), seg(102, 3))), 8)
	f.Add(module(memSec, data(seg(-1, 1), seg(0, 2))), 32) // offset 0xffffffff
	f.Add(module(memSec, data(seg(4000, 1), seg(0, 2), seg(3, 0))), 1)
	f.Fuzz(func(t *testing.T, mod []byte, gap int) {
		out, _, err := MergeData(mod, gap)
		if err != nil {
			return
		}
		if segs, _ := DataSegments(out); len(segs) > 0 && segs[len(segs)-1].Offset > 1<<20 {
			return // an image too large to compare in a fuzz run
		}
		if !bytes.Equal(image(t, out), image(t, mod)) {
			t.Fatal("the initialized memory differs")
		}
		again, _, err := MergeData(out, gap)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("not idempotent: %v", err)
		}
	})
}

// TestEditImage: the module EditImage writes starts with exactly the memory the edit left, its
// other sections unchanged; with no edit its segments are MergeData's at the same gap.
func TestEditImage(t *testing.T) {
	mod := goWasm(t)
	img := image(t, mod)
	others := otherSections(t, mod)
	merged, mst, err := MergeData(mod, Gap)
	if err != nil {
		t.Fatal(err)
	}
	same, st, err := EditImage(mod, Gap, func([]byte) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(image(t, same), img) || st.SegmentsAfter != mst.SegmentsAfter || len(same) != len(merged) {
		t.Fatalf("no edit: %d segments, %d B (MergeData: %d, %d B), or the memory differs", st.SegmentsAfter, len(same), mst.SegmentsAfter, len(merged))
	}

	// Zero a run of a kilobyte in the middle and write a byte far past the end.
	var edited []byte
	out, _, err := EditImage(mod, Gap, func(m []byte) error {
		mid := len(m) / 2
		clear(m[mid : mid+1024])
		edited = append([]byte(nil), m...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	got := image(t, out)
	if !bytes.Equal(got, bytes.TrimRight(edited, "\x00")) && !bytes.Equal(got, edited) {
		t.Fatal("the module does not start with the edited memory")
	}
	o := otherSections(t, out)
	for i := range others {
		if !bytes.Equal(o[i], others[i]) {
			t.Fatalf("section %d changed", i)
		}
	}

	if _, _, err := EditImage(mod, Gap, func([]byte) error { return errors.New("no") }); err == nil {
		t.Fatal("an edit's error was not returned")
	}
}

// TestSplit: the segments Split makes write exactly the image; no segment holds a run of zeros
// longer than the gap, or starts or ends with a zero.
func TestSplit(t *testing.T) {
	img := []byte{0, 0, 1, 2, 0, 0, 3, 0, 0, 0, 0, 4, 0}
	for _, gap := range []int{0, 1, 2, 3, 4, 100} {
		segs, _ := Split(img, gap)
		if got := Image(segs); !bytes.Equal(got, img[:len(img)-1]) {
			t.Fatalf("gap %d: image %v, want %v", gap, got, img[:len(img)-1])
		}
		for _, s := range segs {
			if s.Data[0] == 0 || s.Data[len(s.Data)-1] == 0 {
				t.Fatalf("gap %d: segment %v starts or ends with zero", gap, s)
			}
			if bytes.Contains(s.Data, make([]byte, gap+1)) {
				t.Fatalf("gap %d: segment %v holds more than %d zeros in a row", gap, s, gap)
			}
		}
		want := map[int]int{0: 3, 1: 3, 2: 2, 3: 2, 4: 1, 100: 1}[gap]
		if len(segs) != want {
			t.Fatalf("gap %d: %d segments %v, want %d", gap, len(segs), segs, want)
		}
	}
}
