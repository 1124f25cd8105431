//go:build js && wasm

package bridge

import (
	"errors"
	"runtime"
	"strings"
	"sync"
	"syscall/js"
	"unsafe"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/target"
)

// Register installs the one global, fitclaim. The page's second engine (wasm/pagelater,
// package later) adds deploy and hardware to it when the page first needs them. Every function returns a Promise: resolved with
// the answer, or rejected with a JS Error whose message names the field (and whose .field and
// .key properties say it for code), as go-jsonnet's bridge does. A Go panic becomes a rejection
// too, so the page stays alive.
func Register() {
	info := Info()
	api := js.ValueOf(map[string]any{"version": info["version"], "catalog": info["catalog"], "options": info["options"]})
	api.Set("models", promised(func(args []js.Value) (any, error) {
		query, err := stringArg(args, 0, "query")
		if err != nil {
			return nil, err
		}
		limit := target.DefaultListLimit
		if len(args) > 1 && !args[1].IsUndefined() && !args[1].IsNull() {
			if args[1].Type() != js.TypeNumber {
				return nil, &target.FieldError{Field: "limit", Msg: "must be of type number, not " + args[1].Type().String()}
			}
			if limit, err = claim.ModelsLimit(args[1].Float()); err != nil {
				return nil, err // as the API refuses it: never clamped
			}
		}
		return parsedJSON(ModelsJSON(query, limit)), nil
	}))
	// The page labels its form from index.html (written at build time), so the table is made
	// on the first call, not while the page waits for its first claim.
	fields := sync.OnceValue(FieldsJSON)
	api.Set("fields", promised(func([]js.Value) (any, error) { return parsedJSON(fields()), nil }))
	api.Set("render", promised(func(args []js.Value) (any, error) {
		t, err := targetArg(args)
		if err != nil {
			return nil, err
		}
		columns, err := renderOptions(args)
		if err != nil {
			return nil, err
		}
		r, err := claim.Render(t)
		if err != nil {
			return nil, err
		}
		if columns {
			renderText = AppendResultColumnsJSON(renderText[:0], t, r)
		} else {
			renderText = AppendResultJSON(renderText[:0], t, r)
		}
		return parsedJSONBytes(renderText), nil
	}))
	api.Set("renderInto", js.FuncOf(renderInto))
	api.Set("collect", js.FuncOf(collect))
	// The accelerators' own facts, which the columns of render(target, {columns: true}) index.
	api.Set("accelerators", promised(func([]js.Value) (any, error) { return parsedJSON(AcceleratorsJSON()), nil }))
	api.Set("permalink", promised(func(args []js.Value) (any, error) {
		t, err := targetArg(args)
		if err != nil {
			return nil, err
		}
		return target.Permalink(t), nil
	}))
	api.Set("parsePermalink", promised(func(args []js.Value) (any, error) {
		fragment, err := stringArg(args, 0, "fragment")
		if err != nil {
			return nil, err
		}
		t, errs := target.ParsePermalinkPartial(fragment)
		if len(errs) > 0 {
			return TargetView(t), &linkError{errs}
		}
		return TargetView(t), nil
	}))
	api.Set("devices", promised(func([]js.Value) (any, error) { return parsedJSON(DevicesJSON()), nil }))
	api.Set("repairLink", promised(func(args []js.Value) (any, error) {
		fragment, err := stringArg(args, 0, "fragment")
		if err != nil {
			return nil, err
		}
		return parsedJSON(RepairJSON(fragment)), nil
	}))
	js.Global().Set("fitclaim", api)
}

