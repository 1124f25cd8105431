package conformance

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	resourcev1 "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/dynamic-resource-allocation/resourceslice/tracker"
	"sigs.k8s.io/yaml"

	"github.com/fitclaim/fitclaim/cluster"
)

// DeviceTaintRules (GA, on by default in 1.37) reach the allocator through the scheduler's
// ResourceSlice tracker, which adds each rule's taint to the devices it selects. Here the real
// tracker (k8s.io/dynamic-resource-allocation resourceslice/tracker, on a fake clientset's
// informers) patches real-fleet.yaml with devicetaintrules.yaml; the allocator runs on what it
// lists, and package cluster, given the slices and the rules in one paste, must agree device
// for device and on the verdict, for every claim of the grid.
func TestDeviceTaintRulesAgreeWithTracker(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := filepath.Join(RepoDir, "cluster", "testdata")
	fleet, err := os.ReadFile(filepath.Join(dir, "real-fleet.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	rulesYAML, err := os.ReadFile(filepath.Join(dir, "devicetaintrules.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var rules resourcev1.DeviceTaintRuleList
	if err := yaml.UnmarshalStrict(rulesYAML, &rules); err != nil {
		t.Fatal(err)
	}
	k8s, err := DecodeSlices(fleet)
	if err != nil {
		t.Fatal(err)
	}
	client := fake.NewClientset()
	for _, s := range k8s {
		if _, err := client.ResourceV1().ResourceSlices().Create(ctx, s, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range rules.Items {
		if _, err := client.ResourceV1().DeviceTaintRules().Create(ctx, &rules.Items[i], metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	factory := informers.NewSharedInformerFactory(client, 10*time.Minute)
	tr, err := tracker.StartTracker(ctx, tracker.Options{
		EnableDeviceTaintRules: true,
		SliceInformer:          factory.Resource().V1().ResourceSlices(),
		TaintInformer:          factory.Resource().V1().DeviceTaintRules(),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Stop()
	factory.Start(ctx.Done())
	factory.WaitForCacheSync(ctx.Done())
	for deadline := time.Now().Add(10 * time.Second); !tr.HasSynced(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the tracker did not sync")
		}
	}
	patched, err := tr.ListPatchedResourceSlices()
	if err != nil {
		t.Fatal(err)
	}
	// In the paste's order, which cluster's report follows.
	order := map[string]int{}
	for i, s := range k8s {
		order[s.Name] = i
	}
	slices.SortFunc(patched, func(a, b *resourcev1.ResourceSlice) int { return order[a.Name] - order[b.Name] })
	tainted := 0
	for _, s := range patched {
		for _, d := range s.Spec.Devices {
			for _, tt := range d.Taints {
				if tt.Key == "example.com/maintenance" || tt.Key == "example.com/watch" {
					tainted++
				}
			}
		}
	}
	if len(patched) != len(k8s) || tainted != 4 { // dgx-h100-1: gpu-2 and gpu-0, in the slices of both generations
		t.Fatalf("tracker: %d slices of %d, %d devices tainted by the rules", len(patched), len(k8s), tainted)
	}
	paste := append(append(append([]byte{}, fleet...), "\n---\n"...), rulesYAML...)
	parsed, err := cluster.Parse(paste)
	if err != nil {
		t.Fatal(err)
	}
	matcher := NewMatcher()
	checked, allocatable := 0, 0
	for _, tg := range clusterTargets(testing.Short()) {
		r, m, alts, ok := oneRequestToCheck(t, tg)
		if !ok {
			continue
		}
		what := "real-fleet × devicetaintrules × " + claimLabel(tg)
		rep := cluster.Judge(&r.Bounds, parsed)
		if err := agreeDevices(ctx, matcher, alts, patched, rep, nil); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		byNode, err := AllocateSlices(ctx, m, patched)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		ok, err = agreeAllocation(byNode, rep)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		checked++
		if ok {
			allocatable++
		}
	}
	t.Logf("%d claims on real-fleet.yaml with its DeviceTaintRules through the tracker, %d allocatable", checked, allocatable)
	if checked < 20 {
		t.Fatalf("only %d claims checked", checked)
	}
}
