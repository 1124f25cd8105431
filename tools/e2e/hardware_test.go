package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/fitclaim/fitclaim/estimate"
	"github.com/fitclaim/fitclaim/target"
)

// estimateText is what `fitclaim estimate` prints for the target of a permalink.
func estimateText(t *testing.T, frag string) string {
	t.Helper()
	e, err := estimate.RunRaw(frag)
	if err != nil {
		t.Fatalf("estimate %q: %v", frag, err)
	}
	return estimate.Text(e)
}

// The hardware mode: a link naming a device shows the engine's estimate on it, word for word,
// and the popular models that fit; a device typed by its numbers goes into the address bar and
// gets the engine's estimate too.
func TestHardwareMode(t *testing.T) {
	s := serve(t)
	p := newPage(t, s.URL, 1280, 1000)
	tg := targetWith(func(x *target.Target) { x.Model = exampleModel; x.On = "nvidia-rtx-4090" })
	frag := target.Permalink(tg)
	p.open(frag)
	want := estimateText(t, frag)
	got := p.waitText("hw-text", func(s string) bool { return s == want }, "the engine's estimate on an RTX 4090")
	sameText(t, "estimate on an RTX 4090", want, got)
	var listed int
	p.eval(`document.querySelectorAll("#hw-fitting li").length`, &listed)
	if listed == 0 {
		t.Error("no popular model listed as fitting an RTX 4090")
	}

	p.eval(`(() => { const s = document.getElementById("hw-on"); s.value = "custom"; s.dispatchEvent(new Event("change", {bubbles: true})); })()`, nil)
	p.eval(`(() => {
		const set = (id, v) => { const n = document.getElementById(id); n.value = v; n.dispatchEvent(new Event("input", {bubbles: true})); };
		set("hw-memory", "24"); set("hw-bandwidth", "1000");
		const f = document.getElementById("hw-family"); f.value = "nvidia"; f.dispatchEvent(new Event("change", {bubbles: true}));
	})()`, nil)
	tg2 := tg
	tg2.On, tg2.MemoryGiB, tg2.BandwidthGBs, tg2.Family = "", 24, 1000, "nvidia"
	frag2 := target.Permalink(tg2)
	want2 := estimateText(t, frag2)
	got2 := p.waitText("hw-text", func(s string) bool { return s == want2 }, "the engine's estimate by numbers")
	sameText(t, "estimate by numbers", want2, got2)
	if fr := p.fragment(); fr != frag2 {
		t.Errorf("address bar %q, want %q", fr, frag2)
	}
	p.noProblems()
}

// A link's device pair the engine drops (a memory that is no number, a bandwidth out of range, a
// device given twice) is dropped from the claim too: the link message names it and the rest of
// the link, the model, still gives its claim (before, the hardware panel read the raw pair back
// into every render, and the page refused the whole link: the claim on screen stayed the
// example). The pairs kept are the panel's.
func TestHardwareLinkKeepsWhatIsGood(t *testing.T) {
	s := serve(t)
	p := newPage(t, s.URL, 1280, 1000)
	model := targetWith(func(x *target.Target) { x.Model = exampleModel })
	want := render(t, model)
	frag := target.Permalink(model)

	p.open(frag + "&memory=abc")
	msg := p.waitText("link-error", nonEmpty, "a message about memory=abc")
	if !strings.Contains(msg, "memory=abc") || !strings.Contains(msg, "memoryGiB") {
		t.Errorf("link message %q does not name memory=abc", msg)
	}
	p.waitText("yaml", func(s string) bool { return s == want.YAML }, "the model's claim without the bad memory")
	if p.visible("result-error") {
		t.Errorf("memory=abc: the claim is refused: %q", p.text("result-error"))
	}

	p.run(chromedp.Evaluate(`location.hash = "#`+frag+`&on=nvidia-rtx-4090&on=amd-mi300x"`, nil))
	p.waitText("link-error", func(s string) bool { return strings.Contains(s, "given 2 times") }, "a message about on given twice")
	p.waitText("yaml", func(s string) bool { return s == want.YAML }, "the model's claim without a device")
	var on string
	p.eval(`document.getElementById("hw-on").value`, &on)
	if on != "" {
		t.Errorf("on given twice: the hardware panel shows device %q, want none", on)
	}

	withMem := targetWith(func(x *target.Target) { x.Model = exampleModel; x.MemoryGiB = 80 })
	wantMem := render(t, withMem)
	p.run(chromedp.Evaluate(`location.hash = "#`+target.Permalink(withMem)+`&bandwidth=-1"`, nil))
	p.waitText("link-error", func(s string) bool { return strings.Contains(s, "bandwidth=-1") }, "a message about bandwidth=-1")
	p.waitText("yaml", func(s string) bool { return s == wantMem.YAML }, "the claim with the good memory, without the bad bandwidth")
	var mem string
	p.eval(`document.getElementById("hw-memory").value`, &mem)
	if mem != "80" {
		t.Errorf("bandwidth=-1: the panel's memory is %q, want the link's 80", mem)
	}
	if p.visible("result-error") {
		t.Errorf("bandwidth=-1: the claim is refused: %q", p.text("result-error"))
	}
	p.noProblems()
}

// The hardware mode by the productName a driver publishes, as kubectl get resourceslices shows
// it: NVIDIA's ("NVIDIA H100 80GB HBM3") and AMD's, the sysfs name with underscores
// ("AMD_Instinct_MI300X_OAM", real-fleet.yaml's MI300X node): the engine's estimate on that
// device, word for word, as fitclaim estimate --on prints it.
func TestHardwareModeByDriverProductName(t *testing.T) {
	s := serve(t)
	p := newPage(t, s.URL, 1280, 1000)
	for _, on := range []string{"NVIDIA H100 80GB HBM3", "AMD_Instinct_MI300X_OAM"} {
		tg := targetWith(func(x *target.Target) { x.Model = exampleModel; x.On = on })
		frag := target.Permalink(tg)
		p.open(frag)
		want := estimateText(t, frag)
		got := p.waitText("hw-text", func(s string) bool { return s == want }, "the engine's estimate on "+on)
		sameText(t, "estimate on "+on, want, got)
	}
	p.noProblems()
}
