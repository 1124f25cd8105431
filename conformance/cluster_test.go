package conformance

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/dynamic-resource-allocation/structured"
	"sigs.k8s.io/yaml"

	"github.com/fitclaim/fitclaim/cluster"
	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
)

// Package cluster judges a cluster's ResourceSlices against a claim without Kubernetes. These
// tests run the same claims over the same slices through Kubernetes' DRA CEL environment and
// the scheduler's structured allocator, and require agreement device for device (which
// alternative's class and selector take it, evaluation errors, taints, pools) and on whether
// the claim can be allocated — and that every device the allocator hands out is one cluster
// says the request can take.

// clusterFixtures are cluster/testdata's slice files, and all of them as one cluster.
func clusterFixtures(t *testing.T) map[string][]byte {
	t.Helper()
	dir := filepath.Join(RepoDir, "cluster", "testdata")
	out := map[string][]byte{}
	var all [][]byte
	for _, name := range []string{"mixed.yaml", "amd.yaml", "llmfit.json", "two-nodes.yaml", "v1beta1.yaml", "pools.yaml"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		out[name] = b
		all = append(all, b)
	}
	out["all"] = bytes.Join(all, []byte("\n---\n"))
	// The drivers' own layouts with kubectl's noise; its MIG node draws on shared counters, which
	// TestClusterInUseAgreesWithKubernetes's device verdicts do not weigh (it leaves this file
	// out; TestSharedCountersAgreeWithKubernetes holds its devices).
	b, err := os.ReadFile(filepath.Join(dir, "real-fleet.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	out["real-fleet.yaml"] = b
	return out
}

// clusterTargets is a grid of claims over sizes, speeds, drivers and counts: floors from 1 Gi to
// several hundred, NVIDIA allow-lists of one to many products, firstAvailable, matchAttribute.
func clusterTargets(short bool) []target.Target {
	sizes := []struct {
		paramsB float64
		quant   string
		tps     float64
	}{
		{1, "Q4_K_M", 20}, {7, "Q4_K_M", 20}, {7, "F16", 20}, {13, "Q8_0", 30}, {20, "Q8_0", 20},
		{30, "Q4_K_M", 20}, {30, "F16", 10}, {70, "Q4_K_M", 20}, {70, "Q8_0", 10}, {120, "Q4_K_M", 10},
		{180, "F16", 5}, {400, "Q4_K_M", 5},
	}
	counts := []int{1, 2, 3}
	if short {
		sizes = sizes[:0:0]
		sizes = append(sizes, struct {
			paramsB float64
			quant   string
			tps     float64
		}{7, "F16", 20}, struct {
			paramsB float64
			quant   string
			tps     float64
		}{70, "Q4_K_M", 20})
		counts = []int{1, 2}
	}
	var out []target.Target
	for _, drv := range fit.DriverNames() {
		for _, n := range counts {
			for _, s := range sizes {
				t := target.Default()
				t.ParamsB, t.Quant, t.MinTps, t.Driver, t.Count = s.paramsB, s.quant, s.tps, drv, n
				out = append(out, t)
			}
		}
	}
	return out
}

// fleetSlicesYAML is the conformance fleet (every accelerator in each layout and every broken
// variant) published as ResourceSlices, written as YAML documents for package cluster.
func fleetSlicesYAML(t *testing.T, fleet Fleet) []byte {
	t.Helper()
	slices := Slices(fleet)
	var docs [][]byte
	for _, s := range slices {
		s.APIVersion, s.Kind = "resource.k8s.io/v1", "ResourceSlice"
		b, err := yaml.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, b)
	}
	return bytes.Join(docs, []byte("---\n"))
}

func TestClusterAgreesWithKubernetes(t *testing.T) {
	ctx := context.Background()
	matcher := NewMatcher()
	clusters := clusterFixtures(t)
	clusters["fleet"] = fleetSlicesYAML(t, testFleet(t))
	checked, allocatable := 0, 0
	for _, tg := range clusterTargets(testing.Short()) {
		r, m, alts, ok := oneRequestToCheck(t, tg)
		if !ok {
			continue
		}
		// Devices at each floor and one step below it (a byte, a MiB, a GB/s), for this claim.
		b := &r.Bounds
		clusters["boundary"] = fleetSlicesYAML(t, append(BoundaryDevices(b.MemoryMi, b.MinBandwidthGBs).Replicate(tg.Count),
			RealBoundaryDevices(b.MemoryMi, b.Products).Replicate(tg.Count)...))
		for name, data := range clusters {
			what := name + " × " + claimLabel(tg)
			k8s, err := DecodeSlices(data)
			if err != nil {
				t.Fatalf("%s: Kubernetes decode: %v", what, err)
			}
			parsed, err := cluster.Parse(data)
			if err != nil {
				t.Fatalf("%s: cluster.Parse: %v", what, err)
			}
			rep := cluster.Judge(&r.Bounds, parsed)
			if err := agreeDevices(ctx, matcher, alts, k8s, rep, nil); err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			byNode, err := AllocateSlices(ctx, m, k8s)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			ok, err := agreeAllocation(byNode, rep)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			checked++
			if ok {
				allocatable++
			}
		}
	}
	// Both verdicts must occur, or the agreement proves little.
	if checked == 0 || allocatable == 0 || allocatable == checked {
		t.Fatalf("%d claim × cluster pairs, %d allocatable", checked, allocatable)
	}
	t.Logf("%d claim × cluster pairs agree (%d allocatable)", checked, allocatable)
	readmeFigure(t, `allocatable over ([0-9,]+) claim × cluster pairs`, checked)
	confFigure(t, `lets that request take \(([0-9,]+) claim × cluster pairs`, checked)
}

func claimLabel(t target.Target) string {
	return fmt.Sprintf("p=%g q=%s tps=%g drv=%s n=%d", t.ParamsB, t.Quant, t.MinTps, t.Driver, t.Count)
}

// agreeDevices compares cluster's verdict on every device with Kubernetes': per alternative the
// DeviceClass and selectors in the DRA CEL environment (and evaluation errors); then whether
// the device matches — some alternative selects it, no NoSchedule/NoExecute taint, its pool
// complete at its newest generation — and which alternative takes it first.
//
// inUse are the devices other claims hold (nil: none given): such a device does not match, and
// cluster must name its claim.
func agreeDevices(ctx context.Context, m *Matcher, alts []Alternative, slices []*resourcev1.ResourceSlice, rep cluster.Report, inUse sets.Set[structured.DeviceID]) error {
	return agreeDevicesOnNodes(ctx, m, alts, slices, rep, inUse, nil)
}

// agreeDevicesOnNodes is agreeDevices with the cluster's nodes (nil: not given): a device no
// node reaches does not match, and a node-selector device lists the nodes its selector selects.
func agreeDevicesOnNodes(ctx context.Context, m *Matcher, alts []Alternative, sliceList []*resourcev1.ResourceSlice, rep cluster.Report, inUse sets.Set[structured.DeviceID], nodes []*corev1.Node) error {
	usable := poolsUsable(sliceList)
	again := republished(sliceList)
	i := 0
	for _, s := range sliceList {
		for _, dev := range s.Spec.Devices {
			if again[s][dev.Name] {
				continue // the same device (driver, pool, name) as the newest generation has it: listed once, there
			}
			if i >= len(rep.Devices) {
				return errorf("cluster has %d devices, Kubernetes more", len(rep.Devices))
			}
			got := rep.Devices[i]
			i++
			id := s.Spec.Driver + "/" + s.Spec.Pool.Name + "/" + dev.Name
			if got.Driver != s.Spec.Driver || got.Pool != s.Spec.Pool.Name || got.Device != dev.Name {
				return errorf("device %d: cluster has %s/%s/%s, Kubernetes %s", i, got.Driver, got.Pool, got.Device, id)
			}
			first := -1
			for k, alt := range alts {
				sel, err := m.SelectorVerdict(ctx, alt, s.Spec.Driver, dev)
				if (err != nil) != got.SelectorError[k] {
					return errorf("%s, %s: CEL error %v, cluster says error %v", id, altName(alt), err, got.SelectorError[k])
				}
				if sel != got.Selected[k] {
					return errorf("%s, %s: CEL selects %v, cluster %v (reasons %q)", id, altName(alt), sel, got.Selected[k], got.Reasons)
				}
				if sel && first < 0 {
					first = k
				}
			}
			held := inUse.Has(structured.MakeDeviceID(s.Spec.Driver, s.Spec.Pool.Name, dev.Name))
			if held != (got.AllocatedTo != "") {
				return errorf("%s: allocated to another claim %v, cluster says allocated to %q", id, held, got.AllocatedTo)
			}
			reached := true
			if nodes != nil {
				on, selector, err := nodesOf(s, dev, nodes)
				if err != nil {
					return errorf("%s: %v", id, err)
				}
				reached = len(on) > 0
				if !selector {
					on = nil // cluster lists the nodes of node-selector devices only
				}
				if !slices.Equal(on, got.Nodes) {
					return errorf("%s: on nodes %q, cluster says %q", id, on, got.Nodes)
				}
			}
			matches := first >= 0 && !blockingTaint(dev) && usable[s] && !held && reached
			if matches != got.Matches {
				return errorf("%s: matches %v, cluster %v (reasons %q)", id, matches, got.Matches, got.Reasons)
			}
			if matches {
				want := alts[first].Request
				if alts[first].SubRequest != "" {
					want += "/" + alts[first].SubRequest
				}
				if got.Request != want {
					return errorf("%s: request %s, cluster %s", id, want, got.Request)
				}
			} else if len(got.Reasons) == 0 {
				return errorf("%s: does not match and cluster gives no reason", id)
			}
		}
	}
	if i != len(rep.Devices) {
		return errorf("cluster has %d devices, Kubernetes %d", len(rep.Devices), i)
	}
	return nil
}

func blockingTaint(d resourcev1.Device) bool {
	for _, t := range d.Taints {
		if t.Effect == resourcev1.DeviceTaintEffectNoSchedule || t.Effect == resourcev1.DeviceTaintEffectNoExecute {
			return true
		}
	}
	return false
}

// poolKey names a pool: the allocator's pools are per driver.
type poolKey struct{ driver, pool string }

func poolOf(s *resourcev1.ResourceSlice) poolKey { return poolKey{s.Spec.Driver, s.Spec.Pool.Name} }

// newestGenerations is each pool's newest generation among the slices: the one the allocator
// reads (poolsUsable) and the one that replaces the older ones' devices (republished).
func newestGenerations(slices []*resourcev1.ResourceSlice) map[poolKey]int64 {
	newest := map[poolKey]int64{}
	for _, s := range slices {
		if g, ok := newest[poolOf(s)]; !ok || s.Spec.Pool.Generation > g {
			newest[poolOf(s)] = s.Spec.Pool.Generation
		}
	}
	return newest
}

// poolsUsable says of each slice whether the allocator takes devices from it: its pool's newest
// generation, all resourceSliceCount slices present, no device name twice.
func poolsUsable(slices []*resourcev1.ResourceSlice) map[*resourcev1.ResourceSlice]bool {
	newest := newestGenerations(slices)
	count := map[poolKey]int64{}
	names := map[poolKey]map[string]int{}
	for _, s := range slices {
		k := poolOf(s)
		if s.Spec.Pool.Generation == newest[k] {
			count[k]++
			if names[k] == nil {
				names[k] = map[string]int{}
			}
			for _, d := range s.Spec.Devices {
				names[k][d.Name]++
			}
		}
	}
	out := map[*resourcev1.ResourceSlice]bool{}
	for _, s := range slices {
		k := poolOf(s)
		ok := s.Spec.Pool.Generation == newest[k] && count[k] == s.Spec.Pool.ResourceSliceCount
		for _, n := range names[k] {
			ok = ok && n == 1
		}
		out[s] = ok
	}
	return out
}

// republished is, for each slice of a replaced generation of its pool, the names of its devices
// the pool's newest generation publishes again: the same devices, by the allocator's device ID.
func republished(slices []*resourcev1.ResourceSlice) map[*resourcev1.ResourceSlice]map[string]bool {
	newest := newestGenerations(slices)
	names := map[poolKey]map[string]bool{}
	for _, s := range slices {
		k := poolOf(s)
		if s.Spec.Pool.Generation == newest[k] {
			if names[k] == nil {
				names[k] = map[string]bool{}
			}
			for _, d := range s.Spec.Devices {
				names[k][d.Name] = true
			}
		}
	}
	out := map[*resourcev1.ResourceSlice]map[string]bool{}
	for _, s := range slices {
		k := poolOf(s)
		if s.Spec.Pool.Generation < newest[k] {
			out[s] = names[k]
		}
	}
	return out
}

// agreeAllocation: the claim is allocatable on some node for the allocator exactly when cluster
// says so, and every device the allocator hands out is one cluster lets that request take.
func agreeAllocation(byNode map[string][]Allocated, rep cluster.Report) (bool, error) {
	k8s := false
	for node, got := range byNode {
		if got == nil {
			continue
		}
		k8s = true
		for _, a := range got {
			found := false
			for _, d := range rep.Devices {
				if d.Driver == a.Driver && d.Pool == a.Pool && d.Device == a.Device && (d.Node == node || d.Node == cluster.AllNodes || slices.Contains(d.Nodes, node)) {
					found = true
					k := requestIndex(a.Request, rep)
					if k < 0 || !d.Alternatives[k] {
						return false, errorf("allocator gave %+v on %s; cluster says that request cannot take it (%q)", a, node, d.Reasons)
					}
				}
			}
			if !found {
				return false, errorf("allocator gave %+v on %s, a device cluster does not list there", a, node)
			}
		}
	}
	if k8s != rep.Allocatable {
		return false, errorf("allocator: allocatable %v (%v); cluster %v: %s", k8s, byNode, rep.Allocatable, rep.Placement)
	}
	return k8s, nil
}

// requestIndex finds the alternative named as allocation results name it.
func requestIndex(request string, rep cluster.Report) int {
	for k, name := range rep.Requests {
		if name == request {
			return k
		}
	}
	return -1
}

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }

