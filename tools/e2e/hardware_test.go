package e2e

import (
	"testing"

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
