package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/cluster"
	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
)

// A cluster paste the engine cannot read marks the box it is about (the message names it:
// "slices: …", "nodes: …"): aria-invalid, described by the message (role=alert); a good paste
// clears it. Before, the message stood under the four boxes, tied to none of them.
func TestClusterErrorOnItsBox(t *testing.T) {
	tg := targetWith(func(x *target.Target) { x.ParamsB, x.Driver, x.Count = 7, fit.DriverLlmfit, 4 })
	p, _ := showClaim(t, tg)
	dir := filepath.Join(repoRoot(t), "cluster", "testdata")
	slices, err := os.ReadFile(filepath.Join(dir, "zones.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	marked := func() (ids []string) {
		p.eval(`["slices", "claims", "nodes", "pod"].filter((id) => document.getElementById(id).getAttribute("aria-invalid") === "true")`, &ids)
		return
	}
	for _, c := range []struct{ box, text string }{
		{"slices", "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\nspec: {driver: d, pool: {name: p, resourceSliceCount: 1}, nodeName: n, devices: [{name: g, capacity: {memory: {value: lots}}}]}\n"},
		{"nodes", "apiVersion: v1\nkind: Node\nmetadata: 5\n"},
	} {
		var in cluster.Inputs
		in.Slices = slices
		if c.box == "slices" {
			in.Slices = []byte(c.text)
		} else {
			in.Nodes = []byte(c.text)
			p.paste(string(slices))
			p.waitText("cluster-verdict", nonEmpty, "the good slices' verdict")
		}
		_, want := cluster.CheckTargetInputs(tg, in)
		if want == nil || !strings.HasPrefix(want.Error(), c.box+": ") {
			t.Fatalf("%s: the engine says %v", c.box, want)
		}
		p.pasteInto(c.box, c.text)
		p.waitText("cluster-error", func(s string) bool { return s == want.Error() }, "the engine's message: "+want.Error())
		if got := marked(); strings.Join(got, ",") != c.box {
			t.Errorf("%s refused: boxes marked invalid %v, want only %s", c.box, got, c.box)
		}
		if a := p.ax("#" + c.box); a.Props["invalid"] != "true" || !strings.Contains(a.Description, want.Error()) {
			t.Errorf("%s refused: the box tells a screen reader invalid %q, description %q; want true and the message", c.box, a.Props["invalid"], a.Description)
		}
		p.pasteInto(c.box, map[string]string{"slices": string(slices), "nodes": ""}[c.box])
		p.waitText("cluster-verdict", nonEmpty, "a verdict again")
		p.waitEval(`!document.querySelector("#cluster textarea[aria-invalid]")`, "no box marked after a good paste")
		if a := p.ax("#" + c.box); strings.Contains(a.Description, want.Error()) {
			t.Errorf("%s mended: still described by the old message: %q", c.box, a.Description)
		}
	}
	p.noProblems()
}