// renderInto(target, options, bytes) is render's answer as JSON text (UTF-8) written into bytes,
// a Uint8Array the caller keeps from call to call; it returns, at once (no Promise), the number of
// bytes written, or minus the number needed when bytes is too short (nothing written), or the
// Error render would reject with. The page parses the text itself.
//
// Why not render: every JavaScript value the Go program gets hold of (the Promise it returns, the
// object JSON.parse made) stays in wasm_exec.js's table until Go's collector finalizes its
// js.Value, which at the page's GOGC is every several hundred renders. A fresh page held some
// 9,000 values (45 MB of JavaScript heap) after the page bench's renders, and V8's collections,
// which copy every object still held, were the slow renders (issue 10 §3). Here the answer never
// becomes a JavaScript value on the Go side: only a number crosses back.
func renderInto(_ js.Value, args []js.Value) (ret any) {
	defer func() {
		if p := recover(); p != nil {
			ret = jsError(errors.New("internal error in fitclaim: "+panicText(p)), nil)
		}
	}()
	t, err := targetArg(args)
	if err != nil {
		return jsError(err, nil)
	}
	columns, err := renderOptions(args)
	if err != nil {
		return jsError(err, nil)
	}
	if len(args) < 3 || !args[2].InstanceOf(jsUint8Array) {
		return jsError(&target.FieldError{Field: "bytes", Msg: "must be a Uint8Array to write the answer into"}, nil)
	}
	r, err := claim.Render(t)
	if err != nil {
		return jsError(err, nil)
	}
	if columns {
		renderText = AppendResultColumnsJSON(renderText[:0], t, r)
	} else {
		renderText = AppendResultJSON(renderText[:0], t, r)
	}
	if len(renderText) > args[2].Length() {
		return -len(renderText)
	}
	return js.CopyBytesToJS(args[2], renderText)
}

// collect() runs Go's garbage collector now and returns undefined, at once (no Promise). The
// page calls it in idle time at the end of its warm-up (web/app.js warmUp): the first collection
// of a fresh page also has V8 compile the collector's code, some 200 functions, about 50 ms of the
// page's one thread, which otherwise fell in whichever edit's render the heap filled up in (issue
// 10 §3); and every JavaScript value Go had got hold of so far is let go.
func collect(js.Value, []js.Value) any {
	runtime.GC()
	return js.Undefined()
}

// linkError carries every bad pair of a link; the rejected Error also holds the target read
// from the good ones (.target), so the page keeps them.
type linkError struct{ errs []error }

func (e *linkError) Error() string {
	msgs := make([]string, len(e.errs))
	for i, err := range e.errs {
		msgs[i] = err.Error()
	}
	return strings.Join(msgs, "; ")
}

func promised(fn func(args []js.Value) (any, error)) js.Func {
	return js.FuncOf(func(_ js.Value, args []js.Value) (ret any) {
		promise := jsPromise
		defer func() {
			if p := recover(); p != nil {
				ret = promise.Call("reject", jsError(errors.New("internal error in fitclaim: "+panicText(p)), nil))
			}
		}()
		v, err := fn(args)
		if err != nil {
			return promise.Call("reject", jsError(err, v))
		}
		return promise.Call("resolve", v)
	})
}

func jsError(err error, partial any) js.Value {
	e := jsErrorType.New(err.Error())
	if fe, ok := errors.AsType[*target.FieldError](err); ok {
		e.Set("field", fe.Field)
		e.Set("key", fe.Key)
		e.Set("label", fe.Label)
	}
	if le, ok := errors.AsType[*linkError](err); ok {
		fields := make([]any, 0, len(le.errs))
		for _, x := range le.errs {
			item := map[string]any{"message": x.Error()}
			if fe, ok := errors.AsType[*target.FieldError](x); ok {
				item["field"], item["key"], item["label"] = fe.Field, fe.Key, fe.Label
			}
			fields = append(fields, item)
		}
		e.Set("errors", js.ValueOf(fields))
		e.Set("target", js.ValueOf(partial))
	}
	return e
}

func stringArg(args []js.Value, i int, name string) (string, error) {
	if len(args) <= i || args[i].IsUndefined() || args[i].IsNull() {
		return "", nil
	}
	if args[i].Type() != js.TypeString {
		return "", target.NewFieldError(name, "must be a string (got "+args[i].Type().String()+")")
	}
	return args[i].String(), nil
}

// targetArg reads the target object: its own enumerable keys, each typed.
func targetArg(args []js.Value) (target.Target, error) {
	if len(args) == 0 || args[0].Type() != js.TypeObject || args[0].IsNull() {
		return target.Target{}, notATarget()
	}
	return TargetFromObject(objectValues(args[0]))
}

