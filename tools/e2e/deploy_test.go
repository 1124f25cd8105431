package e2e

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

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
	// The Deployment's file is not the claim's (<claim name>.yaml): both were saved as one name.
	if got := p.text("deploy-download-name"); got != want.Name+"-deployment.yaml" || got == p.text("download-name") {
		t.Errorf("the Deployment's download is named %q (the claim's %q), want %q", got, p.text("download-name"), want.Name+"-deployment.yaml")
	}
	if data, ok := p.download("#deploy-download", want.Name+"-deployment.yaml"); ok {
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

// The Deployment tab's fields (image, trust-remote-code, CPU and memory requests) go into the
// address once the Deployment takes them, so a shared link reopens the same Deployment, and Back
// takes them out again. A value the Deployment refuses (64GB, an image with a space) is said in the
// tab by its field, while the claim keeps rendering and the address keeps the last value taken.
func TestDeploymentTabFieldsInLink(t *testing.T) {
	s := serve(t)
	p := newPage(t, s.URL, 1280, 1000)
	tg := targetWith(func(x *target.Target) {
		x.Model, x.Sizing, x.Context, x.Driver, x.Quant = "Qwen/Qwen3-8B", target.SizingKV, 4096, "nvidia", "BF16"
	})
	claimWant := render(t, tg)
	p.open(target.Permalink(tg))
	p.waitText("yaml", func(s string) bool { return s == claimWant.YAML }, "the claim")
	p.run(chromedp.Click("#tab-deploy", chromedp.ByQuery))
	p.waitText("deploy-yaml", func(s string) bool { return s == deployed(t, tg).YAML }, "the Deployment")

	// addressTarget is the address as the engine reads it.
	addressTarget := func() target.Target {
		tt, err := target.ParsePermalink(p.fragment())
		if err != nil {
			t.Fatalf("the address %q does not parse: %v", p.fragment(), err)
		}
		return tt
	}
	waitAddress := func(ok func(target.Target) bool, what string) {
		t.Helper()
		deadline := time.Now().Add(patient(15 * time.Second))
		for !ok(addressTarget()) {
			if time.Now().After(deadline) {
				t.Fatalf("the address %q never held %s", p.fragment(), what)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	typeInto := func(id, v string) {
		t.Helper()
		q, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		p.run(chromedp.Evaluate(`(() => { const n = document.getElementById("`+id+`"); n.value = `+string(q)+`;
			n.dispatchEvent(new Event("input")); n.dispatchEvent(new Event("change")); })()`, nil))
	}

	want := tg
	want.Image = "registry.example/vllm/vllm-openai:v0.20.0"
	typeInto("deploy-image", want.Image)
	waitAddress(func(a target.Target) bool { return a.Image == want.Image }, "the image")
	p.waitText("deploy-yaml", func(s string) bool { return s == deployed(t, want).YAML }, "the Deployment with the image")

	want.TrustRemoteCode = true
	p.run(chromedp.Click("#deploy-trust", chromedp.ByQuery))
	waitAddress(func(a target.Target) bool { return a.TrustRemoteCode }, "trc=1")
	got := p.waitText("deploy-yaml", func(s string) bool { return s == deployed(t, want).YAML }, "the Deployment with --trust-remote-code")
	if !strings.Contains(got, `- "--trust-remote-code"`) {
		t.Errorf("no --trust-remote-code in the tab's YAML")
	}

	want.CPURequest = "8"
	typeInto("deploy-cpu", "8")
	waitAddress(func(a target.Target) bool { return a.CPURequest == "8" }, "cpu=8")
	want.MemoryRequest = "64Gi"
	typeInto("deploy-memory", " 64Gi ")
	waitAddress(func(a target.Target) bool { return a.MemoryRequest == "64Gi" }, "mem=64Gi")
	got = p.waitText("deploy-yaml", func(s string) bool { return s == deployed(t, want).YAML }, "the Deployment with its requests")
	if !strings.Contains(got, "            requests:\n              cpu: \"8\"\n              memory: \"64Gi\"\n") {
		t.Errorf("no requests in the tab's YAML")
	}
	if a := addressTarget(); a != want {
		t.Errorf("the address is %q, want %q", p.fragment(), target.Permalink(want))
	}
	taken := p.fragment()

	// Back, one field at a time: the tab follows the address.
	p.run(chromedp.NavigateBack())
	noMem := want
	noMem.MemoryRequest = ""
	waitAddress(func(a target.Target) bool { return a == noMem }, "the address before the memory request")
	p.waitText("deploy-yaml", func(s string) bool { return s == deployed(t, noMem).YAML }, "the Deployment without its memory request")
	var mem string
	p.eval(`document.getElementById("deploy-memory").value`, &mem)
	if mem != "" {
		t.Errorf("after Back the memory request field holds %q", mem)
	}
	p.run(chromedp.NavigateForward())
	waitAddress(func(a target.Target) bool { return a == want }, "the memory request again, after Forward")
	p.waitText("deploy-yaml", func(s string) bool { return s == deployed(t, want).YAML }, "the Deployment with its memory request again")
	p.eval(`document.getElementById("deploy-memory").value`, &mem)
	if mem != want.MemoryRequest {
		t.Errorf("after Forward the memory request field holds %q", mem)
	}

	// Refused: said in the tab, by the field; the claim renders on; the address keeps what was taken.
	for _, c := range []struct{ id, value, msg string }{
		{"deploy-memory", "64GB", `Memory request (memoryRequest, mem): must be a Kubernetes quantity such as 8, 500m or 64Gi`},
		{"deploy-image", "my image", `Container image (image): must be a container image reference`},
	} {
		typeInto(c.id, c.value)
		msg := p.waitText("deploy-error", func(s string) bool { return strings.Contains(s, c.msg) }, "the tab's message about "+c.value)
		if !p.visible("deploy-error") || !strings.Contains(msg, c.value) {
			t.Errorf("%s: message %q not shown, or not quoting the value", c.value, msg)
		}
		var invalid string
		p.eval(`document.getElementById("`+c.id+`").getAttribute("aria-invalid") + " " + document.getElementById("`+c.id+`").getAttribute("aria-describedby")`, &invalid)
		if !strings.HasPrefix(invalid, "true deploy-error") {
			t.Errorf("%s: the field is not marked (aria-invalid, aria-describedby: %q)", c.value, invalid)
		}
		// an edit of the form meanwhile: the claim follows it, the address keeps the tab's last taken values
		p.run(chromedp.SetValue("#sequences", "2", chromedp.ByQuery),
			chromedp.Evaluate(`document.getElementById("sequences").dispatchEvent(new Event("input"))`, nil))
		seq2 := want
		seq2.Sequences = 2
		p.waitText("yaml", func(s string) bool { return s == render(t, seq2).YAML }, "the claim for 2 sequences beside the tab's refusal")
		if p.visible("result-error") {
			t.Errorf("%s: the claim is refused: %q", c.value, p.text("result-error"))
		}
		waitAddress(func(a target.Target) bool { return a == seq2 }, "the last values the Deployment took, with the form's edit")
		p.run(chromedp.SetValue("#sequences", "", chromedp.ByQuery),
			chromedp.Evaluate(`document.getElementById("sequences").dispatchEvent(new Event("input"))`, nil))
		waitAddress(func(a target.Target) bool { return a == want }, "the sequences back to 1")
		typeInto(c.id, map[string]string{"deploy-memory": want.MemoryRequest, "deploy-image": want.Image}[c.id])
		p.waitText("deploy-yaml", func(s string) bool { return s == deployed(t, want).YAML && !p.visible("deploy-error") }, "the Deployment again")
	}
	if p.fragment() != taken {
		t.Errorf("the address moved to %q, want %q", p.fragment(), taken)
	}

	p.screenshot("deployment-fields.png")

	// Shared: the link opens the same Deployment, with the tab's fields set.
	q := p.newTab(1280, 1000)
	q.open(taken)
	q.run(chromedp.Click("#tab-deploy", chromedp.ByQuery))
	q.waitText("deploy-yaml", func(s string) bool { return s == deployed(t, want).YAML }, "the shared link's Deployment")
	var fields string
	q.eval(`["deploy-image", "deploy-cpu", "deploy-memory"].map((id) => document.getElementById(id).value).join(" ") + " " + document.getElementById("deploy-trust").checked`, &fields)
	if fields != want.Image+" 8 64Gi true" {
		t.Errorf("the shared link's tab holds %q", fields)
	}
	q.noProblems()
	p.noProblems()
}

// A model vLLM cannot load without --trust-remote-code (its model_type, internvl_chat, is one neither
// transformers nor vLLM knows): the tab says vLLM does not start and names the fix; ticking
// "Trust remote code" takes that reason away. The words are the Go engine's, as everywhere.
func TestDeploymentTabTrustRemoteCode(t *testing.T) {
	s := serve(t)
	p := newPage(t, s.URL, 1280, 1000)
	tg := targetWith(func(x *target.Target) {
		x.Model, x.Sizing, x.Context, x.Driver, x.Quant = "OpenGVLab/InternVL2_5-8B", target.SizingKV, 4096, "nvidia", "BF16"
	})
	p.open(target.Permalink(tg))
	p.waitText("yaml", nonEmpty, "a claim")
	p.run(chromedp.Click("#tab-deploy", chromedp.ByQuery))
	want := deployed(t, tg)
	if want.Starts || !strings.Contains(want.Summary, "set trustRemoteCode (--trust-remote-code) if you trust OpenGVLab/InternVL2_5-8B's code") {
		t.Fatalf("the engine starts InternVL2.5 without trustRemoteCode: %q", want.Summary)
	}
	p.waitText("deploy-yaml", func(s string) bool { return s == want.YAML }, "the Deployment without trustRemoteCode")
	var bad bool
	p.eval(`document.getElementById("deploy-summary").classList.contains("bad")`, &bad)
	if got := p.text("deploy-summary"); got != want.Summary || !bad {
		t.Errorf("summary %q (marked bad: %v), want %q", got, bad, want.Summary)
	}

	on := tg
	on.TrustRemoteCode = true
	wantOn := deployed(t, on)
	p.run(chromedp.Click("#deploy-trust", chromedp.ByQuery))
	p.waitText("deploy-yaml", func(s string) bool { return s == wantOn.YAML }, "the Deployment with trustRemoteCode")
	if got := p.text("deploy-summary"); got != wantOn.Summary || strings.Contains(got, "trustRemoteCode") {
		t.Errorf("with trustRemoteCode the summary is %q, want %q", got, wantOn.Summary)
	}

	// A model vLLM loads without it: the tab's list says trustRemoteCode runs its Python for nothing.
	llama := on
	llama.Model = "meta-llama/Llama-3.1-8B-Instruct"
	wantL := deployed(t, llama)
	p.run(chromedp.Evaluate(`location.hash = "#`+target.Permalink(llama)+`"`, nil))
	p.waitText("deploy-yaml", func(s string) bool { return s == wantL.YAML }, "the Deployment of Llama 3.1 8B with trustRemoteCode")
	var items []string
	p.eval(`[...document.querySelectorAll("#deploy-problems li")].map((li) => li.textContent)`, &items)
	if !slices.Equal(items, wantL.Problems) || !slices.ContainsFunc(items, func(s string) bool { return strings.Contains(s, "Python for nothing") }) {
		t.Errorf("the tab lists %q, want %q", items, wantL.Problems)
	}
	p.noProblems()
}
