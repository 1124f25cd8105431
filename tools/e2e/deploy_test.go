package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/fitclaim/fitclaim/deploy"
	"github.com/fitclaim/fitclaim/target"
)

// deployed is what the Go engine's deploy gives for a target.
func deployed(t *testing.T, tg target.Target) deploy.Result {
	t.Helper()
	r, err := deploy.Render(tg)
	if err != nil {
		t.Fatalf("deploy: %v", err)
	}
	return r
}

// The Deployment tab shows the engine's deploy output for the claim on screen, its verdict line
// and API link; choosing llama.cpp re-renders it; the keyboard reaches the tab from JSON.
func TestDeploymentTab(t *testing.T) {
	s := serve(t)
	p := newPage(t, s.URL, 1280, 1000)
	tg := targetWith(func(x *target.Target) {
		x.Model, x.Sizing, x.Context, x.Sequences, x.Driver = "Qwen/Qwen3-8B", target.SizingKV, 4096, 2, "nvidia"
	})
	p.open(target.Permalink(tg))
	p.waitText("yaml", nonEmpty, "a claim")

	p.run(chromedp.Click("#tab-deploy", chromedp.ByQuery))
	var sel string
	p.eval(`document.getElementById("tab-deploy").getAttribute("aria-selected")`, &sel)
	if sel != "true" || !p.visible("deploy-yaml") || p.visible("yaml") {
		t.Fatalf("the Deployment tab is not shown after a click (aria-selected %q)", sel)
	}
	want := deployed(t, tg)
	got := p.waitText("deploy-yaml", func(s string) bool { return s == want.YAML }, "the engine's deploy YAML (vLLM)")
	sameText(t, "deploy YAML", want.YAML, got)
	if got := p.text("deploy-summary"); got != want.Summary || !strings.HasPrefix(got, "vLLM ") {
		t.Errorf("summary %q, want %q", got, want.Summary)
	}
	api := s.URL + "/api/v1/deploy.yaml?" + want.Query
	if got := p.text("deploy-api-link"); got != api {
		t.Errorf("API link %q, want %q", got, api)
	}
	if got := p.text("deploy-apply"); got != "kubectl apply -f '"+api+"'" {
		t.Errorf("kubectl line %q", got)
	}
	// Download and copy, through the claim's own buttons' code.
	if data, ok := p.download("#deploy-download", want.Name+".yaml"); ok {
		sameText(t, "downloaded deploy file", want.YAML, string(data))
	}
	if clip, ok := p.copied(s, "#deploy-copy"); ok && clip != want.YAML {
		t.Errorf("clipboard after Copy on the Deployment tab: %s", diff(want.YAML, clip))
	}
	// The cluster panel's "Use this claim's Deployment" puts the same YAML in its workload box.
	p.run(chromedp.Click("#pod-from-deploy", chromedp.ByQuery))
	quoted, err := json.Marshal(want.YAML)
	if err != nil {
		t.Fatal(err)
	}
	p.waitEval(`document.getElementById("pod").value === `+string(quoted), "the workload box to hold the Deployment tab's YAML")
	if got := p.text("copied"); got != "Deployment YAML copied" {
		t.Errorf("after Copy the page says %q", got)
	}

	// llama.cpp's server instead.
	p.run(chromedp.SetValue("#deploy-engine", "llama.cpp", chromedp.ByQuery),
		chromedp.Evaluate(`document.getElementById("deploy-engine").dispatchEvent(new Event("change"))`, nil))
	tl := tg
	tl.Engine = "llama.cpp"
	wantL := deployed(t, tl)
	got = p.waitText("deploy-yaml", func(s string) bool { return s == wantL.YAML }, "the engine's deploy YAML (llama.cpp)")
	sameText(t, "llama.cpp deploy YAML", wantL.YAML, got)
	if !strings.Contains(got, `- "--parallel"`) || p.text("deploy-summary") != wantL.Summary {
		t.Errorf("llama.cpp output or summary wrong: %q", p.text("deploy-summary"))
	}

	// A new claim on screen re-renders the tab.
	tg2 := tl
	tg2.Count = 2
	p.run(chromedp.Evaluate(`location.hash = "#`+target.Permalink(targetWith(func(x *target.Target) { *x = tg2; x.Engine = "" }))+`"`, nil))
	want2 := deployed(t, tg2)
	p.waitText("deploy-yaml", func(s string) bool { return s == want2.YAML }, "the deploy YAML of the new claim")

	// A new link that names vLLM: the claim on screen is sized for vLLM, and the tab runs vLLM
	// again rather than the llama.cpp chosen for the link before.
	tg3 := tg2
	tg3.Engine = "vllm"
	p.run(chromedp.Evaluate(`location.hash = "#`+target.Permalink(tg3)+`"`, nil))
	claim3, want3 := render(t, tg3), deployed(t, tg3)
	p.waitText("yaml", func(s string) bool { return s == claim3.YAML }, "the claim sized for vLLM")
	p.waitText("deploy-yaml", func(s string) bool { return s == want3.YAML }, "the deploy YAML of the link's vLLM")
	if sum := p.text("deploy-summary"); !strings.HasPrefix(sum, "vLLM ") {
		t.Errorf("after a link naming vLLM the summary says %q", sum)
	}

	// Keyboard: ArrowRight from JSON selects the Deployment tab.
	p.run(chromedp.Click("#tab-json", chromedp.ByQuery), chromedp.Focus("#tab-json", chromedp.ByQuery), chromedp.KeyEvent(kb.ArrowRight))
	p.eval(`document.getElementById("tab-deploy").getAttribute("aria-selected") + " " + document.activeElement.id`, &sel)
	if sel != "true tab-deploy" {
		t.Errorf("ArrowRight on the JSON tab: %q, want the Deployment tab selected and focused", sel)
	}
	p.screenshot("deployment-tab.png")
	p.noProblems()
}

// A link that names the engine and the image (#…&engine=llama.cpp&image=…) opens the
// Deployment tab with them chosen, and the tab shows the engine's output for that link.
func TestDeploymentTabFromLink(t *testing.T) {
	s := serve(t)
	p := newPage(t, s.URL, 1280, 1000)
	tg := targetWith(func(x *target.Target) {
		x.Model, x.Sizing, x.Context, x.Engine, x.Image = "Qwen/Qwen3-8B", target.SizingKV, 2048, "llama.cpp", "registry.example/llama.cpp:server-cuda12-b1"
	})
	p.open(target.Permalink(tg))
	p.waitText("yaml", nonEmpty, "a claim")
	p.run(chromedp.Click("#tab-deploy", chromedp.ByQuery))
	want := deployed(t, tg)
	got := p.waitText("deploy-yaml", func(s string) bool { return s == want.YAML }, "the engine's deploy YAML for the link's engine and image")
	sameText(t, "deploy YAML", want.YAML, got)
	var engine, image string
	p.eval(`document.getElementById("deploy-engine").value`, &engine)
	p.eval(`document.getElementById("deploy-image").value`, &image)
	if engine != tg.Engine || image != tg.Image {
		t.Errorf("controls %q %q, want the link's %q %q", engine, image, tg.Engine, tg.Image)
	}
	p.noProblems()
}
