package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/cluster"
	"github.com/fitclaim/fitclaim/internal/busytest"
	"github.com/fitclaim/fitclaim/target"
)

const fixture = "../../cluster/testdata/two-nodes.yaml"

// check --json prints exactly the engine's report for the same target and slices.
func TestCheckMatchesEngine(t *testing.T) {
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	target, err := target.ParsePermalink("p=7&drv=nvidia&n=2")
	if err != nil {
		t.Fatal(err)
	}
	want, err := cluster.CheckTarget(target, data)
	if err != nil {
		t.Fatal(err)
	}
	out, _, code := runCLI("check", "--slices", fixture, "--params", "7", "--driver", "nvidia", "--count=2", "--json")
	// Two nodes with one L40S each: two devices on one node are not there, exit 3.
	if code != exitNotAllocatable || out != want.JSON() || want.Allocatable {
		t.Fatalf("exit %d:\n%s\nwant:\n%s", code, out, want.JSON())
	}
	stdin = strings.NewReader(string(data))
	defer func() { stdin = os.Stdin }()
	out, _, code = runCLI("check", "--permalink", "#p=7&drv=nvidia", "--slices=-")
	if code != 0 || !strings.Contains(out, "node-e     gpu.nvidia.com   node-e  gpu-0   yes    model\n") ||
		!strings.Contains(out, "allocatable on node node-e: model gets gpu-0\n") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

func TestCheckErrors(t *testing.T) {
	cases := []struct {
		args []string
		in   string
		code int
		msg  string
	}{
		{[]string{"check", "--params", "7"}, "", exitUsage, "fitclaim check: --slices FILE is required"},
		{[]string{"check", "--params", "7", "--slices"}, "", exitUsage, "fitclaim check: --slices needs a file"},
		{[]string{"check", "--params", "7", "--slices", "-"}, "kind: Pod\n", exitError, `fitclaim check: slices: the input: kind: "Pod"`},
		{[]string{"check", "--params", "-1", "--slices", "-"}, "kind: List\n", exitError, "fitclaim check: Parameters (--params): must be"},
		{[]string{"check", "--params", "7", "--slices", "/nonexistent/slices.yaml"}, "", exitError, "fitclaim check: --slices: open /nonexistent/slices.yaml"},
		{[]string{"check", "--params", "7", "--slices", busySlices, "--claims", "/nonexistent/claims.yaml"}, "", exitError, "fitclaim check: --claims: open /nonexistent/claims.yaml"},
		{[]string{"check", "--params", "7", "--slices", busySlices, "--claims"}, "", exitUsage, "fitclaim check: --claims needs a file"},
		{[]string{"check", "--params", "7", "--slices", "-", "--claims=-"}, "", exitUsage, "fitclaim check: --slices and --claims cannot both read standard input"},
		{[]string{"check", "--params", "7", "--slices", busySlices, "--claims", "-"}, "", exitError, "fitclaim check: claims: empty"},
		{[]string{"check", "--params", "7", "--slices", busySlices, "--claims", busySlices}, "", exitError,
			`fitclaim check: claims: items[0]: kind: "ResourceSlice"; want ResourceClaim`},
		{[]string{"check", "--params", "7", "--slices", zonesSlices, "--nodes"}, "", exitUsage, "fitclaim check: --nodes needs a file"},
		{[]string{"check", "--params", "7", "--slices", zonesSlices, "--nodes="}, "", exitUsage, "fitclaim check: --nodes needs a file"},
		{[]string{"check", "--params", "7", "--slices", zonesSlices, "--claims", ""}, "", exitUsage, "fitclaim check: --claims needs a file"},
		{[]string{"check", "--params", "7", "--slices", zonesSlices, "--nodes", "."}, "", exitError, "fitclaim check: --nodes: read .: is a directory"},
		{[]string{"check", "--params", "7", "--slices", zonesSlices, "--nodes", "/nonexistent/nodes.yaml"}, "", exitError, "fitclaim check: --nodes: open /nonexistent/nodes.yaml"},
		{[]string{"check", "--params", "7", "--slices", zonesSlices, "--claims=-", "--nodes", "-"}, "", exitUsage, "fitclaim check: --claims and --nodes cannot both read standard input"},
		{[]string{"check", "--params", "7", "--slices=-", "--claims=-", "--nodes", "-"}, "", exitUsage, "fitclaim check: --slices, --claims and --nodes cannot all read standard input"},
		{[]string{"check", "--params", "7", "--slices", zonesSlices, "--nodes", "-"}, "", exitError, "fitclaim check: nodes: empty: paste the output of kubectl get nodes -o yaml"},
		{[]string{"check", "--params", "7", "--slices", zonesSlices, "--nodes", zonesSlices}, "", exitError,
			`fitclaim check: nodes: items[0]: kind: "ResourceSlice"; want Node (kubectl get nodes -o yaml)`},
		{[]string{"check", "--params", "7", "--slices", zonesSlices, "--capacity-request", "--capacity-name", "domain"}, "", exitError,
			`fitclaim check: Memory capacity name (--capacity-name): must be one of memory, qualified (got "domain")`},
		{[]string{"check", "--params", "7", "--slices", zonesSlices, "--capacity-name", "qualified"}, "", exitError,
			"fitclaim check: Memory capacity name (--capacity-name): names the capacity a capacity request asks for: set Request memory as capacity (--capacity-request) too, or leave it out"},
		// A repeated file flag took the last silently.
		{[]string{"check", "--params", "7", "--slices", busySlices, "--slices", zonesSlices}, "", exitUsage, "fitclaim check: --slices: given more than once; give it once"},
		{[]string{"check", "--params", "7", "--slices", busySlices, "--claims", busySlices, "--claims=" + busySlices}, "", exitUsage, "fitclaim check: --claims: given more than once; give it once"},
		{[]string{"check", "--params", "7", "--slices", zonesSlices, "--nodes", zonesSlices, "--nodes", zonesSlices}, "", exitUsage, "fitclaim check: --nodes: given more than once; give it once"},
		{[]string{"check", "--params", "7", "--slices", zonesSlices, "--pod"}, "", exitUsage, "fitclaim check: --pod needs a file"},
		{[]string{"check", "--params", "7", "--slices", zonesSlices, "--pod="}, "", exitUsage, "fitclaim check: --pod needs a file"},
		{[]string{"check", "--params", "7", "--slices", zonesSlices, "--pod", "/nonexistent/app.yaml"}, "", exitError, "fitclaim check: --pod: open /nonexistent/app.yaml"},
		{[]string{"check", "--params", "7", "--slices", zonesSlices, "--nodes=-", "--pod", "-"}, "", exitUsage, "fitclaim check: --nodes and --pod cannot both read standard input"},
		{[]string{"check", "--params", "7", "--slices=-", "--claims=-", "--nodes", "-", "--pod=-"}, "", exitUsage, "fitclaim check: --slices, --claims, --nodes and --pod cannot all read standard input"},
		{[]string{"check", "--params", "7", "--slices", zonesSlices, "--pod", "-"}, "", exitError, "fitclaim check: pod: empty: paste the output of fitclaim deploy, or of kubectl get deployment NAME -o yaml"},
		{[]string{"check", "--params", "7", "--slices", zonesSlices, "--nodes", zonesNodes, "--pod", zonesNodes}, "", exitError,
			"fitclaim check: pod: no pod spec in the input (it has a Node): paste the workload"},
	}
	// A nodes file of 34,000,000 bytes: read to one byte past the 32 MiB bound, and said to be
	// over it (not "33554433 bytes", what was read).
	big := filepath.Join(t.TempDir(), "nodes.yaml")
	if err := os.WriteFile(big, []byte(strings.Repeat("#", 34_000_000)), 0o600); err != nil {
		t.Fatal(err)
	}
	cases = append(cases, struct {
		args []string
		in   string
		code int
		msg  string
	}{[]string{"check", "--params", "7", "--slices", zonesSlices, "--nodes", big}, "", exitError, "fitclaim check: nodes: the input is over 33554432 bytes (32 MiB), the most that is read\n"})
	defer func() { stdin = os.Stdin }()
	for _, c := range cases {
		stdin = strings.NewReader(c.in)
		_, errOut, code := runCLI(c.args...)
		if code != c.code || !strings.HasPrefix(errOut, c.msg) {
			t.Errorf("%q: exit %d, %q; want %d, %q", c.args, code, errOut, c.code, c.msg)
		}
	}
}

// TestCheckThousandNodes: the command line reads a 1,000-node cluster whole — eight H100s a
// node in the layout NVIDIA's driver publishes, 6 MiB of kubectl -o yaml, past the page's and
// the API's 5 MiB (it was refused: "slices: the input is over 5242880 bytes (5 MiB)").
func TestCheckThousandNodes(t *testing.T) {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nitems:\n")
	for n := range 1000 {
		fmt.Fprintf(&b, "- apiVersion: resource.k8s.io/v1\n  kind: ResourceSlice\n  metadata:\n    generateName: 00-gpu.nvidia.com-node-%04d-\n    name: 00-gpu.nvidia.com-node-%04d-x7k2q\n", n, n)
		fmt.Fprintf(&b, "  spec:\n    driver: gpu.nvidia.com\n    nodeName: node-%04d\n    pool:\n      generation: 1\n      name: node-%04d\n      resourceSliceCount: 1\n    devices:\n", n, n)
		for g := range 8 {
			fmt.Fprintf(&b, "    - name: gpu-%d\n      attributes:\n        architecture:\n          string: Hopper\n        brand:\n          string: Nvidia\n"+
				"        cudaComputeCapability:\n          version: 9.0.0\n        cudaDriverVersion:\n          version: 13.0.0\n        driverVersion:\n          version: 580.95.5\n"+
				"        productName:\n          string: NVIDIA H100 80GB HBM3\n        resource.kubernetes.io/pciBusID:\n          string: 0000:%02x:00.0\n"+
				"        resource.kubernetes.io/pcieRoot:\n          string: pci0000:%02x\n        type:\n          string: gpu\n"+
				"        uuid:\n          string: GPU-%08x-0000-4000-8000-%012x\n      capacity:\n        memory:\n          value: 81559Mi\n", g, 0x18+g*0x10, 0x15+g/4*0x80, n, g)
		}
	}
	b.WriteString("kind: List\nmetadata:\n  resourceVersion: \"\"\n")
	if b.Len() <= cluster.MaxInput {
		t.Fatalf("%d bytes: not past cluster.MaxInput", b.Len())
	}
	file := filepath.Join(t.TempDir(), "slices.yaml")
	if err := os.WriteFile(file, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI("check", "--params", "7", "--driver", "nvidia", "--count", "8", "--slices", file)
	if code != 0 || !strings.Contains(out, "allocatable on node node-0000: model gets gpu-0, gpu-1, gpu-2, gpu-3, gpu-4, gpu-5, gpu-6, gpu-7") || strings.Count(out, " yes ") != 8000 {
		t.Fatalf("exit %d, stderr %q, stdout ends %q", code, errOut, out[max(0, len(out)-300):])
	}
}

const (
	busySlices = "../../cluster/testdata/busy.yaml"
	busyClaims = "../../cluster/testdata/busy-claims.yaml"
)

// check --claims: devices the cluster's claims hold are not free; --json prints the engine's
// report for the same target, slices and claims, and the exit code follows the verdict.
func TestCheckClaims(t *testing.T) {
	// 70B at Q4_K_M on NVIDIA, three devices: node-g has four H100s of which ml/train-0 holds two.
	_, _, claims, want := busytest.Check(t, "p=70&drv=nvidia&n=3")
	out, _, code := runCLI("check", "--slices", busySlices, "--claims", busyClaims, "--params", "70", "--driver", "nvidia", "--count", "3", "--json")
	if code != exitNotAllocatable || out != want.JSON() || want.Allocatable || !strings.Contains(out, `"allocatedTo": "ml/train-0"`) {
		t.Fatalf("exit %d:\n%s\nwant:\n%s", code, out, want.JSON())
	}
	// Without --claims the same three fit on node-g.
	if _, _, code := runCLI("check", "--slices", busySlices, "--params", "70", "--driver", "nvidia", "--count", "3"); code != 0 {
		t.Fatalf("without claims: exit %d", code)
	}
	// Claims from standard input; the table says who holds a device.
	stdin = strings.NewReader(string(claims))
	defer func() { stdin = os.Stdin }()
	out, _, code = runCLI("check", "--slices="+busySlices, "--claims=-", "--permalink", "#p=70&drv=nvidia&n=2")
	if code != 0 || !strings.Contains(out, "allocated to ml/train-0") ||
		!strings.Contains(out, "allocatable on node node-g: model gets gpu-2, gpu-3\n") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

// The partitionable node (cluster/testdata/mig.yaml) with two held MIG partitions: the table says
// which whole GPUs their counter sets leave short, and only gpu-1 is left for two devices to need.
func TestCheckSharedCounters(t *testing.T) {
	const slices, claims = "../../cluster/testdata/mig.yaml", "../../cluster/testdata/mig-claims.yaml"
	out, _, code := runCLI("check", "--slices", slices, "--claims", claims, "--params", "70", "--driver", "nvidia", "--count", "1")
	if code != 0 || !strings.Contains(out, "counter set gpu-0-counters: memory 40Gi left, needs 80Gi") ||
		!strings.Contains(out, "allocatable on node node-m: model gets gpu-1\n") {
		t.Fatalf("one GPU: exit %d:\n%s", code, out)
	}
	out, _, code = runCLI("check", "--slices", slices, "--claims", claims, "--params", "70", "--driver", "nvidia", "--count", "2", "--json")
	if code != exitNotAllocatable || !strings.Contains(out, `"counter set gpu-2-counters: memory 70Gi left, needs 80Gi"`) {
		t.Fatalf("two GPUs: exit %d:\n%s", code, out)
	}
}

const (
	zonesSlices = "../../cluster/testdata/zones.yaml"
	zonesNodes  = "../../cluster/testdata/zones-nodes.yaml"
)

// check --nodes: zones.yaml's node selectors resolve to zones-nodes.yaml's nodes. Four devices
// fit on node gpu-a (its own a0, zone a's z0 and z1, the all-nodes s0); without the nodes each
// selector is a group of its own and the most is zone a's three. --json prints the engine's
// report for the same inputs.
func TestCheckNodes(t *testing.T) {
	slices, err := os.ReadFile(zonesSlices)
	if err != nil {
		t.Fatal(err)
	}
	nodes, err := os.ReadFile(zonesNodes)
	if err != nil {
		t.Fatal(err)
	}
	tg, err := target.ParsePermalink("p=7&drv=llmfit&n=4")
	if err != nil {
		t.Fatal(err)
	}
	want, err := cluster.CheckTargetInputs(tg, cluster.Inputs{Slices: slices, Nodes: nodes})
	if err != nil {
		t.Fatal(err)
	}
	out, _, code := runCLI("check", "--slices", zonesSlices, "--nodes", zonesNodes, "--permalink", "#p=7&drv=llmfit&n=4", "--json")
	if code != 0 || out != want.JSON() || !strings.Contains(out, `"nodes": [`) {
		t.Fatalf("exit %d:\n%s\nwant:\n%s", code, out, want.JSON())
	}
	stdin = strings.NewReader(string(nodes))
	defer func() { stdin = os.Stdin }()
	out, _, code = runCLI("check", "--slices", zonesSlices, "--nodes=-", "--params", "7", "--driver", "llmfit", "--count", "4")
	if code != 0 || !strings.Contains(out, "allocatable on node gpu-a: model gets a0, z0, z1, s0\n") ||
		!strings.Contains(out, "nodes matching topology.kubernetes.io/zone In (a): gpu-a, gpu-b ") ||
		!strings.Contains(out, "on no node: its node selector selects none of the 4 nodes given") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	out, _, code = runCLI("check", "--slices", zonesSlices, "--params", "7", "--driver", "llmfit", "--count", "4")
	if code != exitNotAllocatable || !strings.Contains(out, "the most is 3 on nodes matching topology.kubernetes.io/zone In (a)\n") {
		t.Fatalf("without nodes: exit %d:\n%s", code, out)
	}
}

// check --pod: the workload's pod keeps the claim to the nodes it can be scheduled to. zones-nodes
// with gpu-a tainted NoSchedule and gpu-b cordoned: without the pod both are tried last and gpu-a
// takes the four devices (a0, z0, z1, s0); with fitclaim deploy's own output for the target, whose
// pod tolerates nothing, neither is tried, and the most is gpu-c's two (s0, p0): exit 3, the
// excluded nodes named. zones-pod.yaml's Deployment tolerates the taint and selects gpu-a alone.
func TestCheckPod(t *testing.T) {
	nodes, err := os.ReadFile(zonesNodes)
	if err != nil {
		t.Fatal(err)
	}
	kept := strings.Replace(strings.Replace(string(nodes), "  spec: {podCIDR: 10.244.1.0/24}", "  spec: {taints: [{key: nvidia.com/gpu, effect: NoSchedule}]}", 1),
		"  spec: {podCIDR: 10.244.2.0/24}", "  spec: {unschedulable: true}", 1)
	dir := t.TempDir()
	keptFile := filepath.Join(dir, "nodes.yaml")
	if err := os.WriteFile(keptFile, []byte(kept), 0o644); err != nil {
		t.Fatal(err)
	}
	claimFlags := []string{"Qwen/Qwen3-8B", "--driver", "llmfit", "--count", "4"}
	app, stderr, code := runCLI(append([]string{"deploy"}, claimFlags...)...)
	if code != 0 {
		t.Fatalf("deploy: exit %d: %s", code, stderr)
	}
	appFile := filepath.Join(dir, "app.yaml")
	if err := os.WriteFile(appFile, []byte(app), 0o644); err != nil {
		t.Fatal(err)
	}
	check := append([]string{"check", "--slices", zonesSlices, "--nodes", keptFile}, claimFlags...)
	out, _, code := runCLI(check...)
	if code != 0 || !strings.Contains(out, "allocatable on node gpu-a: model gets a0, z0, z1, s0; the node is tainted") {
		t.Fatalf("without the pod: exit %d:\n%s", code, out)
	}
	out, _, code = runCLI(append(check, "--pod", appFile)...)
	if code != exitNotAllocatable || !strings.Contains(out, "not allocatable: the claim needs 4 matching devices on one node; the most is 2 on node gpu-c; the pod cannot be scheduled to 2 of the 4 nodes given (the notes say why)\n") ||
		!strings.Contains(out, "note: the pod cannot be scheduled to 2 of the 4 nodes given, so the claim is not placed there: gpu-a (tainted nvidia.com/gpu (NoSchedule), which the pod does not tolerate), gpu-b (cordoned (spec.unschedulable), and the pod does not tolerate node.kubernetes.io/unschedulable (NoSchedule))\n") ||
		!strings.Contains(out, `the pod (Deployment "qwen-qwen3-8b-fit")`) {
		t.Fatalf("with fitclaim deploy's pod: exit %d:\n%s", code, out)
	}
	pod, err := os.ReadFile("../../cluster/testdata/zones-pod.yaml")
	if err != nil {
		t.Fatal(err)
	}
	stdin = strings.NewReader(string(pod))
	defer func() { stdin = os.Stdin }()
	out, _, code = runCLI(append(check, "--pod=-", "--json")...)
	want, err := cluster.CheckTargetInputs(mustTarget(t, "m=Qwen%2FQwen3-8B&drv=llmfit&n=4"), cluster.Inputs{Slices: mustRead(t, zonesSlices), Nodes: []byte(kept), Pod: pod})
	if err != nil {
		t.Fatal(err)
	}
	if code != 0 || out != want.JSON() || !strings.Contains(out, "on no node the pod can be scheduled to: its node selector selects only gpu-b") {
		t.Fatalf("with zones-pod.yaml: exit %d:\n%s\nwant:\n%s", code, out, want.JSON())
	}
}

func mustTarget(t *testing.T, query string) target.Target {
	t.Helper()
	tg, err := target.ParsePermalink(query)
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

func mustRead(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// With --json the table's notes go to stderr, the JSON alone to stdout: a script was told
// nothing of what the verdict assumes ("assumes no device is allocated to another claim yet")
// or of the inputs ignored.
func TestCheckJSONNotesOnStderr(t *testing.T) {
	out, errOut, code := runCLI("check", "--slices", "../../cluster/testdata/amd.yaml", "Qwen/Qwen3-8B", "--driver", "amd", "--json")
	if code != 0 || !json.Valid([]byte(out)) {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	table, _, _ := runCLI("check", "--slices", "../../cluster/testdata/amd.yaml", "Qwen/Qwen3-8B", "--driver", "amd")
	var notes []string
	for _, l := range strings.Split(table, "\n") {
		if n, ok := strings.CutPrefix(l, "note: "); ok {
			notes = append(notes, "fitclaim: note: "+n+"\n")
		}
	}
	if len(notes) != 2 || errOut != strings.Join(notes, "") {
		t.Errorf("stderr %q; the table's notes are %q", errOut, notes)
	}
}
