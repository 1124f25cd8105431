package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/fitclaim/fitclaim/target"
)

// A link whose claim name or device class is not a DNS-1123 subdomain loses that pair only: the
// message names the field and the pair, and the claim of the rest shows. (Before, the link
// repair kept the name, the render refused it, and the whole link was lost: the example's claim
// stayed on screen under "Claim name (name): must be a DNS-1123 subdomain".)
func TestLinkBadNameKeepsTheRest(t *testing.T) {
	s := serve(t)
	p := newPage(t, s.URL, 1280, 1000)
	qwen := targetWith(func(x *target.Target) { x.Model = "Qwen/Qwen3-8B" })
	want := render(t, qwen)

	p.open("m=Qwen%2FQwen3-8B&name=Bad_Name!")
	msg := p.waitText("link-error", nonEmpty, "a message about name=Bad_Name!")
	if !strings.Contains(msg, "name=Bad_Name!") || !strings.Contains(msg, "Claim name (name): must be a DNS-1123 subdomain") {
		t.Errorf("link message %q does not name the claim name and its pair", msg)
	}
	p.waitText("yaml", func(s string) bool { return s == want.YAML }, "Qwen3-8B's claim without the bad name")
	if p.visible("result-error") {
		t.Errorf("name=Bad_Name!: the claim is refused: %q", p.text("result-error"))
	}
	if !p.visible("name-err") {
		t.Errorf("no message next to the claim name field")
	}

	custom := targetWith(func(x *target.Target) { x.ParamsB = 7 })
	wantCustom := render(t, custom)
	p.run(chromedp.Evaluate(`location.hash = "#p=7&name=%F0%9F%92%A9"`, nil))
	p.waitText("link-error", func(s string) bool { return strings.Contains(s, "Claim name (name)") && strings.Contains(s, "💩") }, "a message about the name 💩")
	p.waitText("yaml", func(s string) bool { return s == wantCustom.YAML }, "the 7B custom claim without the bad name")

	p.run(chromedp.Evaluate(`location.hash = "#m=Qwen%2FQwen3-8B&dc=GPU.nvidia.com"`, nil))
	p.waitText("link-error", func(s string) bool {
		return strings.Contains(s, "dc=GPU.nvidia.com") && strings.Contains(s, "Device class (deviceClass, dc)")
	},
		"a message about dc=GPU.nvidia.com")
	p.waitText("yaml", func(s string) bool { return s == want.YAML }, "Qwen3-8B's claim without the bad device class")
	if p.visible("result-error") {
		t.Errorf("dc=GPU.nvidia.com: the claim is refused: %q", p.text("result-error"))
	}
	p.noProblems()
}