// TestClusterCELErrorsAgree: on devices where a selector's evaluation fails in Kubernetes' CEL
// environment (a string where an int is compared, an int used as a bool, NVIDIA's class
// reading a missing type), cluster says so, and where another clause is false it says false.
func TestClusterCELErrorsAgree(t *testing.T) {
	ctx := context.Background()
	data, err := os.ReadFile(filepath.Join(RepoDir, "cluster", "testdata", "cel-errors.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	k8s, err := DecodeSlices(data)
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := cluster.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	errorsSeen := 0
	for _, drv := range []string{fit.DriverLlmfit, fit.DriverNVIDIA, fit.DriverAny} {
		tg := target.Default()
		tg.ParamsB, tg.Driver = 7, drv
		r, m := renderManifest(t, tg)
		reqs, err := Requests(m)
		if err != nil {
			t.Fatal(err)
		}
		rep := cluster.Judge(&r.Bounds, parsed)
		if err := agreeDevices(ctx, NewMatcher(), reqs[0].Alternatives, k8s, rep, nil); err != nil {
			t.Fatalf("%s: %v", drv, err)
		}
		for _, d := range rep.Devices {
			if d.CELError {
				errorsSeen++
			}
		}
	}
	if errorsSeen == 0 {
		t.Fatal("no CEL errors seen: the fixture tests nothing")
	}
}
