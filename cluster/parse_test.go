package cluster

import (
	"errors"
	"strings"
	"testing"
)

const goodSlice = `apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata:
  name: s1
spec:
  driver: gpu.nvidia.com
  nodeName: n1
  pool: {name: p, generation: 1, resourceSliceCount: 1}
  devices:
  - name: gpu-0
    capacity:
      memory: {value: MEM}
`

// TestBadSlicesNameObjectAndField: every bad input is an *Error that names the object and the
// field, never a panic.
func TestBadSlicesNameObjectAndField(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"empty", "  \n", "slices: empty: paste the output of kubectl get resourceslices -o yaml"},
		{"not yaml", "a: [1, 2\n", "slices: not YAML or JSON ("},
		{"plain text", "lots of GPUs", `slices: the input: is a string; want a ResourceSlice or a List of them`},
		{"kubectl's table", "NAME                          NODE     DRIVER           POOL     AGE\nnode-a-gpu.nvidia.com-7x2kq   node-a   gpu.nvidia.com   node-a   3d\n",
			`slices: the input: is a string; want a ResourceSlice or a List of them (kubectl get resourceslices -o yaml; without -o yaml, kubectl prints a table)`},
		{"wrong kind", "apiVersion: v1\nkind: Pod\nmetadata: {name: x}\n", `slices: the input: kind: "Pod"; want ResourceSlice or List`},
		{"no kind", "apiVersion: v1\nmetadata: {name: x}\n", `slices: the input: kind: missing; want ResourceSlice or List`},
		// kubectl writes a List's kind after its items: a paste cut short has items but no kind.
		{"cut short", "apiVersion: v1\nitems:\n- apiVersion: resource.k8s.io/v1\n  kind: ResourceSlice\n  metadata:\n    name: s1\n  spec:\n    dev\n",
			`slices: the input: kind: missing, and items are there: kubectl ends a List with kind: List; is the paste cut short?`},
		{"json cut short", `{"apiVersion": "v1", "items": [{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice"`,
			"slices: not YAML or JSON (unexpected EOF: the input ends inside a value; is the paste cut short?)"},
		{"items not a list", "apiVersion: v1\nkind: ResourceSliceList\nitems: 3\n", `slices: the input: items: is a number; want a list`},
		{"wrong kind in list", "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata: {name: n}\n", `slices: items[0]: kind: "Node"; want ResourceSlice`},
		{"capacity lots", strings.Replace(goodSlice, "MEM", "lots", 1),
			`slices: ResourceSlice "s1": spec.devices[0] ("gpu-0").capacity.memory.value: "lots" is not a Kubernetes quantity (such as 81559Mi, 80Gi or 85899345920)`},
		{"capacity not a mapping", strings.Replace(goodSlice, "{value: MEM}", "80Gi", 1),
			`slices: ResourceSlice "s1": spec.devices[0] ("gpu-0").capacity.memory: is a string; want {value: QUANTITY}`},
		{"no driver", strings.Replace(strings.Replace(goodSlice, "MEM", "1Gi", 1), "  driver: gpu.nvidia.com\n", "", 1),
			`slices: ResourceSlice "s1": spec.driver: missing`},
		{"no pool", strings.Replace(strings.Replace(goodSlice, "MEM", "1Gi", 1), "  pool: {name: p, generation: 1, resourceSliceCount: 1}\n", "", 1),
			`slices: ResourceSlice "s1": spec.pool: missing`},
		{"no node", strings.Replace(strings.Replace(goodSlice, "MEM", "1Gi", 1), "  nodeName: n1\n", "", 1),
			`slices: ResourceSlice "s1": spec: names no node: one of nodeName, nodeSelector, allNodes or perDeviceNodeSelection is required`},
		{"old api", strings.Replace(strings.Replace(goodSlice, "MEM", "1Gi", 1), "resource.k8s.io/v1", "resource.k8s.io/v1alpha3", 1),
			`slices: ResourceSlice "s1": apiVersion: "resource.k8s.io/v1alpha3"; want resource.k8s.io/v1 (or v1beta2, v1beta1)`},
		{"device without name", strings.Replace(strings.Replace(goodSlice, "MEM", "1Gi", 1), "- name: gpu-0", "- nam: gpu-0", 1),
			`slices: ResourceSlice "s1": spec.devices[0].name: missing`},
		{"attribute two values", strings.Replace(goodSlice, "    capacity:\n      memory: {value: MEM}\n", "    attributes:\n      type: {string: gpu, int: 1}\n", 1),
			`slices: ResourceSlice "s1": spec.devices[0] ("gpu-0").attributes.type: sets 2 of int, bool, string, version; want exactly one`},
		{"int not whole", strings.Replace(goodSlice, "    capacity:\n      memory: {value: MEM}\n", "    attributes:\n      count: {int: 1.5}\n", 1),
			`slices: ResourceSlice "s1": spec.devices[0] ("gpu-0").attributes.count.int: "1.5" is not a whole number in the int64 range`},
		{"bad taint", strings.Replace(goodSlice, "    capacity:\n      memory: {value: MEM}\n", "    taints:\n    - {key: k, effect: Sometimes}\n", 1),
			`slices: ResourceSlice "s1": spec.devices[0] ("gpu-0").taints[0].effect: "Sometimes"; want NoSchedule, NoExecute or None`},
		{"json list", `{"kind": "List", "items": [1]}`, "slices: items[0]: is a number; want a ResourceSlice"},
		{"two json values", `{"kind": "List", "items": []} {}`, "slices: not YAML or JSON (more than one JSON value; give one List)"},
		{"second document bad", strings.Replace(goodSlice, "MEM", "1Gi", 1) + "---\nkind: ResourceSlice\n",
			`slices: document 2: apiVersion: ""; want resource.k8s.io/v1 (or v1beta2, v1beta1)`},
		{"too big", strings.Repeat("x", MaxInput+1), "slices: the input is over 5242880 bytes (5 MiB), the most that is read; the command line's fitclaim check reads up to 32 MiB"},
	}
	for _, c := range cases {
		_, err := Parse([]byte(c.in))
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s: error %v, want *Error", c.name, err)
			continue
		}
		if got := err.Error(); !strings.HasPrefix(got, c.want) {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}

