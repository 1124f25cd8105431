// Package jsontext writes JSON text without encoding/json, whose reflection would add about a
// tenth to the browser build. claim uses Quote for llmfit's byte-exact JSON; the bridge uses
// Writer to hand the page one string to JSON.parse, which is several times faster than building
// the same objects through syscall/js one property at a time.
package jsontext

import (
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// Round rounds x to the given decimals, halves away from zero (Rust's f64::round): the numbers
// claim's JSON and the estimate's carry.
func Round(x float64, decimals int) float64 {
	p := math.Pow(10, float64(decimals))
	return math.Round(x*p) / p
}

// Quote writes s as a JSON string the way serde_json does: escapes for '"', '\\' and control
// characters only; invalid UTF-8 becomes U+FFFD.
func Quote(s string) string {
	if plain(s) {
		return `"` + s + `"` // one allocation, where the append and the conversion made two
	}
	return string(AppendQuote(make([]byte, 0, len(s)+2), s))
}

// plain reports whether s quotes as itself: printable ASCII without '"' or '\\'.
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// AppendQuote appends Quote(s) to b.
func AppendQuote(b []byte, s string) []byte { return appendQuote(b, s, false) }

// AppendQuoteASCII appends s as a JSON string of ASCII only: every other character as its \u
// escape (two, a UTF-16 surrogate pair, above U+FFFF). It reads back as the same string.
func AppendQuoteASCII(b []byte, s string) []byte { return appendQuote(b, s, true) }

const hex = "0123456789abcdef"

func appendQuote(b []byte, s string, ascii bool) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		// Copy a run of bytes that need no escape in one append (the common case).
		run := i
		for run < len(s) && s[run] >= 0x20 && s[run] < utf8.RuneSelf && s[run] != '"' && s[run] != '\\' {
			run++
		}
		if run > i {
			b = append(b, s[i:run]...)
			i = run
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, `\ufffd`...)
		case r == '"':
			b = append(b, `\"`...)
		case r == '\\':
			b = append(b, `\\`...)
		case r == '\n':
			b = append(b, `\n`...)
		case r == '\r':
			b = append(b, `\r`...)
		case r == '\t':
			b = append(b, `\t`...)
		case r == '\b':
			b = append(b, `\b`...)
		case r == '\f':
			b = append(b, `\f`...)
		case r < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[r>>4], hex[r&0xF])
		case ascii && r > 0xFFFF:
			r1, r2 := utf16.EncodeRune(r)
			b = appendU(appendU(b, r1), r2)
		case ascii:
			b = appendU(b, r)
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}

// appendU appends the escape \uXXXX of a UTF-16 code unit.
func appendU(b []byte, r rune) []byte {
	return append(b, '\\', 'u', hex[r>>12&0xF], hex[r>>8&0xF], hex[r>>4&0xF], hex[r&0xF])
}

// Writer builds compact JSON. Callers pair Begin/End calls; Key precedes each object member.
type Writer struct {
	buf   []byte
	comma []bool // per open container: whether the next element needs a comma
	inKey bool   // a key was just written: the value follows without a comma
	ascii bool   // strings are written in ASCII only (NewASCIIWriter)
}

// NewWriter starts a Writer that appends to buf, so a caller can reuse one buffer across documents.
func NewWriter(buf []byte) Writer { return Writer{buf: buf} }

// NewASCIIWriter is NewWriter for text of ASCII only (AppendQuoteASCII): the page's render
// result crosses into JavaScript as a string, and one with a single "≥" in it is decoded and
// held two bytes a character and parsed more slowly by JSON.parse.
func NewASCIIWriter(buf []byte) Writer { return Writer{buf: buf, ascii: true} }

func (w *Writer) quote(s string) { w.buf = appendQuote(w.buf, s, w.ascii) }

// Grow makes room for n more bytes, so a large document is built without re-copying.
func (w *Writer) Grow(n int) {
	if cap(w.buf)-len(w.buf) < n {
		nb := make([]byte, len(w.buf), len(w.buf)+n)
		copy(nb, w.buf)
		w.buf = nb
	}
}

