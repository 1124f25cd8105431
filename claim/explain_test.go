package claim

import (
	"reflect"
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
)

func TestExplainLlmfit(t *testing.T) {
	r := renderLink(t, "m=NousResearch%2FLlama-2-7b-chat-hf&tps=30&eff=60")
	e := Explain(&r)
	// 6,738,417,664 parameters × 0.58 bytes (Q4_K_M, the entry's own) = 3.908 GB of weights;
	// memory = max(3.5 GB, the entry's min VRAM, 3.908) → 4 Gi; bandwidth = ceil(30 × 3.908 × 100
	// / 60) = ceil(195.41) = 196 GB/s.
	if want := "ResourceClaim nousresearch-llama-2-7b-chat-hf-fit: a device with ≥ 4 Gi of memory and ≥ 196 GB/s of bandwidth, from device class llmfit.ai."; e.Summary != want {
		t.Errorf("summary:\n got %s\nwant %s", e.Summary, want)
	}
	want := []Line{
		{"Model", "NousResearch/Llama-2-7b-chat-hf (6.7B params, Q4_K_M ≈ 3.9 GB weights)"},
		{"Speed", "tok/s ≈ bandwidth × 60% / 3.9 GB  ⇒  bandwidth ≥ 196 GB/s for ≥ 30 tok/s"},
		{"Memory floor", "≥ 4 Gi (weights + KV/runtime headroom)"},
	}
	if !reflect.DeepEqual(e.Lines, want) {
		t.Errorf("lines:\n got %q\nwant %q", e.Lines, want)
	}
	if e.Split != nil {
		t.Errorf("a 7B model needs no split: %+v", e.Split)
	}
}

func TestExplainSplit(t *testing.T) {
	tg := target.Default()
	tg.ParamsB, tg.Template = 405, true
	r, err := Render(tg)
	if err != nil {
		t.Fatal(err)
	}
	e := Explain(&r)
	// 405 B × 0.58 = 234.9 GB; a custom model is an override: × 1.2 = 281.88 → 282 Gi;
	// ceil(20 × 234.9 × 100 / 55) = ceil(8541.8) = 8542 GB/s. No device has 8542 GB/s; two B200
	// (8000 GB/s each) need 141 Gi and ceil(8541.8 / (2 × 0.9)) = 4746 GB/s each.
	if want := "ResourceClaimTemplate custom-405b-fit: a device with ≥ 282 Gi of memory and ≥ 8542 GB/s of bandwidth, from device class llmfit.ai."; e.Summary != want {
		t.Errorf("summary:\n got %s\nwant %s", e.Summary, want)
	}
	if e.Split == nil || *e.Split != (Split{Count: 2, Accelerator: "NVIDIA B200", Text: "No single device meets both floors; 2 × NVIDIA B200 would."}) {
		t.Errorf("split: %+v", e.Split)
	}
}

func TestVerdictWords(t *testing.T) {
	fits := fit.Match{FitsMemory: true, FitsBandwidth: true}
	picked := fits
	picked.Selected = true
	slow := fit.Match{FitsMemory: true}
	for _, c := range []struct {
		matches []fit.Match
		count   int
		want    string
	}{
		{[]fit.Match{picked, picked, slow}, 1, "2 of 3 catalog accelerators meet both floors."},
		{[]fit.Match{picked, fits, slow}, 1, "2 of 3 catalog accelerators meet both floors; 1 of them is one this claim's driver can select."},
		{[]fit.Match{picked, picked, fits, fits}, 2, "4 of 4 catalog accelerators meet both floors with 2 devices; 2 of them are ones this claim's driver can select."},
		{[]fit.Match{slow}, 1, "0 of 1 catalog accelerators meet both floors."},
	} {
		if got := verdict(c.matches, c.count); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
}

func TestSplitProposal(t *testing.T) {
	a := func(name string, n int) fit.Match {
		return fit.Match{Accelerator: &catalog.Accelerator{Name: name}, DevicesNeeded: n, Selectable: true}
	}
	if m, ok := SplitProposal([]fit.Match{a("x", 0), a("y", 4), a("z", 2), a("w", 2)}); !ok || m.Accelerator.Name != "z" {
		t.Errorf("fewest devices, first of equals: %+v %v", m, ok)
	}
	// A product the driver cannot select is never proposed, however few it needs.
	other := a("v", 1)
	other.Selectable = false
	if m, ok := SplitProposal([]fit.Match{other, a("y", 4)}); !ok || m.Accelerator.Name != "y" {
		t.Errorf("unselectable proposed: %+v %v", m, ok)
	}
	if _, ok := SplitProposal([]fit.Match{a("x", 0)}); ok {
		t.Error("none would, even 8")
	}
	fits := a("f", 1)
	fits.FitsMemory, fits.FitsBandwidth = true, true
	if _, ok := SplitProposal([]fit.Match{a("y", 2), fits}); ok {
		t.Error("one fits: no proposal")
	}
}
