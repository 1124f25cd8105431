// Package wasmdata rewrites a wasm module's data section: MergeData joins the active data
// segments that lie at most a few bytes apart into one, filling each gap with zeros, and writes
// every other section back byte for byte.
//
// Why: Go's wasm linker writes the data section as tens of thousands of active segments (it
// starts a new one after every run of zeros longer than ~8 bytes, so the raw file stays small;
// the runtime's findfunctab alone is a 2-byte segment every ~20 bytes). Each segment's header
// (a varying offset) compresses badly, the zeros that replace it compress to almost nothing; the
// page's engine is brotli-bound on a real network (bench/README.md, "Data segments").
//
// The memory a module starts with is the same before and after: linear memory starts zeroed,
// the segments are applied in order at instantiation, and MergeData refuses segments that
// overlap (where order would matter). It refuses, with an error, anything else it does not
// understand: passive segments, a memory other than 0, an offset that is not an i32.const,
// a DataCount section (code that names segments by index), malformed input.
package wasmdata

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
)

const (
	secData      = 11
	secDataCount = 12

	opI32Const = 0x41
	opEnd      = 0x0b
)

var header = []byte{0x00, 'a', 's', 'm', 0x01, 0x00, 0x00, 0x00}

// Gap is the gap the shipped wasm files are merged at (tools/cmd/site, edge/build.sh through
// tools/cmd/wasmmerge): chosen by measurement, bench/README.md "Data segments".
const Gap = 128

// Stats describes what MergeData did.
type Stats struct {
	SegmentsBefore, SegmentsAfter int
	// DataBefore and DataAfter are the data section's body sizes in bytes.
	DataBefore, DataAfter int
	// Zeros is the number of zero bytes written into the merged segments' gaps.
	Zeros int64
}

// Segment is one active data segment of memory 0: Data is written at Offset.
type Segment struct {
	Offset uint32
	Data   []byte
}

// section is one section of a module: id, its body, and the raw bytes (header and body) as read.
type section struct {
	id   byte
	body []byte
	raw  []byte
}

// MergeData returns mod with the active data segments whose gap (bytes between one's end and
// the next one's start, sorted by offset) is at most gap merged into one; gap < 0 merges nothing
// but still sorts and checks. Every section but the data section is copied unchanged, in order.
// A module without a data section is returned as it is.
func MergeData(mod []byte, gap int) ([]byte, Stats, error) {
	return rewriteData(mod, func(segs []Segment) ([]Segment, int64, error) { return Merge(segs, gap) })
}

// EditImage returns mod with its initial memory edited: edit is given the memory the data
// segments write (Image, from address 0) and changes it in place; the data section is then
// written anew from the edited memory, one segment for each run of bytes whose runs of zeros are
// at most gap long (longer runs are left out: memory starts zeroed). The module starts with
// exactly the memory edit left. Every other section is copied unchanged, in order; Stats.Zeros
// counts the zeros the new segments hold. A module without a data section is returned as it is.
func EditImage(mod []byte, gap int, edit func(img []byte) error) ([]byte, Stats, error) {
	return rewriteData(mod, func(segs []Segment) ([]Segment, int64, error) {
		if _, _, err := Merge(segs, -1); err != nil { // overlaps: the image would depend on order
			return nil, 0, err
		}
		img := Image(segs)
		if err := edit(img); err != nil {
			return nil, 0, err
		}
		out, zeros := Split(img, gap)
		return out, zeros, nil
	})
}

// Split returns the segments that write img's bytes into zeroed memory: one for each run of
// bytes whose runs of zeros are at most gap long, and the zeros inside them.
func Split(img []byte, gap int) ([]Segment, int64) {
	var out []Segment
	var zeros int64
	for i := 0; i < len(img); {
		if img[i] == 0 {
			i++
			continue
		}
		start, end := i, i+1 // end: just past the last non-zero byte of this segment
		for j := end; j < len(img); j++ {
			if img[j] != 0 {
				end = j + 1
			} else if j-end >= gap {
				break
			}
		}
		for _, c := range img[start:end] {
			if c == 0 {
				zeros++
			}
		}
		out = append(out, Segment{Offset: uint32(start), Data: img[start:end]})
		i = end
	}
	return out, zeros
}

