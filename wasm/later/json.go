// Package later is the bridge of the page's second engine (wasm/pagelater), fetched after the
// first claim, on the first use of what needs it: the Deployment tab (package deploy), the
// hardware panel's estimate (package estimate) and the cluster check (package cluster, in
// wasm/pagelater). The first engine (wasm/page, package bridge) leaves these packages out, so
// the page compiles less before its first claim (issue 10 §2). Like bridge, the views are pure Go
// (tested natively); js.go holds the syscall/js part.
package later

import "github.com/fitclaim/fitclaim/internal/jsontext"

func str(w *jsontext.Writer, k, v string)           { w.Key(k); w.Str(v) }
func integer(w *jsontext.Writer, k string, v int64) { w.Key(k); w.Int(v) }
func boolean(w *jsontext.Writer, k string, v bool)  { w.Key(k); w.Bool(v) }
