package api

import (
	"strings"
	"testing"
)

// A route's own key spelt in another case, or the field's JSON name or flag for a device key or
// n, is pointed to, as a link's unknown key is (TPS: "did you mean tps?"); the models and
// fitting routes only listed their keys. A key of another route is not (tps on fitting), nor a
// field whose key the models route's q only shares (quant).
func TestRouteKeyMeant(t *testing.T) {
	h := Handler()
	for _, c := range []struct{ path, want string }{
		{"models?Q=llama", `query: unknown key "Q" (did you mean q?); this route takes q, limit`},
		{"models?q=llama&LIMIT=2", `query: unknown key "LIMIT" (did you mean limit?); this route takes q, limit`},
		{"models?quant=llama", `query: unknown key "quant"; this route takes q, limit`},
		{"fitting.json?on=nvidia-h100-sxm&LIMIT=2", `query: unknown key "LIMIT" (did you mean limit?); known keys: on, memory, bandwidth, family, unified, n, limit`},
		{"fitting.json?ON=nvidia-h100-sxm", `query: unknown key "ON" (did you mean on?); known keys:`},
		{"fitting.json?on=nvidia-h100-sxm&count=2", `query: unknown key "count" (did you mean n?); known keys:`},
		{"fitting.json?memoryGiB=80&bandwidth=1000&family=nvidia", `query: unknown key "memoryGiB" (did you mean memory?); known keys:`},
		{"fitting.json?on=nvidia-h100-sxm&tps=2", `query: unknown key "tps"; known keys:`},
	} {
		code, body := getAPI(h, Prefix+c.path)
		if code != 400 || !strings.HasPrefix(body, c.want) {
			t.Errorf("%s: %d %q, want 400 %q", c.path, code, body, c.want)
		}
	}
}