// Bytes returns the text written so far.
func (w *Writer) Bytes() []byte { return w.buf }

// String returns the text written so far.
func (w *Writer) String() string { return string(w.buf) }

// Finish returns the finished text without copying it (a page render's result is some 50 KB,
// and the copy String makes was a sixth of the bridge's time) and empties the Writer, so later
// writes start a new buffer and cannot change the returned string. strings.Builder does the same.
func (w *Writer) Finish() string {
	if len(w.buf) == 0 {
		return ""
	}
	s := unsafe.String(unsafe.SliceData(w.buf), len(w.buf))
	w.buf = nil
	return s
}

func (w *Writer) element() {
	if w.inKey {
		w.inKey = false
		return
	}
	if n := len(w.comma); n > 0 {
		if w.comma[n-1] {
			w.buf = append(w.buf, ',')
		}
		w.comma[n-1] = true
	}
}

// BeginObject opens an object.
func (w *Writer) BeginObject() {
	w.element()
	w.buf = append(w.buf, '{')
	w.comma = append(w.comma, false)
}

// EndObject closes it.
func (w *Writer) EndObject() { w.buf = append(w.buf, '}'); w.comma = w.comma[:len(w.comma)-1] }

// BeginArray opens an array.
func (w *Writer) BeginArray() {
	w.element()
	w.buf = append(w.buf, '[')
	w.comma = append(w.comma, false)
}

// EndArray closes it.
func (w *Writer) EndArray() { w.buf = append(w.buf, ']'); w.comma = w.comma[:len(w.comma)-1] }

// Key writes an object member's name.
func (w *Writer) Key(k string) {
	w.element()
	if plainKey(k) {
		// The common case, a name written in the code: no escape to look for byte by byte.
		w.buf = append(append(append(w.buf, '"'), k...), '"', ':')
	} else {
		w.quote(k)
		w.buf = append(w.buf, ':')
	}
	w.inKey = true
}

// plainKey reports whether k is ASCII letters and digits only, which AppendQuote copies as they are.
func plainKey(k string) bool {
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// Str writes a string value.
func (w *Writer) Str(s string) { w.element(); w.quote(s) }

// StrBytes writes text held in a byte slice as a string value, without making a string of it
// (AppendQuote reads it and keeps nothing), so a caller can build text in a reused buffer.
func (w *Writer) StrBytes(b []byte) {
	w.element()
	w.quote(unsafe.String(unsafe.SliceData(b), len(b)))
}

// Num writes a number; NaN and infinities, which JSON cannot hold, become null.
func (w *Writer) Num(x float64) {
	w.element()
	if math.IsNaN(x) || math.IsInf(x, 0) {
		w.buf = append(w.buf, "null"...)
		return
	}
	// A whole number below 1e6 is printed by 'g' exactly as the integer is (1e6 and above
	// switch to an exponent); AppendInt is several times cheaper than the shortest-float search.
	// Negative zero is left to AppendFloat, which keeps its sign.
	if x == math.Trunc(x) && x > -1e6 && x < 1e6 && (x != 0 || !math.Signbit(x)) {
		w.buf = strconv.AppendInt(w.buf, int64(x), 10)
		return
	}
	w.buf = strconv.AppendFloat(w.buf, x, 'g', -1, 64)
}

// Raw writes a value that is already JSON text (another Writer's output).
func (w *Writer) Raw(json string) { w.element(); w.buf = append(w.buf, json...) }

// Int writes an integer.
func (w *Writer) Int(n int64) { w.element(); w.buf = strconv.AppendInt(w.buf, n, 10) }

// Bool writes true or false.
func (w *Writer) Bool(v bool) { w.element(); w.buf = strconv.AppendBool(w.buf, v) }

// Null writes null.
func (w *Writer) Null() { w.element(); w.buf = append(w.buf, "null"...) }

// Strs writes an array of strings.
func (w *Writer) Strs(list []string) {
	w.BeginArray()
	for _, s := range list {
		w.Str(s)
	}
	w.EndArray()
}
