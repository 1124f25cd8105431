package bridge

import (
	"encoding/binary"
	"errors"
	"math"
	"sync/atomic"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/internal/jsontext"
	"github.com/fitclaim/fitclaim/target"
)

// The page's render call without syscall/js (issue 10 §3): web/render.js writes render's two
// arguments, the target and the options object, into a buffer of the engine's memory as bytes,
// calls the page build's export (wasm/page/export.go), and reads the answer, JSON text, out of the
// engine's memory. No JavaScript value crosses, so the Go side holds none and makes none: through
// fitclaim.renderInto each render left some nine values that only Go's collector let go of, whose
// finalizers then called into JavaScript once each, and made the functions that do it (js.ValueOf,
// runtime.SetFinalizer, the scheduler's wake-up for the callback) hot enough for V8 to compile them
// again with its optimizing tier in the page's first seconds.
//
// The bytes, little-endian, as web/render.js writes them:
//
//	call   = object(target) object(options)
//	object = 'o' count:u32 entry*   an object (typeof "object", not null): its own enumerable keys
//	       | 'u'                    undefined or null (absent)
//	       | type                   any other value: its type, one byte as below
//	entry  = type keyLen:u32 key value
//	type   = 's' len:u32 UTF-8 | 'n' float64 | 'b' u8 | 'f' (function) | 'y' (symbol)
//	       | 'g' (bigint) | 'o' (an object: no payload, as a value it is only named)
//
// Keys whose value is undefined or null are left out, as objectValues leaves them out; -0 is
// written as 0, as syscall/js passes it. The checks, and each error's words, are render's
// (renderOptions, targetArg, TargetFromObject); a bigint, which syscall/js cannot read (render
// fails with an internal error), is named as one.

// callTypes names the one-byte types as syscall/js's Type.String does.
var callTypes = map[byte]string{'s': "string", 'n': "number", 'b': "boolean", 'f': "function", 'y': "symbol", 'g': "bigint", 'o': "object"}

// errMalformedCall is a call web/render.js would not write: a bug there, never the user's input.
var errMalformedCall = errors.New("internal error in fitclaim: a render call the engine cannot read")

// DecodeCall reads a render call's target and options (the columns form or the documented one).
func DecodeCall(b []byte) (target.Target, bool, error) {
	r := callReader{b: b}
	tKind, tValues := r.object()
	oKind, oValues := r.object()
	if r.bad || len(r.b) != 0 {
		return target.Target{}, false, errMalformedCall
	}
	if tKind != 'o' {
		return target.Target{}, false, notATarget()
	}
	t, err := TargetFromObject(tValues)
	if err != nil {
		return target.Target{}, false, err
	}
	switch oKind {
	case 'u':
		return t, false, nil
	case 'o':
		columns, err := optionsFromValues(oValues)
		return t, columns, err
	}
	return target.Target{}, false, &target.FieldError{Field: "options", Msg: "must be an object such as {columns: true}, not " + callTypes[oKind]}
}

// AppendRender appends the answer to the render call in call to dst: render's JSON document, in
// ASCII only, and true; or, for a target or options render refuses, the error as AppendErrorJSON
// writes it, and false. The columns form is the page's (table_view.go).
func AppendRender(dst, call []byte) ([]byte, bool) {
	t, columns, err := DecodeCall(call)
	if err != nil {
		return AppendErrorJSON(dst, err), false
	}
	// claim.Render's Result, from RenderClaim and AddMatchesInto (the same bytes and errors), its
	// matches in an array this call's answer is written from and then given back (renderMatches).
	r, err := claim.RenderClaim(t)
	if err != nil {
		return AppendErrorJSON(dst, err), false
	}
	buf := renderMatches.Swap(nil)
	if buf == nil {
		buf = new([]fit.Match)
	}
	claim.AddMatchesInto(&r, *buf)
	if columns {
		dst = AppendResultColumnsJSON(dst, t, r)
	} else {
		dst = appendResultASCIIJSON(dst, t, r)
	}
	*buf = r.Matches
	renderMatches.Store(buf)
	return dst, true
}

// renderMatches holds the array AppendRender's matches are written into, from one render to
// the next: a fresh one each render was some 10 of the 26 KB it allocated (issue 10 §3). One
// array, taken and given back (a render beside another, natively, makes its own) and kept
// across collections (a Pool let it go after two), not a sync.Pool: the page's engine runs one
// render at a time, and the Pool's per-P queues were ~10 KB of its code.
var renderMatches atomic.Pointer[[]fit.Match]

