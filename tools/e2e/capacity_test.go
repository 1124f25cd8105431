package e2e

import (
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// The capacityRequest field (cap=1) has its select in the form's Claim group, labelled and
// explained from the field table; choosing it writes cap=1 in the address bar and shows the
// engine's claim, which asks capacity.requests.memory; a link with cap=1 selects it.
func TestCapacityRequestField(t *testing.T) {
	s := serve(t)
	p := newPage(t, s.URL, 1280, 1000)
	start := targetWith(func(x *target.Target) { x.Model = exampleModel })
	p.open(target.Permalink(start))
	p.waitText("yaml", nonEmpty, "a claim")
	f, ok := target.ByName("capacityRequest")
	if !ok {
		t.Fatal("no capacityRequest field in the table")
	}
	var label, hint string
	p.eval(`document.querySelector('label[for="capacityRequest"]').textContent`, &label)
	p.eval(`document.getElementById("capacityRequest-hint").textContent`, &hint)
	if label != f.Label || !strings.HasPrefix(hint, "Ask each device's memory floor as capacity.requests.memory") {
		t.Errorf("label %q (want the table's %q), hint %q", label, f.Label, hint)
	}
	var group string
	p.eval(`document.getElementById("capacityRequest").closest("fieldset").querySelector("legend").textContent`, &group)
	if group != "Claim" {
		t.Errorf("the field sits in the %q group, want Claim", group)
	}

	p.eval(`(() => { const s = document.getElementById("capacityRequest"); s.value = "1"; s.dispatchEvent(new Event("change", {bubbles: true})); })()`, nil)
	want := targetWith(func(x *target.Target) { x.Model = exampleModel; x.CapacityRequest = true })
	if got := p.fragment(); got != target.Permalink(want) || !strings.Contains(got, "cap=1") {
		t.Errorf("fragment %q, want %q", got, target.Permalink(want))
	}
	res := render(t, want)
	if !strings.Contains(res.YAML, "capacity:\n") {
		t.Fatalf("the engine's claim asks no capacity:\n%s", res.YAML)
	}
	got := p.waitText("yaml", func(s string) bool { return s == res.YAML }, "the claim that asks its memory as capacity")
	sameText(t, "claim with cap=1", res.YAML, got)

	// A link with cap=1 selects it.
	p2 := newPage(t, s.URL, 1280, 1000)
	p2.open(target.Permalink(want))
	p2.waitText("yaml", func(s string) bool { return s == res.YAML }, "the cap=1 link's claim")
	var value string
	p2.eval(`document.getElementById("capacityRequest").value`, &value)
	if value != "1" {
		t.Errorf("a cap=1 link leaves the select at %q", value)
	}

	// The capacity's name, qualified: the request names llmfit.ai/memory (the example's driver's
	// domain), the address bar says capn=qualified, the claim is the engine's.
	p.eval(`(() => { const s = document.getElementById("capacityName"); s.value = "qualified"; s.dispatchEvent(new Event("change", {bubbles: true})); })()`, nil)
	named := want
	named.CapacityName = target.CapacityQualified
	if got := p.fragment(); got != target.Permalink(named) || !strings.Contains(got, "capn=qualified") {
		t.Errorf("fragment %q, want %q", got, target.Permalink(named))
	}
	res = render(t, named)
	if !strings.Contains(res.YAML, "/memory: ") {
		t.Fatalf("the engine's claim names no qualified capacity:\n%s", res.YAML)
	}
	got = p.waitText("yaml", func(s string) bool { return s == res.YAML }, "the claim that names its capacity qualified")
	sameText(t, "claim with capn=qualified", res.YAML, got)
	p.noProblems()
	p2.noProblems()
}
