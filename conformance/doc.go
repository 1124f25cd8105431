// Package conformance checks fitclaim's output with Kubernetes' own code:
// the strict decoder of k8s.io/api/resource/v1, the official validator of
// k8s.io/kubernetes/pkg/apis/resource/validation, the DRA CEL compiler and
// evaluator of k8s.io/dynamic-resource-allocation/cel and the scheduler's
// allocator k8s.io/dynamic-resource-allocation/structured.
//
// It is a nested module so that these libraries never reach the root module
// (and with it the wasm build). The helpers take raw YAML bytes, so they
// check whatever fitclaim emits, exactly as kubectl would receive it.
//
//	decode.go    strict YAML → resource.k8s.io/v1 object
//	validate.go  API defaulting, conversion, official validation
//	selectors.go CEL selectors: extraction, compilation under the limits, cache
//	fleet.go     fake devices: llmfit.ai and the real drivers' layouts
//	match.go     which fleet devices a request's selectors (and class) match
//	allocate.go  the scheduler's allocator over fake ResourceSlices
package conformance
