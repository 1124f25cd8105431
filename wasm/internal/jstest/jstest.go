//go:build js && wasm

// Package jstest is what the browser tests of the page's two engines (wasm/bridge, wasm/later)
// share: waiting for a Promise and spelling a JS object. Tests import it; no engine does.
package jstest

import "syscall/js"

// Await waits for a Promise in the browser's event loop and returns its value or rejection.
func Await(p js.Value) (value js.Value, rejected js.Value) {
	done := make(chan struct{})
	onOK := js.FuncOf(func(_ js.Value, args []js.Value) any { value = args[0]; close(done); return nil })
	onErr := js.FuncOf(func(_ js.Value, args []js.Value) any { rejected = args[0]; close(done); return nil })
	defer onOK.Release()
	defer onErr.Release()
	p.Call("then", onOK, onErr)
	<-done
	return value, rejected
}

// Obj is a JS object with the given properties.
func Obj(kv map[string]any) js.Value { return js.ValueOf(kv) }