// rewriteData replaces mod's data section by what rewrite makes of its segments.
func rewriteData(mod []byte, rewrite func([]Segment) ([]Segment, int64, error)) ([]byte, Stats, error) {
	var st Stats
	secs, err := sections(mod)
	if err != nil {
		return nil, st, err
	}
	di := -1
	for i, s := range secs {
		switch s.id {
		case secDataCount:
			return nil, st, errors.New("wasmdata: the module has a DataCount section (code may name data segments by index); refusing to renumber them")
		case secData:
			if di >= 0 {
				return nil, st, errors.New("wasmdata: more than one data section")
			}
			di = i
		}
	}
	if di < 0 {
		return mod, st, nil
	}
	segs, err := ParseData(secs[di].body)
	if err != nil {
		return nil, st, err
	}
	st.SegmentsBefore = len(segs)
	st.DataBefore = len(secs[di].body)
	merged, zeros, err := rewrite(segs)
	if err != nil {
		return nil, st, err
	}
	body := EncodeData(merged)
	st.SegmentsAfter, st.DataAfter, st.Zeros = len(merged), len(body), zeros

	out := make([]byte, 0, len(mod)+len(body)-len(secs[di].body))
	out = append(out, header...)
	for i, s := range secs {
		if i != di {
			out = append(out, s.raw...)
			continue
		}
		out = append(out, secData)
		out = binary.AppendUvarint(out, uint64(len(body)))
		out = append(out, body...)
	}
	return out, st, nil
}

// sections splits a module into its sections, checking the header and every section's size.
func sections(mod []byte) ([]section, error) {
	if len(mod) < len(header) || !bytes.Equal(mod[:len(header)], header) {
		return nil, errors.New("wasmdata: not a wasm module (version 1): bad magic or version")
	}
	var secs []section
	for i := len(header); i < len(mod); {
		start := i
		id := mod[i]
		size, n, err := uleb(mod[i+1:], 32)
		if err != nil {
			return nil, fmt.Errorf("wasmdata: section %d at byte %d: size: %w", id, start, err)
		}
		i += 1 + n
		if size > uint64(len(mod)-i) {
			return nil, fmt.Errorf("wasmdata: section %d at byte %d: size %d runs past the end of the module (%d bytes left)", id, start, size, len(mod)-i)
		}
		end := i + int(size)
		secs = append(secs, section{id: id, body: mod[i:end], raw: mod[start:end]})
		i = end
	}
	return secs, nil
}

// ParseData reads a data section's body. Only active segments of memory 0 with an i32.const
// offset (flags 0, as Go's linker writes them) are accepted.
func ParseData(body []byte) ([]Segment, error) {
	count, i, err := uleb(body, 32)
	if err != nil {
		return nil, fmt.Errorf("wasmdata: data section: segment count: %w", err)
	}
	// Each segment takes at least 5 bytes: no count can be larger than that allows.
	if count > uint64(len(body)) {
		return nil, fmt.Errorf("wasmdata: data section: %d segments in %d bytes", count, len(body))
	}
	segs := make([]Segment, 0, count)
	for k := uint64(0); k < count; k++ {
		at := i
		flags, n, err := uleb(body[i:], 32)
		if err != nil {
			return nil, fmt.Errorf("wasmdata: data segment %d (byte %d): flags: %w", k, at, err)
		}
		i += n
		switch flags {
		case 0:
		case 1:
			return nil, fmt.Errorf("wasmdata: data segment %d is passive (flags 1); only active segments of memory 0 (flags 0) can be merged", k)
		case 2:
			return nil, fmt.Errorf("wasmdata: data segment %d names its memory (flags 2); only active segments of memory 0 (flags 0) can be merged", k)
		default:
			return nil, fmt.Errorf("wasmdata: data segment %d: unknown flags %d (allowed: 0)", k, flags)
		}
		if i >= len(body) || body[i] != opI32Const {
			return nil, fmt.Errorf("wasmdata: data segment %d: offset is not an i32.const expression", k)
		}
		i++
		off, n, err := sleb32(body[i:])
		if err != nil {
			return nil, fmt.Errorf("wasmdata: data segment %d: offset: %w", k, err)
		}
		i += n
		if i >= len(body) || body[i] != opEnd {
			return nil, fmt.Errorf("wasmdata: data segment %d: offset expression is longer than one i32.const", k)
		}
		i++
		size, n, err := uleb(body[i:], 32)
		if err != nil {
			return nil, fmt.Errorf("wasmdata: data segment %d: size: %w", k, err)
		}
		i += n
		if size > uint64(len(body)-i) {
			return nil, fmt.Errorf("wasmdata: data segment %d: %d bytes run past the end of the section", k, size)
		}
		offset := uint32(off)
		if uint64(offset)+size > 1<<32 {
			return nil, fmt.Errorf("wasmdata: data segment %d: offset %d + %d bytes runs past 4 GiB", k, offset, size)
		}
		segs = append(segs, Segment{Offset: offset, Data: body[i : i+int(size)]})
		i += int(size)
	}
	if i != len(body) {
		return nil, fmt.Errorf("wasmdata: data section: %d bytes after its %d segments", len(body)-i, count)
	}
	return segs, nil
}