// AppendPermalink appends the answer to a permalink call (fitclaim.permalink(target): the call's
// options absent) to dst: the target's permalink, ASCII, and true; or, for a target render
// refuses, the error as AppendErrorJSON writes it, and false. The page asks for one on every
// edit: through js.FuncOf each call left a Promise and its target's values for Go's collector to
// finalize, as renders did before the exports (wasm/page/export.go).
func AppendPermalink(dst, call []byte) ([]byte, bool) {
	t, _, err := DecodeCall(call)
	if err != nil {
		return AppendErrorJSON(dst, err), false
	}
	return append(dst, target.Permalink(t)...), true
}

// AppendErrorJSON writes err as the JS Error render rejects with, for web/render.js to make
// one: {"message": ...}, and for a field's error its field, key and label, as jsError sets them.
func AppendErrorJSON(dst []byte, err error) []byte {
	dst = append(dst, `{"message":`...)
	dst = jsontext.AppendQuote(dst, err.Error())
	if fe, ok := errors.AsType[*target.FieldError](err); ok {
		for _, kv := range [...][2]string{{"field", fe.Field}, {"key", fe.Key}, {"label", fe.Label}} {
			dst = append(dst, ',')
			dst = jsontext.AppendQuote(dst, kv[0])
			dst = append(dst, ':')
			dst = jsontext.AppendQuote(dst, kv[1])
		}
	}
	return append(dst, '}')
}

// notATarget is render's error for a target that is not an object.
func notATarget() error {
	return &target.FieldError{Field: "target", Msg: "must be an object such as {model: \"Qwen/Qwen2.5-7B-Instruct\", minTps: 30}"}
}

// optionsFromValues reads render's options object: {columns: true} is the page's table form.
func optionsFromValues(values map[string]Value) (columns bool, err error) {
	for k, v := range values {
		if k != "columns" {
			return false, &target.FieldError{Field: "options", Msg: "unknown key " + target.QuoteShort(k) + "; known keys: columns"}
		}
		if v.Type != "boolean" {
			return false, &target.FieldError{Field: "options", Msg: "columns must be of type boolean, not " + v.Type}
		}
		columns = v.Bool
	}
	return columns, nil
}

// callReader reads a call's bytes front to back; bad says it ran out or met an unknown type.
type callReader struct {
	b   []byte
	bad bool
}

func (r *callReader) take(n int) []byte {
	if r.bad || n < 0 || n > len(r.b) {
		r.bad = true
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *callReader) u8() byte {
	if b := r.take(1); b != nil {
		return b[0]
	}
	return 0
}

func (r *callReader) u32() int {
	if b := r.take(4); b != nil {
		return int(binary.LittleEndian.Uint32(b))
	}
	return 0
}

// object reads one argument: its kind, and for an object its entries.
func (r *callReader) object() (byte, map[string]Value) {
	kind := r.u8()
	switch {
	case kind == 'u':
		return kind, nil
	case kind != 'o':
		if _, ok := callTypes[kind]; !ok {
			r.bad = true
		}
		return kind, nil
	}
	n := r.u32()
	if n > len(r.b) { // each entry takes at least one byte: a count beyond is not a call
		r.bad = true
		return kind, nil
	}
	values := make(map[string]Value, n)
	for i := 0; i < n && !r.bad; i++ {
		typ := r.u8()
		key := string(r.take(r.u32()))
		var v Value
		switch typ {
		case 's':
			v = Value{Type: "string", Str: string(r.take(r.u32()))}
		case 'n':
			if b := r.take(8); b != nil {
				v = Value{Type: "number", Num: math.Float64frombits(binary.LittleEndian.Uint64(b))}
			}
		case 'b':
			v = Value{Type: "boolean", Bool: r.u8() != 0}
		default:
			name, ok := callTypes[typ]
			if !ok {
				r.bad = true
			}
			v = Value{Type: name}
		}
		values[key] = v
	}
	return kind, values
}

// PanicError is a recovered Go panic as the Error the page's calls answer with, so the page
// stays alive.
func PanicError(p any) error {
	if e, ok := p.(*catalog.IncompleteError); ok { // not a bug: the page asked before the catalog came
		return e
	}
	return errors.New("internal error in fitclaim: " + panicText(p))
}

// panicText describes a recovered panic without fmt, which the browser build leaves out.
func panicText(p any) string {
	switch v := p.(type) {
	case error:
		return v.Error()
	case string:
		return v
	}
	return "unexpected panic"
}