func TestParseQuantity(t *testing.T) {
	cases := []struct {
		in    string
		gi    int64
		atGi  bool // ≥ gi Gi
		shown string
	}{
		{"81559Mi", 80, false, "79.6 Gi"},       // 81,559 / 1,024 = 79.647…
		{"80Gi", 80, true, "80 Gi"},             // exactly
		{"85899345920", 80, true, "80 Gi"},      // 80 × 2^30
		{"85899345919", 80, false, "79.9 Gi"},   // one byte below, cut not rounded
		{"85899345919.5", 80, false, "79.9 Gi"}, // a fraction of a byte below
		{"86G", 80, true, "80.0 Gi"},            // 86e9 / 2^30 = 80.09…
		{"0.08Ti", 80, true, "81.9 Gi"},         // 0.08 × 1,024 = 81.92
		{"8e10", 80, false, "74.5 Gi"},          // 8e10 / 2^30 = 74.50…
		{"0", 1, false, "0 Gi"},
		{"+1Gi", 1, true, "1 Gi"},
	}
	for _, c := range cases {
		q, ok := ParseQuantity(c.in)
		if !ok {
			t.Errorf("%s: not read", c.in)
			continue
		}
		if q.AtLeastMi(c.gi<<10) != c.atGi || q.Gi() != c.shown {
			t.Errorf("%s: ≥ %d Gi %v, shown %s; want %v, %s", c.in, c.gi, q.AtLeastMi(c.gi<<10), q.Gi(), c.atGi, c.shown)
		}
	}
	for _, bad := range []string{"", "lots", "Gi", "1Gb", "1..2", "1e", "1e+", "--1", "1 Gi", "1e999", "0x10"} {
		if _, ok := ParseQuantity(bad); ok {
			t.Errorf("%q read as a quantity", bad)
		}
	}
}

