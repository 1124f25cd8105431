//go:build js && wasm

package later

import (
	"syscall/js"

	"github.com/fitclaim/fitclaim/deploy"
	"github.com/fitclaim/fitclaim/wasm/bridge"
)

// Register adds the second engine's functions to the page's global fitclaim, which the first
// engine (package bridge) installed: deploy(target) and hardware(query), and the serving engines
// deploy offers (fitclaim.options.engines). They answer as the first engine's do: a Promise,
// rejected with an Error that names the field.
func Register() {
	api := js.Global().Get("fitclaim")
	if api.Type() != js.TypeObject {
		api = js.Global().Get("Object").New()
		js.Global().Set("fitclaim", api)
	}
	opts := api.Get("options")
	if opts.Type() != js.TypeObject {
		opts = js.Global().Get("Object").New()
		api.Set("options", opts)
	}
	engines := deploy.Engines()
	list := make([]any, len(engines))
	for i, e := range engines {
		list[i] = e
	}
	opts.Set("engines", js.ValueOf(list))
	api.Set("deploy", bridge.Promised(func(args []js.Value) (any, error) {
		t, err := bridge.TargetArg(args)
		if err != nil {
			return nil, err
		}
		r, err := deploy.Render(t)
		if err != nil {
			return nil, err
		}
		return bridge.ParsedJSON(DeployJSON(r)), nil
	}))
	// The hardware mode: a query of the estimate's keys in (what /api/v1/estimate.json reads).
	api.Set("hardware", bridge.Promised(func(args []js.Value) (any, error) {
		query, err := bridge.StringArg(args, 0, "query")
		if err != nil {
			return nil, err
		}
		out, err := HardwareJSON(query)
		if err != nil {
			return nil, err
		}
		return bridge.ParsedJSON(out), nil
	}))
}
