package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/fitclaim/fitclaim/target"
)

// A link's fields the form has no input for (the serving engine, vLLM's flags, an architecture
// override) still size the claim on screen: the page shows the claim the API and the command line
// write for the same link, keeps them through an edit, and Reset to defaults drops them.
// (Dropped, a link with engine=vllm showed the claim sized for llama.cpp's reserve: 18 Gi for
// Qwen3-8B in kv mode where the link's claim, with vLLM's budget at utilization 0.8, asks 30 Gi.)
func TestLinkFieldsWithoutInputsAreKept(t *testing.T) {
	s := serve(t)
	p := newPage(t, s.URL, 1280, 1000)
	tg := targetWith(func(x *target.Target) {
		x.Model, x.Sizing, x.Engine, x.GPUMemoryUtilization = "Qwen/Qwen3-8B", target.SizingKV, "vllm", 0.8
	})
	p.open(target.Permalink(tg))
	want := render(t, tg)
	if !strings.Contains(want.YAML, "vLLM") {
		t.Fatalf("the engine's claim for %q names no vLLM budget:\n%s", target.Permalink(tg), want.YAML)
	}
	got := p.waitText("yaml", func(s string) bool { return s == want.YAML }, "the link's claim, sized for vLLM")
	sameText(t, "claim of a link with engine=vllm", want.YAML, got)

	// A catalog model's layers override (L, kv mode), whose input sits in the hidden custom-size
	// group, sizes the claim too.
	tgL := targetWith(func(x *target.Target) { x.Model, x.Sizing, x.Layers = "Qwen/Qwen3-8B", target.SizingKV, 20 })
	p.run(chromedp.Evaluate(`location.hash = "#`+target.Permalink(tgL)+`"`, nil))
	wantL := render(t, tgL)
	if wantL.YAML == render(t, targetWith(func(x *target.Target) { x.Model, x.Sizing = "Qwen/Qwen3-8B", target.SizingKV })).YAML {
		t.Fatal("L=20 does not change Qwen3-8B's kv claim: the check below proves nothing")
	}
	p.waitText("yaml", func(s string) bool { return s == wantL.YAML }, "the claim with the link's 20 layers")
	// Another model typed in: the 20 layers were Qwen3-8B's, not the new model's.
	p.eval(`document.getElementById("model").value = ""`, nil)
	p.run(chromedp.Click("#model", chromedp.ByQuery), chromedp.SendKeys("#model", "Qwen/Qwen3-4B-Instruct-2507", chromedp.ByQuery),
		chromedp.KeyEvent(kb.Enter))
	want4 := render(t, targetWith(func(x *target.Target) { x.Model, x.Sizing = "Qwen/Qwen3-4B-Instruct-2507", target.SizingKV }))
	p.waitText("yaml", func(s string) bool { return s == want4.YAML }, "another model's claim, without the first model's 20 layers")
	p.run(chromedp.Evaluate(`location.hash = "#`+target.Permalink(tg)+`"`, nil))
	p.waitText("yaml", func(s string) bool { return s == want.YAML }, "the vLLM link's claim again, without the layers")

	// The hardware panel's estimate follows the link's engine too: `fitclaim estimate --engine vllm`.
	tgOn := tg
	tgOn.On = "nvidia-l4"
	frag := target.Permalink(tgOn)
	p.run(chromedp.Evaluate(`location.hash = "#`+frag+`"`, nil))
	wantHW := estimateText(t, frag)
	if !strings.Contains(wantHW, "vLLM") {
		t.Fatalf("the engine's estimate for %q names no vLLM:\n%s", frag, wantHW)
	}
	gotHW := p.waitText("hw-text", func(s string) bool { return s == wantHW }, "the estimate on an L4 under vLLM")
	sameText(t, "estimate of a link with engine=vllm", wantHW, gotHW)

	// An edit keeps them: the address bar still names the engine and the utilization.
	p.run(chromedp.SetValue("#minTps", "25", chromedp.ByQuery),
		chromedp.Evaluate(`document.getElementById("minTps").dispatchEvent(new Event("input", {bubbles: true}))`, nil))
	tg2 := tg
	tg2.MinTps = 25
	want2 := render(t, tg2)
	p.waitText("yaml", func(s string) bool { return s == want2.YAML }, "the edited claim, still sized for vLLM")

	// Reset to defaults drops them with the rest (the model stays).
	p.run(chromedp.Click("#reset", chromedp.ByQuery))
	tg3 := targetWith(func(x *target.Target) { x.Model = "Qwen/Qwen3-8B" })
	want3 := render(t, tg3)
	p.waitText("yaml", func(s string) bool { return s == want3.YAML }, "the default claim after Reset")
	if fr := p.fragment(); strings.Contains(fr, "engine=") || strings.Contains(fr, "gmu=") {
		t.Errorf("address bar %q still names the engine after Reset", fr)
	}
	p.noProblems()
}