// An image the link repair drops (too long, or not an image reference) is not in the
// Deployment tab either: it read image= from the raw link, so the link message said the image
// was dropped while the tab still showed it and refused every Deployment for it.
func TestDeploymentTabDropsBadLinkImage(t *testing.T) {
	s := serve(t)
	p := newPage(t, s.URL, 1280, 1000)
	tg := targetWith(func(x *target.Target) { x.Model, x.Engine = "Qwen/Qwen3-8B", "llama.cpp" })
	want := deployed(t, tg)
	frag := target.Permalink(tg)

	p.open(frag + "&image=" + strings.Repeat("a", 600))
	msg := p.waitText("link-error", nonEmpty, "a message about the 600-character image")
	if !strings.Contains(msg, "Container image (image): must be at most 512 characters (got 600)") {
		t.Errorf("link message %q does not name the image", msg)
	}
	p.waitText("yaml", nonEmpty, "a claim")
	p.run(chromedp.Click("#tab-deploy", chromedp.ByQuery))
	p.waitText("deploy-yaml", func(s string) bool { return s == want.YAML }, "the Deployment with the engine's pinned image")
	image := func() string {
		var v string
		p.eval(`document.getElementById("deploy-image").value`, &v)
		return v
	}
	if v := image(); v != "" {
		t.Errorf("the tab's image is %d characters, want none (the link's was dropped)", len(v))
	}
	if p.visible("deploy-error") {
		t.Errorf("the Deployment is refused: %q", p.text("deploy-error"))
	}
	// Said in the tab too, by the field: marked, and described by the link's message.
	// (Before, only the link's message at the top said it.)
	saidBy := func(id, msg, hint string) {
		t.Helper()
		var marked string
		p.eval(`document.getElementById("`+id+`").getAttribute("aria-invalid") + " " + document.getElementById("`+id+`").getAttribute("aria-describedby")`, &marked)
		if want := strings.TrimSpace("true deploy-link-error " + hint); marked != want {
			t.Errorf("%s: aria-invalid and aria-describedby %q, want %q", id, marked, want)
		}
		if !p.visible("deploy-link-error") || !strings.Contains(p.text("deploy-link-error"), msg) {
			t.Errorf("%s: the tab's note (shown %v) says %q, want %q", id, p.visible("deploy-link-error"), p.text("deploy-link-error"), msg)
		}
	}
	valid := func(id, hint string) {
		t.Helper()
		var marked string
		p.eval(`(document.getElementById("`+id+`").getAttribute("aria-invalid") || "") + " " + (document.getElementById("`+id+`").getAttribute("aria-describedby") || "")`, &marked)
		if marked != " "+hint {
			t.Errorf("%s: aria-invalid and aria-describedby %q, want valid, described by %q", id, marked, hint)
		}
	}
	saidBy("deploy-image", "Container image (image): must be at most 512 characters (got 600)", "")

	// Followed later, too: an image that is no reference, and a memory request that is no quantity.
	p.run(chromedp.Evaluate(`location.hash = "#`+frag+`&image=a%20b&mem=64GB"`, nil))
	p.waitText("link-error", func(s string) bool {
		return strings.Contains(s, "image=a b") && strings.Contains(s, "must be a container image reference")
	},
		"a message about image=a%20b")
	p.waitText("deploy-yaml", func(s string) bool { return s == want.YAML }, "the Deployment with the pinned image")
	if v := image(); v != "" {
		t.Errorf("the tab's image is %q, want none (the link's was dropped)", v)
	}
	saidBy("deploy-image", "Container image (image): must be a container image reference", "")
	saidBy("deploy-memory", "Memory request (memoryRequest, mem): must be a Kubernetes quantity", "deploy-memory-hint")
	if strings.Contains(p.text("deploy-link-error"), "at most 512") {
		t.Errorf("the tab still says the earlier link's image: %q", p.text("deploy-link-error"))
	}
	// An edit of a field takes its link's message away; the other field's stays.
	p.run(chromedp.SetValue("#deploy-memory", "64Gi", chromedp.ByQuery),
		chromedp.Evaluate(`document.getElementById("deploy-memory").dispatchEvent(new Event("input"))`, nil))
	valid("deploy-memory", "deploy-memory-hint")
	saidBy("deploy-image", "Container image (image): must be a container image reference", "")
	if strings.Contains(p.text("deploy-link-error"), "Memory request") {
		t.Errorf("the tab still says the memory request after its edit: %q", p.text("deploy-link-error"))
	}

	// A good image followed later is the tab's.
	good := tg
	good.Image = "registry.example/llama.cpp:server-cuda12-b1"
	wantGood := deployed(t, good)
	p.run(chromedp.Evaluate(`location.hash = "#`+target.Permalink(good)+`"`, nil))
	p.waitText("deploy-yaml", func(s string) bool { return s == wantGood.YAML }, "the Deployment with the link's image")
	if v := image(); v != good.Image {
		t.Errorf("the tab's image is %q, want the link's %q", v, good.Image)
	}
	valid("deploy-image", "")
	if p.visible("deploy-link-error") {
		t.Errorf("after a good link the tab still says %q", p.text("deploy-link-error"))
	}
	p.noProblems()
}
