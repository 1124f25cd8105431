package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/fitclaim/fitclaim/cluster"
	"github.com/fitclaim/fitclaim/deploy"
	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
)

// paste puts text into the slices box as a paste does (the value, then an input event).
func (p *page) paste(text string) {
	p.t.Helper()
	p.pasteInto("slices", text)
}

// pasteInto puts text into the box with the id as a paste does.
func (p *page) pasteInto(id, text string) {
	p.t.Helper()
	js, err := json.Marshal(text)
	if err != nil {
		p.t.Fatal(err)
	}
	var ok bool
	p.eval(`(() => { const a = document.getElementById("`+id+`"); a.focus(); a.value = `+string(js)+`;
		a.dispatchEvent(new Event("input", {bubbles: true})); return true; })()`, &ok)
}

// tableRows reads the cluster panel's table as "node|driver|pool|device|yes or no|request or reasons".
func (p *page) tableRows() []string {
	p.t.Helper()
	var rows []string
	p.eval(`Array.from(document.querySelectorAll("#cluster-devices tr")).map((tr) =>
		Array.from(tr.children).map((c) => c.textContent).join("|"))`, &rows)
	return rows
}

func engineRows(r cluster.Report) []string {
	var rows []string
	for _, d := range r.Devices {
		v := "no|" + strings.Join(d.Reasons, "; ")
		if d.Matches {
			v = "yes|" + d.Request
			if d.Share != "" {
				v += "; " + d.Share
			}
		}
		node := d.Node
		if len(d.Nodes) > 0 { // a node-selector device placed on the nodes given
			node += ": " + strings.Join(d.Nodes, ", ")
		}
		rows = append(rows, node+"|"+d.Driver+"|"+d.Pool+"|"+d.Device+"|"+v)
	}
	return rows
}

