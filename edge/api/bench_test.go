package api_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/fitclaim/fitclaim/edge/api"
)

// BenchmarkHandler is the handler's own work per route, without any HTTP transport (for
// pprof: go test -bench Handler -cpuprofile …). edge/bench.sh measures the served API.
func BenchmarkHandler(b *testing.B) {
	h := api.Handler()
	for _, c := range []struct{ name, path string }{
		{"claim.yaml", "/api/v1/claim.yaml?m=Qwen%2FQwen2.5-7B-Instruct"},
		{"claim.json-nvidia", "/api/v1/claim.json?m=meta-llama%2FLlama-3.1-8B-Instruct&tps=40&drv=nvidia"},
		{"claim.yaml-kv", "/api/v1/claim.yaml?m=mistralai%2FMistral-7B-Instruct-v0.3&s=kv&ctx=32768&seq=4"},
		{"models", "/api/v1/models?q=llama&limit=10"},
		{"fitting", "/api/v1/fitting.json?on=nvidia-rtx-4090&limit=5"},
		{"version", "/api/v1/version"},
	} {
		b.Run(c.name, func(b *testing.B) {
			req := httptest.NewRequest("GET", c.path, nil)
			b.ReportAllocs()
			for b.Loop() {
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				if w.Code != http.StatusOK {
					b.Fatalf("%s: %d %s", c.path, w.Code, w.Body)
				}
			}
		})
	}
}
