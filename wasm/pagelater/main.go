//go:build js && wasm

// Command pagelater is the page's second wasm, fetched after the first claim, on the first use
// of what needs it: the "Check against my cluster" panel (sigs.k8s.io/yaml and package cluster),
// the Deployment tab (package deploy) and the hardware panel's estimate (package estimate). The
// first load does not pay for them. It adds deploy and hardware to the page's global fitclaim
// (package later) and installs the global fitclaimCluster:
//
//	fitclaimCluster.check(claimJSON, slicesText[, claimsText[, nodesText[, podText]]]) → {report: "<cluster.Report.ViewJSON>"} | {error: "<message>"}
//	fitclaimCluster.catalog(bytes) → null | "<message>" (the model catalog's text: loadCatalog)
//
// claimJSON is the claim's JSON as the page shows it (the main wasm's render result);
// claimsText, optional (absent or "": none given), is `kubectl get resourceclaims -A -o yaml`,
// whose allocated devices are not free; nodesText, optional too, is `kubectl get nodes -o yaml`,
// whose labels resolve the slices' node selectors; podText, optional too, is the workload (the
// Deployment tab's YAML, a Deployment, a Pod or a pod spec), whose nodeSelector, required node
// affinity and tolerations keep the claim to the nodes its pod can be scheduled to. All are read
// here, in the browser, and go nowhere else.
package main

import (
	"strconv"
	"syscall/js"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/cluster"
	"github.com/fitclaim/fitclaim/wasm/later"
)

func main() {
	later.Register()
	api := js.Global().Get("Object").New()
	api.Set("check", js.FuncOf(check))
	api.Set("catalog", js.FuncOf(loadCatalog))
	js.Global().Set("fitclaimCluster", api)
	select {} // keep the Go runtime alive for the panel's calls
}

func check(_ js.Value, args []js.Value) (out any) {
	defer func() {
		if p := recover(); p != nil { // a bug must not take the page down with it
			out = map[string]any{"error": "internal error in the cluster check; please report it"}
		}
	}()
	if len(args) < 2 || args[0].Type() != js.TypeString || args[1].Type() != js.TypeString {
		return map[string]any{"error": "check(claimJSON, slicesText): two strings"}
	}
	in := cluster.Inputs{Slices: []byte(args[1].String()), Claims: optional(args, 2), Nodes: optional(args, 3), Pod: optional(args, 4)}
	for _, p := range []struct {
		input string
		data  []byte
	}{{"slices", in.Slices}, {"claims", in.Claims}, {"nodes", in.Nodes}, {"pod", in.Pod}} {
		if len(p.data) > cluster.MaxInput { // Parse says the same; this spares decoding a huge paste
			return map[string]any{"error": (&cluster.Error{Input: p.input, Msg: "the input is over 5 MiB; at most " + strconv.Itoa(cluster.MaxInput) + " bytes are read; " + cluster.LargeHint}).Error()}
		}
	}
	report, err := cluster.CheckClaimJSONInputs(args[0].String(), in)
	if err != nil {
		return map[string]any{"error": err.Error()}
	}
	return map[string]any{"report": report}
}

// loadCatalog is fitclaimCluster.catalog(bytes): the model catalog's text (a Uint8Array, the
// asset the page's first engine was given: web/boot.js), which this engine, built without it
// like the first (tools/cmd/site: -tags catalogext), needs for the Deployment tab and the
// hardware panel (web/later.js gives it before either asks). It answers null, or the error's
// message.
func loadCatalog(_ js.Value, args []js.Value) any {
	if len(args) < 1 || args[0].Type() != js.TypeObject || args[0].Get("length").Type() != js.TypeNumber {
		return "catalog(bytes): a Uint8Array of the model catalog's text"
	}
	b := make([]byte, args[0].Get("length").Int())
	if js.CopyBytesToGo(b, args[0]) != len(b) {
		return "catalog(bytes): a Uint8Array of the model catalog's text"
	}
	if err := catalog.LoadText(string(b)); err != nil {
		return err.Error()
	}
	return nil
}

// optional is the i-th argument's text, or nil when it is absent, not a string or "" (not given).
func optional(args []js.Value, i int) []byte {
	if len(args) <= i || args[i].Type() != js.TypeString {
		return nil
	}
	if s := args[i].String(); s != "" {
		return []byte(s)
	}
	return nil
}
