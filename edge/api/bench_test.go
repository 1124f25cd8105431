package api_test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/cluster"
	"github.com/fitclaim/fitclaim/edge/api"
	"sigs.k8s.io/yaml"
)

// BenchmarkHandler is the handler's own work per route, without any HTTP transport (for
// pprof: go test -bench Handler -cpuprofile …). edge/bench.sh measures the served API.
func BenchmarkHandler(b *testing.B) {
	h := api.Handler()
	for _, c := range []struct{ name, path string }{
		{"claim.yaml", "/api/v1/claim.yaml?m=Qwen%2FQwen2.5-7B-Instruct"},
		{"claim.json-nvidia", "/api/v1/claim.json?m=meta-llama%2FLlama-3.1-8B-Instruct&tps=40&drv=nvidia"},
		{"claim.yaml-kv", "/api/v1/claim.yaml?m=mistralai%2FMistral-7B-Instruct-v0.3&s=kv&ctx=32768&seq=4"},
		// Targets with warnings: vLLM refuses the context (no match read), and nothing fits one
		// AMD device (the split proposal reads the matches).
		{"claim.json-vllm-refused", "/api/v1/claim.json?m=Qwen%2FQwen3-8B&tps=30&s=kv&ctx=200000&engine=vllm"},
		{"claim.yaml-split", "/api/v1/claim.yaml?m=deepseek-ai%2FDeepSeek-R1&s=kv&drv=amd"},
		{"deploy.yaml", "/api/v1/deploy.yaml?m=Qwen%2FQwen2.5-7B-Instruct&s=kv&ctx=16384&engine=vllm"},
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

// nodeSlices is a ResourceSlice list of nodes with eight NVIDIA H100s each, as the NVIDIA DRA
// driver publishes them, of about size bytes (a whole node at a time, under size).
func nodeSlices(size int) []byte {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: List\nitems:\n")
	var node strings.Builder
	for n := 0; ; n++ {
		node.Reset()
		name := fmt.Sprintf("node-%05d", n)
		fmt.Fprintf(&node, "- apiVersion: resource.k8s.io/v1\n  kind: ResourceSlice\n  metadata:\n    name: %s-gpu.nvidia.com-x%04x\n  spec:\n    driver: gpu.nvidia.com\n    nodeName: %s\n    pool: {name: %s, generation: 1, resourceSliceCount: 1}\n    devices:\n", name, n, name, name)
		for g := range 8 {
			fmt.Fprintf(&node, "    - name: gpu-%d\n      attributes:\n        type: {string: gpu}\n        uuid: {string: GPU-%08x-a2b3-44c5-d6e7-%012x}\n        productName: {string: NVIDIA H100 80GB HBM3}\n        brand: {string: Nvidia}\n        architecture: {string: Hopper}\n        cudaComputeCapability: {version: 9.0.0}\n        driverVersion: {version: 580.82.7}\n        index: {int: %d}\n        minor: {int: %d}\n      capacity:\n        memory: {value: 81559Mi}\n", g, n, g, g, g)
		}
		if b.Len()+node.Len() > size {
			return []byte(b.String())
		}
		b.WriteString(node.String())
	}
}

// BenchmarkCheck is POST /api/v1/check's own work for a 70B model over two devices, on a
// typical body (cluster/testdata/mixed.yaml, 6.6 KB; 16 nodes of eight H100s, 64 KB, and the
// same as JSON) and on
// the largest read (cluster.MaxInput, 5 MiB: 1,300 such nodes). edge/README.md says what they
// mean for the Workers plans.
func BenchmarkCheck(b *testing.B) {
	mixed, err := os.ReadFile("../../cluster/testdata/mixed.yaml")
	if err != nil {
		b.Fatal(err)
	}
	nodes16 := nodeSlices(64 << 10)
	nodes16JSON, err := yaml.YAMLToJSON(nodes16) // kubectl get resourceslices -o json, unindented
	if err != nil {
		b.Fatal(err)
	}
	h := api.Handler()
	for _, c := range []struct {
		name string
		body []byte
	}{{"mixed-6.6KB", mixed}, {"16nodes-64KB", nodes16}, {"16nodes-json", nodes16JSON}, {"max-5MiB", nodeSlices(cluster.MaxInput)}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.body)))
			for b.Loop() {
				req := httptest.NewRequest("POST", "/api/v1/check?p=70&drv=nvidia&n=2", bytes.NewReader(c.body))
				req.Header.Set("Content-Type", "application/yaml")
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				if w.Code != http.StatusOK {
					b.Fatalf("%d %.300s", w.Code, w.Body)
				}
			}
		})
	}
}
