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
//	decode.go      strict YAML → resource.k8s.io/v1 object
//	validate.go    API defaulting, official validation (hand-written and declarative)
//	selectors.go   CEL selectors: extraction, compilation under the limits, cache
//	accelerators.go the accelerator table (catalog or CSV) the fleet is built from
//	fleet.go       fake devices: llmfit.ai and the real drivers' layouts, broken variants
//	classes.go     the DeviceClasses of the test cluster
//	match.go       which fleet devices a request's class and selectors match
//	expect.go      which devices a correct selector must match, from facts alone
//	allocate.go    the scheduler's allocator over fake ResourceSlices
//	sweep.go       Checker: render a target and run every check on it
//	allocation.go  Checker.CheckAllocation: the allocator's decision for a claim
//
// The tests: harness_test.go (the helpers on llmfit's golden files and on
// broken manifests), mutation_test.go (wrong claims are caught),
// sweep_test.go (the catalog × issue 2's grid; a sample × issue 4's drivers),
// drivers_test.go (the driver table), allocator_test.go, custom_test.go,
// names_test.go, fuzz_test.go (whole targets, every check).
package conformance