// Merge sorts segments by offset and joins each to the one before when the gap between them is
// at most gap bytes, filling the gap with zeros. Overlapping segments are an error. It returns
// the zero bytes it wrote. The input's Data slices are not modified.
func Merge(segs []Segment, gap int) ([]Segment, int64, error) {
	sorted := append([]Segment(nil), segs...)
	sort.SliceStable(sorted, func(a, b int) bool { return sorted[a].Offset < sorted[b].Offset })
	var out []Segment
	var zeros int64
	owned := false // whether out's last Data is ours to append to
	for _, s := range sorted {
		if len(out) > 0 {
			last := &out[len(out)-1]
			end := uint64(last.Offset) + uint64(len(last.Data))
			if uint64(s.Offset) < end {
				return nil, 0, fmt.Errorf("wasmdata: data segments overlap: [%d, %d) and one at %d (%d bytes)", last.Offset, end, s.Offset, len(s.Data))
			}
			if d := int64(s.Offset) - int64(end); d <= int64(gap) {
				if !owned {
					last.Data = append([]byte(nil), last.Data...)
					owned = true
				}
				last.Data = append(last.Data, make([]byte, d)...)
				last.Data = append(last.Data, s.Data...)
				zeros += d
				continue
			}
		}
		out = append(out, s)
		owned = false
	}
	return out, zeros, nil
}

// EncodeData writes segments as a data section body (flags 0, i32.const offsets).
func EncodeData(segs []Segment) []byte {
	n := 5
	for _, s := range segs {
		n += 16 + len(s.Data)
	}
	b := make([]byte, 0, n)
	b = binary.AppendUvarint(b, uint64(len(segs)))
	for _, s := range segs {
		b = append(b, 0, opI32Const)
		b = appendSleb(b, int64(int32(s.Offset)))
		b = append(b, opEnd)
		b = binary.AppendUvarint(b, uint64(len(s.Data)))
		b = append(b, s.Data...)
	}
	return b
}

// Image returns the memory the segments initialize, from address 0 to the end of the last one.
func Image(segs []Segment) []byte {
	var size uint64
	for _, s := range segs {
		if e := uint64(s.Offset) + uint64(len(s.Data)); e > size {
			size = e
		}
	}
	img := make([]byte, size)
	for _, s := range segs {
		copy(img[s.Offset:], s.Data)
	}
	return img
}

// DataSegments returns a module's data segments as they are written (for tests and tools).
func DataSegments(mod []byte) ([]Segment, error) {
	secs, err := sections(mod)
	if err != nil {
		return nil, err
	}
	for _, s := range secs {
		if s.id == secData {
			return ParseData(s.body)
		}
	}
	return nil, nil
}

var errLEB = errors.New("truncated or overlong LEB128")

// uleb reads an unsigned LEB128 of at most bits bits.
func uleb(b []byte, bits uint) (uint64, int, error) {
	var v uint64
	var shift uint
	for i := 0; i < len(b); i++ {
		c := b[i]
		if shift >= bits || (shift+7 > bits && uint64(c&0x7f)>>(bits-shift) != 0) {
			return 0, 0, errLEB
		}
		v |= uint64(c&0x7f) << shift
		shift += 7
		if c < 0x80 {
			return v, i + 1, nil
		}
	}
	return 0, 0, errLEB
}

// sleb32 reads a signed LEB128 that fits 32 bits.
func sleb32(b []byte) (int32, int, error) {
	var v int64
	var shift uint
	for i := 0; i < len(b) && i < 5; i++ {
		c := b[i]
		v |= int64(c&0x7f) << shift
		shift += 7
		if c < 0x80 {
			if c&0x40 != 0 {
				v |= -1 << shift
			}
			if v < -1<<31 || v > 1<<31-1 {
				return 0, 0, errLEB
			}
			return int32(v), i + 1, nil
		}
	}
	return 0, 0, errLEB
}

func appendSleb(b []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}