// renderOptions reads render's optional second argument, {columns: true} (the page's table
// form, table_view.go); an absent one, null or undefined is {}.
func renderOptions(args []js.Value) (columns bool, err error) {
	if len(args) < 2 || args[1].IsUndefined() || args[1].IsNull() {
		return false, nil
	}
	if frozenOptions.known && args[1].Equal(frozenOptions.v) {
		return frozenOptions.columns, nil
	}
	if args[1].Type() != js.TypeObject {
		return false, &target.FieldError{Field: "options", Msg: "must be an object such as {columns: true}, not " + args[1].Type().String()}
	}
	defer func() {
		if err == nil && jsObject.Call("isFrozen", args[1]).Bool() {
			frozenOptions.v, frozenOptions.columns, frozenOptions.known = args[1], columns, true
		}
	}()
	return optionsFromValues(objectValues(args[1]))
}

// frozenOptions is the last good options object renderOptions read, when it is frozen: the page
// passes one frozen {columns: true} to every render (web/app.js), and the same object again is
// answered from here without listing its keys (one fewer array and key the Go side holds per
// render). A frozen object cannot change, so its answer cannot either.
var frozenOptions struct {
	v       js.Value
	columns bool
	known   bool
}

// The constructors and functions the calls use, looked up once: each js.Global().Get made one
// more js.Value per call, which the Go side holds until its next collection, whose finalizers
// then call into JavaScript once for each (issue 10 §3: a render held ~14; the collection after
// ~700 calls was one of the slow renders).
var (
	jsObject     = js.Global().Get("Object")
	jsUint8Array = js.Global().Get("Uint8Array")
	jsPromise    = js.Global().Get("Promise")
	jsErrorType  = js.Global().Get("Error")
	jsJSON       = js.Global().Get("JSON")
)

// objectValues reads an object's own enumerable keys, each typed; null and undefined are absent.
func objectValues(obj js.Value) map[string]Value {
	keys := jsObject.Call("keys", obj)
	values := make(map[string]Value, keys.Length())
	for i := 0; i < keys.Length(); i++ {
		k := keys.Index(i).String()
		v := obj.Get(k)
		switch v.Type() {
		case js.TypeUndefined, js.TypeNull:
			continue // absent: the default
		case js.TypeString:
			values[k] = Value{Type: "string", Str: v.String()}
		case js.TypeNumber:
			values[k] = Value{Type: "number", Num: v.Float()}
		case js.TypeBoolean:
			values[k] = Value{Type: "boolean", Bool: v.Bool()}
		default:
			values[k] = Value{Type: v.Type().String()}
		}
	}
	return values
}

// parsedJSON turns JSON text made by the views into JS values with one call.
func parsedJSON(text string) js.Value {
	return jsJSON.Call("parse", text)
}

// renderText is the render's JSON text, one buffer kept from render to render: the page calls
// render on every keystroke, and a fresh 70 KB each time made the garbage collector's pauses the
// slow renders (issue 10 §3). The page is single-threaded and each call runs to its end, so one
// buffer is never written by two renders at once.
var renderText []byte

// parsedJSONBytes is parsedJSON of text held in a reused buffer. The string shares the buffer's
// memory without copying it; syscall/js copies a string into a JavaScript string before
// JSON.parse runs, and nothing keeps the Go string, so the next write cannot be seen.
func parsedJSONBytes(text []byte) js.Value {
	return parsedJSON(unsafe.String(unsafe.SliceData(text), len(text)))
}

// The second engine's bridge (package later) answers the same way: these are the pieces of
// Register it shares.

// Promised wraps fn as a JS function returning a Promise, as Register's functions do.
func Promised(fn func(args []js.Value) (any, error)) js.Func { return promised(fn) }

// TargetArg reads a target object passed as args[0], as render does.
func TargetArg(args []js.Value) (target.Target, error) { return targetArg(args) }

// StringArg reads args[i] as a string; absent is "".
func StringArg(args []js.Value, i int, name string) (string, error) { return stringArg(args, i, name) }

// ParsedJSON turns JSON text into JS values with one call.
func ParsedJSON(text string) js.Value { return parsedJSON(text) }