// TestTaintEmptyValue: a taint's value is optional and may be empty (the API validates it as a
// label value, and "" is one), on a device as on a node: read, not refused as "empty". The
// device's taint is NoSchedule, so it blocks; the node's keeps pods off.
func TestTaintEmptyValue(t *testing.T) {
	in := strings.Replace(goodSlice, "    capacity:\n      memory: {value: MEM}\n", "    taints:\n    - {key: k, value: \"\", effect: NoSchedule}\n", 1)
	s, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if got := s[0].Devices[0].Taints; len(got) != 1 || got[0] != (Taint{Key: "k", Effect: "NoSchedule"}) || got[0].String() != "k (NoSchedule)" {
		t.Fatalf("device taints %+v", got)
	}
	nodes, err := ParseNodes([]byte("apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nspec:\n  taints:\n  - {key: k, value: \"\", effect: NoExecute}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := nodes[0].keepsOff(); got != "tainted k (NoExecute)" {
		t.Fatalf("node kept off %q", got)
	}
}

// TestFlowStyleYAML: a paste in YAML's flow style begins with '{' as JSON does, and is read as
// YAML when it is not JSON (it was refused as "not YAML or JSON (invalid character 'k' …)"); a
// broken JSON paste still gets JSON's message.
func TestFlowStyleYAML(t *testing.T) {
	nodes, err := ParseNodes([]byte("{apiVersion: v1, kind: Node, metadata: {name: n1, labels: {zone: a}}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(nodes) != 1 || nodes[0].Name != "n1" || nodes[0].Labels["zone"] != "a" {
		t.Fatalf("%+v", nodes)
	}
	_, err = ParseNodes([]byte(`{"apiVersion": "v1", "kind": "Node"`))
	if err == nil || err.Error() != "nodes: not YAML or JSON (unexpected EOF: the input ends inside a value; is the paste cut short?)" {
		t.Fatalf("broken JSON: %v", err)
	}
}

// TestAPIServerLists: the API server's own list JSON (kubectl get --raw
// /apis/resource.k8s.io/v1/resourceslices, /api/v1/nodes, curl) gives its items no kind or
// apiVersion; a ResourceSliceList's items are ResourceSlices of its version (each was refused:
// `ResourceSlice "s1" (items[0]): kind: missing; want ResourceSlice`). A plain List's items
// still need their own.
func TestAPIServerLists(t *testing.T) {
	slices, err := Parse([]byte(`{"kind":"ResourceSliceList","apiVersion":"resource.k8s.io/v1","metadata":{"resourceVersion":"9"},"items":[` +
		`{"metadata":{"name":"s1"},"spec":{"driver":"gpu.nvidia.com","nodeName":"n1","pool":{"name":"n1","generation":1,"resourceSliceCount":1},` +
		`"devices":[{"name":"gpu-0","capacity":{"memory":{"value":"81559Mi"}}}]}}]}`))
	if err != nil || len(slices) != 1 || slices[0].APIVersion != "resource.k8s.io/v1" || len(slices[0].Devices) != 1 {
		t.Fatalf("%v %+v", err, slices)
	}
	nodes, err := ParseNodes([]byte(`{"kind":"NodeList","apiVersion":"v1","items":[{"metadata":{"name":"n1","labels":{"zone":"a"}}}]}`))
	if err != nil || len(nodes) != 1 || nodes[0].Labels["zone"] != "a" {
		t.Fatalf("%v %+v", err, nodes)
	}
	claims, err := ParseClaims([]byte(`{"kind":"ResourceClaimList","apiVersion":"resource.k8s.io/v1","items":[{"metadata":{"name":"c","namespace":"ml"},` +
		`"spec":{},"status":{"allocation":{"devices":{"results":[{"request":"r","driver":"gpu.nvidia.com","pool":"n1","device":"gpu-0"}]}}}}]}`))
	if err != nil || len(claims) != 1 || claims[0].Claim != "ml/c" {
		t.Fatalf("%v %+v", err, claims)
	}
	_, err = Parse([]byte(`{"kind":"List","apiVersion":"v1","items":[{"metadata":{"name":"s1"}}]}`))
	if err == nil || err.Error() != `slices: ResourceSlice "s1" (items[0]): kind: missing; want ResourceSlice` {
		t.Fatalf("a List's item without kind: %v", err)
	}
}