// The cluster panel: pasted slices are judged by the second engine, device by device and as a
// whole, exactly as the Go engine judges them; a new claim re-checks them; bad slices give the
// engine's message and leave the claim on show; nothing is sent anywhere.
func TestClusterPanel(t *testing.T) {
	tg := targetWith(func(x *target.Target) { x.ParamsB, x.Driver, x.Count = 70, fit.DriverNVIDIA, 2 })
	p, _ := showClaim(t, tg)

	slices, err := os.ReadFile(filepath.Join(repoRoot(t), "cluster", "testdata", "mixed.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := cluster.CheckTarget(tg, slices)
	if err != nil {
		t.Fatal(err)
	}
	p.paste(string(slices))
	p.waitText("cluster-verdict", func(s string) bool { return s == rep.Placement }, "the engine's placement: "+rep.Placement)
	if got, want := p.tableRows(), engineRows(rep); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("table:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !p.visible("cluster-devices") || !strings.Contains(p.text("cluster-hint"), "never leave") {
		t.Errorf("the table is not shown, or the panel does not say the slices stay in the browser")
	}
	p.run(chromedp.ScrollIntoView("#cluster", chromedp.ByQuery))
	p.screenshot("cluster-panel.png")

	// Three devices of one product: no node has them; the same slices are checked again.
	tg3 := tg
	tg3.Count = 3
	rep3, err := cluster.CheckTarget(tg3, slices)
	if err != nil {
		t.Fatal(err)
	}
	p.open(target.Permalink(tg3))
	p.waitText("yaml", func(s string) bool { return s == render(t, tg3).YAML }, "the 3-device claim")
	p.waitText("cluster-verdict", func(s string) bool { return s == rep3.Placement }, "the new placement: "+rep3.Placement)

	// Bad slices: the engine's message; the claim stays.
	_, badErr := cluster.CheckTarget(tg3, []byte(strings.Replace(string(slices), "value: 81559Mi", "value: lots", 1)))
	if badErr == nil {
		t.Fatal("capacity lots accepted")
	}
	p.paste(strings.Replace(string(slices), "value: 81559Mi", "value: lots", 1))
	p.waitText("cluster-error", func(s string) bool { return s == badErr.Error() }, badErr.Error())
	if p.visible("cluster-devices") || !p.visible("yaml") || p.text("yaml") != render(t, tg3).YAML {
		t.Errorf("bad slices: the old table is still shown, or the claim is gone")
	}

	var sent []string
	p.eval(`performance.getEntriesByType("resource").map((e) => e.name).filter((n) => !n.includes("/assets/"))`, &sent)
	for _, u := range sent {
		if strings.Contains(u, "/api/") {
			t.Errorf("the page sent a request: %s", u)
		}
	}
	p.noProblems()
}

// The cluster panel's claims box: the devices the pasted claims hold are busy, the verdict,
// table and count are the Go engine's for the same slices and claims; bad claims give the
// engine's message; emptying the box frees the devices again.
func TestClusterPanelClaims(t *testing.T) {
	// 70B at Q4_K_M on NVIDIA, three devices: busy.yaml's node-g has four H100s, two of them
	// held by ml/train-0 in busy-claims.yaml.
	tg := targetWith(func(x *target.Target) { x.ParamsB, x.Driver, x.Count = 70, fit.DriverNVIDIA, 3 })
	p, _ := showClaim(t, tg)

	dir := filepath.Join(repoRoot(t), "cluster", "testdata")
	slices, err := os.ReadFile(filepath.Join(dir, "busy.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	claims, err := os.ReadFile(filepath.Join(dir, "busy-claims.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	free, err := cluster.CheckTarget(tg, slices)
	if err != nil {
		t.Fatal(err)
	}
	busy, err := cluster.CheckTargetInUse(tg, slices, claims)
	if err != nil {
		t.Fatal(err)
	}
	if !free.Allocatable || busy.Allocatable {
		t.Fatalf("fixtures: allocatable %v free, %v with the claims", free.Allocatable, busy.Allocatable)
	}
	p.paste(string(slices))
	p.waitText("cluster-verdict", func(s string) bool { return s == free.Placement }, "every device free: "+free.Placement)

	p.pasteInto("claims", string(claims))
	p.waitText("cluster-verdict", func(s string) bool { return s == busy.Placement }, "with the claims: "+busy.Placement)
	if got, want := p.tableRows(), engineRows(busy); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("table:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// 6 devices; 3 match (node-g's gpu-2, gpu-3, node-h's gpu-0); 3 held (gpu-0, gpu-1 of node-g by
	// ml/train-0, node-h's gpu-1 by infra/h-0; ml/debug's admin access holds nothing).
	if got := p.text("cluster-count"); got != "6 devices, 3 matching, 3 allocated to other claims" {
		t.Errorf("count: %q", got)
	}
	p.run(chromedp.ScrollIntoView("#cluster", chromedp.ByQuery))
	p.screenshot("cluster-panel-claims.png")

	// Slices pasted into the claims box: the engine's message.
	_, badErr := cluster.CheckTargetInUse(tg, slices, slices)
	if badErr == nil {
		t.Fatal("slices accepted as claims")
	}
	p.pasteInto("claims", string(slices))
	p.waitText("cluster-error", func(s string) bool { return s == badErr.Error() }, badErr.Error())

	// An empty claims box: every device free again.
	p.pasteInto("claims", "")
	p.waitText("cluster-verdict", func(s string) bool { return s == free.Placement }, "free again: "+free.Placement)
	p.noProblems()
}

// The cluster panel's nodes box: with the nodes pasted the claim is placed per real node (the
// node selectors resolve to the nodes their labels select), the verdict and table are the Go
// engine's for the same slices and nodes; bad nodes give the engine's message; emptying the box
// takes each selector as a group of its own again.
func TestClusterPanelNodes(t *testing.T) {
	// 7B on llmfit.ai, four devices: zones.yaml's node gpu-a reaches four (its own a0, zone a's
	// z0 and z1, the all-nodes s0); without the nodes the most is zone a's three.
	tg := targetWith(func(x *target.Target) { x.ParamsB, x.Driver, x.Count = 7, fit.DriverLlmfit, 4 })
	p, _ := showClaim(t, tg)

	dir := filepath.Join(repoRoot(t), "cluster", "testdata")
	slices, err := os.ReadFile(filepath.Join(dir, "zones.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	nodes, err := os.ReadFile(filepath.Join(dir, "zones-nodes.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	groups, err := cluster.CheckTarget(tg, slices)
	if err != nil {
		t.Fatal(err)
	}
	placed, err := cluster.CheckTargetInputs(tg, cluster.Inputs{Slices: slices, Nodes: nodes})
	if err != nil {
		t.Fatal(err)
	}
	if groups.Allocatable || !placed.Allocatable {
		t.Fatalf("fixtures: allocatable %v without the nodes, %v with them", groups.Allocatable, placed.Allocatable)
	}
	p.paste(string(slices))
	p.waitText("cluster-verdict", func(s string) bool { return s == groups.Placement }, "without the nodes: "+groups.Placement)

	p.pasteInto("nodes", string(nodes))
	p.waitText("cluster-verdict", func(s string) bool { return s == placed.Placement }, "with the nodes: "+placed.Placement)
	if got, want := p.tableRows(), engineRows(placed); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("table:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	p.run(chromedp.ScrollIntoView("#cluster", chromedp.ByQuery))
	p.screenshot("cluster-panel-nodes.png")

	// Slices pasted into the nodes box: the engine's message.
	_, badErr := cluster.CheckTargetInputs(tg, cluster.Inputs{Slices: slices, Nodes: slices})
	if badErr == nil {
		t.Fatal("slices accepted as nodes")
	}
	p.pasteInto("nodes", string(slices))
	p.waitText("cluster-error", func(s string) bool { return s == badErr.Error() }, badErr.Error())

	// The workload (zones-pod.yaml: a Deployment among fitclaim deploy's other objects) with the
	// nodes: the claim is placed only where its pod can go (gpu-a), the notes name the nodes left
	// out; a bad workload gives the engine's message.
	pod, err := os.ReadFile(filepath.Join(dir, "zones-pod.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	withPod, err := cluster.CheckTargetInputs(tg, cluster.Inputs{Slices: slices, Nodes: nodes, Pod: pod})
	if err != nil {
		t.Fatal(err)
	}
	p.pasteInto("nodes", string(nodes))
	p.pasteInto("pod", string(pod))
	p.waitText("cluster-notes", func(s string) bool {
		return strings.Contains(s, "the pod cannot be scheduled to 3 of the 4 nodes given")
	}, "the pod's notes")
	if got, want := p.tableRows(), engineRows(withPod); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("table with the pod:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	_, badPod := cluster.CheckTargetInputs(tg, cluster.Inputs{Slices: slices, Nodes: nodes, Pod: nodes})
	if badPod == nil {
		t.Fatal("nodes accepted as a pod")
	}
	p.pasteInto("pod", string(nodes))
	p.waitText("cluster-error", func(s string) bool { return s == badPod.Error() }, badPod.Error())

	// "Use this claim's Deployment" on a custom size, which no Deployment serves: the engine's
	// message, in the panel's error line, and the box left as it was.
	_, noDeploy := deploy.Render(tg)
	if noDeploy == nil {
		t.Fatal("a Deployment for a custom size")
	}
	p.run(chromedp.Click("#pod-from-deploy", chromedp.ByQuery))
	p.waitText("cluster-error", func(s string) bool { return s == noDeploy.Error() }, noDeploy.Error())
	p.pasteInto("pod", "")

	p.pasteInto("nodes", "")
	p.waitText("cluster-verdict", func(s string) bool { return s == groups.Placement }, "groups again: "+groups.Placement)
	p.noProblems()
}

// The cluster panel with devices several claims can share (consumable capacity): a matching
// shared device's row says what this claim's share takes, the claims box's shares use up their
// capacity; verdict, table and notes are the Go engine's.
func TestClusterPanelShares(t *testing.T) {
	// 7B on llmfit.ai, three devices: shared.yaml's node-s has three, but shared-claims.yaml's
	// share of shared-1 took all its 48Gi.
	tg := targetWith(func(x *target.Target) { x.ParamsB, x.Driver, x.Count = 7, fit.DriverLlmfit, 3 })
	p, _ := showClaim(t, tg)

	dir := filepath.Join(repoRoot(t), "cluster", "testdata")
	slices, err := os.ReadFile(filepath.Join(dir, "shared.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	claims, err := os.ReadFile(filepath.Join(dir, "shared-claims.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	free, err := cluster.CheckTarget(tg, slices)
	if err != nil {
		t.Fatal(err)
	}
	held, err := cluster.CheckTargetInUse(tg, slices, claims)
	if err != nil {
		t.Fatal(err)
	}
	if !free.Allocatable || held.Allocatable || free.Devices[0].Share == "" {
		t.Fatalf("fixtures: allocatable %v free, %v with the claims; share %q", free.Allocatable, held.Allocatable, free.Devices[0].Share)
	}
	p.paste(string(slices))
	p.waitText("cluster-verdict", func(s string) bool { return s == free.Placement }, "free: "+free.Placement)
	if got, want := p.tableRows(), engineRows(free); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("table:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	p.pasteInto("claims", string(claims))
	p.waitText("cluster-verdict", func(s string) bool { return s == held.Placement }, "with the shares held: "+held.Placement)
	if got, want := p.tableRows(), engineRows(held); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("table:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var notes []string
	p.eval(`Array.from(document.querySelectorAll("#cluster-notes li")).map((li) => li.textContent)`, &notes)
	if strings.Join(notes, "\n") != strings.Join(held.Notes, "\n") {
		t.Errorf("notes:\n%s\nwant:\n%s", strings.Join(notes, "\n"), strings.Join(held.Notes, "\n"))
	}
	p.run(chromedp.ScrollIntoView("#cluster", chromedp.ByQuery))
	p.screenshot("cluster-panel-shares.png")
	p.noProblems()
}

// The cluster panel on the drivers' own layouts with kubectl's noise (real-fleet.yaml: taints
// of every effect, a republished pool, a half-published one, DynamicMIG, AMD) and
// DeviceTaintRules pasted after them: the table and verdict are the Go engine's, as the command
// line and the API answer; a paste cut short says so.
func TestClusterPanelRealFleet(t *testing.T) {
	tg := targetWith(func(x *target.Target) { x.ParamsB, x.Quant, x.Driver, x.Count = 70, "Q4_K_M", fit.DriverNVIDIA, 7 })
	p, _ := showClaim(t, tg)
	var in []byte
	for _, f := range []string{"real-fleet.yaml", "devicetaintrules.yaml"} {
		b, err := os.ReadFile(filepath.Join(repoRoot(t), "cluster", "testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		in = append(append(in, b...), "\n---\n"...)
	}
	rep, err := cluster.CheckTarget(tg, in)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Allocatable {
		t.Fatalf("the maintenance rule should keep seven GPUs off every node: %s", rep.Placement)
	}
	p.paste(string(in))
	p.waitText("cluster-verdict", func(s string) bool { return s == rep.Placement }, "the engine's placement: "+rep.Placement)
	if got, want := p.tableRows(), engineRows(rep); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("table:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	cut := string(in[:len(in)/3])
	_, cutErr := cluster.CheckTarget(tg, []byte(cut))
	if cutErr == nil || !strings.Contains(cutErr.Error(), "cut short") {
		t.Fatalf("a third of the paste: %v", cutErr)
	}
	p.paste(cut)
	p.waitText("cluster-error", func(s string) bool { return s == cutErr.Error() }, cutErr.Error())
	p.noProblems()
}
