package conformance

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/dynamic-resource-allocation/structured"

	"github.com/fitclaim/fitclaim/cluster"
	"github.com/fitclaim/fitclaim/target"
)

// Shared counters of partitionable devices (KEP-4815): cluster's counter model against the
// allocator with DRAPartitionableDevices on (AllocatorFeatures), on the hand-written MIG node
// (mig.yaml: free, with mig-claims.yaml, with every third device held — the whole GPUs, which
// leaves every partition short —, and with mig-overdrawn-claims.yaml, whose negative counter
// refuses the pool's other GPUs too) and the whole-or-two-halves pool (halves.yaml, where only backtracking finds two).
//
// Device by device: for a one-device claim, cluster says a device matches exactly when the
// allocator, given the slices with every other free device removed (held devices stay: they
// draw on the counters), allocates it. Claim by claim (one to three devices): the verdicts are
// equal, and where the claim is allocatable cluster names the very devices the allocator picks.

// onlyDevice is the slices with every device but keep and the held ones removed: what is left
// for the allocator to pick is keep alone, while the held devices still consume their counters.
func onlyDevice(in []*resourcev1.ResourceSlice, keep cluster.DeviceResult, held func(driver, pool, device string) bool) []*resourcev1.ResourceSlice {
	var out []*resourcev1.ResourceSlice
	for _, s := range in {
		c := s.DeepCopy()
		c.Spec.Devices = nil
		for _, d := range s.Spec.Devices {
			mine := s.Spec.Driver == keep.Driver && s.Spec.Pool.Name == keep.Pool && d.Name == keep.Device
			if mine || held(s.Spec.Driver, s.Spec.Pool.Name, d.Name) {
				c.Spec.Devices = append(c.Spec.Devices, d)
			}
		}
		out = append(out, c)
	}
	return out
}

// picked reads "allocatable on node N: REQUEST gets a, b[; …]" into N and the device names.
func picked(placement string) (node string, devices []string) {
	rest, ok := strings.CutPrefix(placement, "allocatable on node ")
	if !ok {
		return "", nil
	}
	node, rest, _ = strings.Cut(rest, ": ")
	_, list, _ := strings.Cut(rest, " gets ")
	list, _, _ = strings.Cut(list, "; ") // what follows the devices: a note on the node
	return node, strings.Split(list, ", ")
}

func TestSharedCountersAgreeWithKubernetes(t *testing.T) {
	if !AllocatorFeatures.PartitionableDevices {
		t.Fatal("the allocator must have DRAPartitionableDevices on")
	}
	ctx := context.Background()
	dir := filepath.Join(RepoDir, "cluster", "testdata")
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	mig, halves, fleet := read("mig.yaml"), read("halves.yaml"), read("real-fleet.yaml")
	pairs := map[string]clusterPair{
		"real-fleet free":                 {fleet, nil},
		"mig free":                        {mig, nil},
		"mig × mig-claims.yaml":           {mig, read("mig-claims.yaml")},
		"mig × mig-overdrawn-claims.yaml": {mig, read("mig-overdrawn-claims.yaml")},
		"halves free":                     {halves, nil},
	}
	addEveryThirdHeld(t, pairs, map[string][]byte{"mig": mig, "halves": halves, "real-fleet": fleet})
	var targets []target.Target
	for _, drv := range []string{"nvidia", "any", "llmfit"} {
		for _, n := range []int{1, 2, 3} {
			for _, size := range []struct {
				paramsB float64
				quant   string
			}{{7, "F16"}, {30, "Q4_K_M"}, {70, "Q4_K_M"}} {
				tg := target.Default()
				tg.ParamsB, tg.Quant, tg.MinTps, tg.Driver, tg.Count = size.paramsB, size.quant, 10, drv, n
				targets = append(targets, tg)
			}
		}
	}
	devicesChecked, devicesMatch, spent, claims, allocatable := 0, 0, 0, 0, 0
	for _, tg := range targets {
		r, m, ok := claimToCheck(t, tg)
		if !ok {
			continue
		}
		for name, p := range pairs {
			what := name + " × " + claimLabel(tg)
			j, err := judgeInUse(ctx, m, &r, p)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			claims++
			if j.allocatable {
				allocatable++
				node, want := picked(j.rep.Placement)
				var got []string
				for _, a := range j.byNode[node] {
					got = append(got, a.Device)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("%s: allocator picks %v on %s, cluster %q", what, got, node, j.rep.Placement)
				}
			}
			if tg.Count != 1 {
				continue
			}
			held := func(driver, pool, device string) bool {
				return j.state.AllocatedDevices.Has(structured.MakeDeviceID(driver, pool, device))
			}
			for _, d := range j.rep.Devices {
				if d.AllocatedTo != "" {
					continue
				}
				alone, err := AllocateSlicesInUse(ctx, m, onlyDevice(j.slices, d, held), j.state)
				if err != nil {
					t.Fatalf("%s, %s alone: %v", what, d.Device, err)
				}
				got := alone[d.Node] != nil
				if got != d.Matches {
					t.Fatalf("%s: %s alone: allocator allocates %v, cluster matches %v (reasons %q)", what, d.Device, got, d.Matches, d.Reasons)
				}
				devicesChecked++
				if got {
					devicesMatch++
				}
				for _, why := range d.Reasons {
					if strings.HasPrefix(why, "counter set ") {
						spent++
					}
				}
			}
		}
	}
	// Both verdicts, and devices refused for their counters alone, must occur.
	if claims == 0 || allocatable == 0 || allocatable == claims || devicesMatch == 0 || devicesMatch == devicesChecked || spent == 0 {
		t.Fatalf("%d claims (%d allocatable); %d devices (%d match, %d short of counters)", claims, allocatable, devicesChecked, devicesMatch, spent)
	}
	t.Logf("%d claim × cluster pairs agree (%d allocatable); %d devices alone agree (%d match, %d refused for their counters)", claims, allocatable, devicesChecked, devicesMatch, spent)
	confFigure(t, `placement names \(([0-9,]+) pairs`, claims)
	confFigure(t, `placement names \([0-9,]+ pairs, ([0-9,]+) devices`, devicesChecked)
	confFigure(t, `devices, ([0-9,]+) refused for their counters`, spent)
}
