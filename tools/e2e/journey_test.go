package e2e

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/target"
)

// One rule for a 0 (README's "absent or 0: the model's", read so by links, flags and the API): a 0
// typed where the table reads 0 as the field left out is the empty field. It draws the claim of
// the empty field (the link's with KEY=0: the same bytes), empties the field when the edit is
// done and says so beside it (a note, not an error), writes the address of the empty field, and
// that address reopens the same form and claim. Layers 0 with the other two given is then what
// the link L=0 is: the engine's "give all three or none" by the (now empty) Layers field. Where no
// range holds 0 (sequences, efficiency) the field refuses it with the words a link's 0 gets.
// Before (88a6676), every typed 0 was refused while the same 0 in a shared link was taken.
func TestZeroReadsAsEmpty(t *testing.T) {
	s := serve(t)
	p := newPage(t, s.URL, 1280, 1000)
	good := targetWith(func(x *target.Target) {
		x.Model = ""
		x.ParamsB = 70
		x.ActiveParamsB = 12
		x.Layers, x.KVHeads, x.HeadDim = 80, 8, 128
		x.Sizing = "kv"
		x.Context = 4096
		x.Sequences = 4
	})
	frag := target.Permalink(good)
	p.open(frag)
	want := render(t, good)
	p.waitText("yaml", func(s string) bool { return s == want.YAML }, "the link's claim")
	commit := func(id, v string) {
		p.setField(id, v)
		p.eval(`document.getElementById(`+jsString(id)+`).dispatchEvent(new Event("change", {bubbles: true}))`, nil)
	}
	for _, f := range []struct {
		id  string
		set func(*target.Target)
	}{
		{"context", func(x *target.Target) { x.Context = 0 }},
		{"activeParamsB", func(x *target.Target) { x.ActiveParamsB = 0 }},
	} {
		zero := good
		f.set(&zero)
		wantZero := render(t, zero)
		if wantZero.YAML == want.YAML {
			t.Fatalf("%s: the empty field's claim is the given one's; the test proves nothing", f.id)
		}
		field, _ := target.ByName(f.id)
		viaLink, err := target.ParsePermalink(target.Permalink(zero) + "&" + field.Key + "=0")
		if err != nil {
			t.Fatalf("%s=0 in a link: %v", field.Key, err)
		}
		if r := render(t, viaLink); r.YAML != wantZero.YAML {
			t.Fatalf("%s=0 in a link is not the empty field's claim", field.Key)
		}
		commit(f.id, "0")
		p.waitText("yaml", func(s string) bool { return s == wantZero.YAML }, f.id+"=0: the claim of the empty field, as the link's "+field.Key+"=0")
		if p.visible("stale") || p.visible("result-error") {
			t.Errorf("%s=0: refused (stale %v, error %q)", f.id, p.visible("stale"), p.text("result-error"))
		}
		var st struct {
			Value, Invalid, Class string
		}
		p.eval(`(() => { const n = document.getElementById(`+jsString(f.id)+`), e = document.getElementById(`+jsString(f.id+"-err")+`);
			return {value: n.value, invalid: n.getAttribute("aria-invalid") || "", class: e.className}; })()`, &st)
		note := p.text(f.id + "-err")
		if st.Value != "" || st.Invalid != "" || !p.visible(f.id+"-err") || !strings.Contains(st.Class, "note") ||
			!strings.Contains(note, field.Key+"=0") || !strings.Contains(note, field.Derived) {
			t.Errorf("%s=0 committed: value %q, aria-invalid %q, note %q (class %q); want the field emptied and a note saying 0 is the empty field, %s=0, and %q",
				f.id, st.Value, st.Invalid, note, st.Class, field.Key, field.Derived)
		}
		if got, w := p.fragment(), target.Permalink(zero); got != w {
			t.Errorf("%s=0: the address is %q, want the empty field's link %q", f.id, got, w)
		}
		q := p.newTab(1280, 1000)
		q.open(p.fragment())
		q.waitText("yaml", func(s string) bool { return s == wantZero.YAML }, "the address reopened")
		var v string
		q.eval(`document.getElementById(`+jsString(f.id)+`).value`, &v)
		if v != "" {
			t.Errorf("%s=0: the address reopens the field as %q, not empty", f.id, v)
		}
		q.noProblems()
		commit(f.id, field.Get(&good))
		p.waitText("yaml", func(s string) bool { return s == want.YAML }, "the claim again after "+f.id+" is given")
		if p.visible(f.id + "-err") {
			t.Errorf("%s given again: its note is still shown: %q", f.id, p.text(f.id+"-err"))
		}
	}

	// Layers 0, KV heads and head dimension given: the link L=0's refusal, by the Layers field.
	noLayers := good
	noLayers.Layers = 0
	_, err := claim.Render(noLayers)
	var fe *target.FieldError
	if !errors.As(err, &fe) || fe.Field != "layers" {
		t.Fatalf("the engine on L=0 with kvh and hd: %v, want a Layers error", err)
	}
	commit("layers", "0")
	if msg := p.waitText("layers-err", func(s string) bool { return strings.Contains(s, fe.Msg) }, "the link's refusal by Layers"); !strings.Contains(msg, "give all three or none") {
		t.Errorf("layers=0: %q", msg)
	}
	commit("layers", "80")
	p.waitText("yaml", func(s string) bool { return s == want.YAML && !p.visible("stale") }, "the claim again after layers is given")

	// No range holds 0: refused by the field with the words a link's 0 gets.
	for _, f := range []struct{ id, key string }{{"sequences", "seq"}, {"efficiencyPct", "eff"}} {
		tg, err := target.ParsePermalink(strings.ReplaceAll(frag, "&seq=4", "") + "&" + f.key + "=0")
		if err == nil {
			err = tg.Validate()
		}
		if !errors.As(err, &fe) {
			t.Fatalf("%s=0 in a link: %v, want a refusal", f.key, err)
		}
		words := fe.Error()[:strings.Index(fe.Error(), " (got")]
		p.setField(f.id, "0")
		msg := p.waitText(f.id+"-err", nonEmpty, "a message by the "+f.id+" field")
		if !strings.Contains(msg, words) {
			t.Errorf("%s=0: message %q, want the link's words %q", f.id, msg, words)
		}
		if !p.visible("stale") || p.text("yaml") != want.YAML {
			t.Errorf("%s=0: the last claim is not kept and marked stale", f.id)
		}
		commit(f.id, map[string]string{"sequences": "4", "efficiencyPct": ""}[f.id])
		p.waitText("yaml", func(s string) bool { return s == want.YAML && !p.visible("stale") }, "the claim again after "+f.id+" is fixed")
	}
	p.noProblems()
}

// What a form control shows fits its box: the placeholders of empty number fields (the engine's
// "llmfit's 55; kv: the device family's calibrated efficiency" was cut off at "calibrat", Layers'
// "the model's, else unknown" at 1280 px) and the chosen options ("no: a shared device gives its
// default shar"), at 1280 and 390 px, in both sizing modes, for a catalog and a custom model. And
// a select's hint does not end in the link's spelling of its choices ("; 1 or 0" beside a yes/no
// select, "; llmfit, kv"), nor spell llmfit "Llmfit".
func TestFormTextFitsItsBox(t *testing.T) {
	s := serve(t)
	for _, w := range []int64{1280, 390} {
		p := newPage(t, s.URL, w, 900)
		p.open(target.Permalink(targetWith(func(x *target.Target) { x.Model = exampleModel })))
		p.waitText("yaml", nonEmpty, "a claim")
		for _, sizing := range []string{"", "kv"} {
			for _, src := range []string{"catalog", "custom"} {
				p.run(chromedp.Click("#source-"+src, chromedp.ByQuery))
				p.eval(`(() => { const s = document.getElementById("sizing"); s.value = `+jsString(sizing)+`;
					s.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`, nil)
				var over []string
				p.eval(`(() => { const c = document.createElement("canvas").getContext("2d"), out = [];
					for (const n of document.querySelectorAll("#form input:not([type=radio]), #form select")) {
						if (!n.checkVisibility()) continue;
						const cs = getComputedStyle(n); c.font = cs.font;
						const select = n.tagName === "SELECT";
						const text = select ? (n.selectedOptions[0] || {}).text || "" : n.value || n.placeholder;
						// a select's arrow, and a number input's spin buttons (Chromium keeps their
						// room even when hidden), take about 20 px of the box
						const room = n.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - (select || n.type === "number" ? 20 : 0);
						const need = c.measureText(text).width;
						if (need > room) out.push(n.id + " " + JSON.stringify(text) + ": " + Math.round(need) + " px in " + Math.round(room));
					}
					return out; })()`, &over)
				for _, o := range over {
					t.Errorf("%d px, sizing %q, %s model: cut off: %s", w, sizing, src, o)
				}
			}
		}
	}
	p := newPage(t, s.URL, 1280, 900)
	p.open("")
	p.waitText("yaml", nonEmpty, "the example")
	for id, bad := range map[string]string{"capacityRequest-hint": "; 1 or 0.", "sizing-hint": "llmfit, kv.", "driver-hint": "any.", "capacityName-hint": "memory, qualified."} {
		if h := p.text(id); strings.HasSuffix(h, bad) {
			t.Errorf("#%s ends in the link's spelling of the choices: %q", id, h)
		}
	}
	if h := p.text("sizing-hint"); !strings.HasPrefix(h, "llmfit's") {
		t.Errorf("#sizing-hint: %q, want llmfit spelt lower-case", h)
	}
	if h := p.text("efficiencyPct-hint"); !strings.Contains(h, "llmfit's 55; kv: the device family's calibrated efficiency") {
		t.Errorf("#efficiencyPct-hint: %q, want it to say what an empty field stands for", h)
	}
	p.noProblems()
}

// A device given by its numbers, mistyped: the message is right beside the panel's fields, for
// the value now in the field, and goes when the field is fixed. Before, a -5 (refused with the
// whole target) put its message only at the top of the claim, and the panel's box went on saying
// what an earlier value had got ("(got 0)" after -5, 1e9, and for an emptied field); an emptied
// field was "(got 0)" rather than missing.
func TestHardwareFieldMessageBeside(t *testing.T) {
	s := serve(t)
	p := newPage(t, s.URL, 1280, 1000)
	good := targetWith(func(x *target.Target) {
		x.Model = exampleModel
		x.MemoryGiB, x.BandwidthGBs, x.Family = 24, 1008, "nvidia"
	})
	p.open(target.Permalink(good))
	p.waitText("hw-text", func(s string) bool { return strings.Contains(s, "24 GiB") }, "the estimate on the link's device")
	for _, c := range []struct{ id, value, says string }{
		{"hw-memory", "0", "Device memory (memoryGiB, memory): missing: give a decimal number greater than 0"},
		{"hw-memory", "-5", "Device memory (memoryGiB, memory): must be a decimal number greater than 0 and at most 1048576 GiB (got -5)"},
		{"hw-memory", "", "Device memory (memoryGiB, memory): missing"},
		{"hw-memory", "24", ""},
		{"hw-bandwidth", "-5", "Device bandwidth (bandwidthGBs, bandwidth): must be a decimal number greater than 0 and at most 1000000 GB/s (got -5)"},
		{"hw-bandwidth", "", "Device bandwidth (bandwidthGBs, bandwidth): missing"},
		{"hw-bandwidth", "1008", ""},
	} {
		p.setField(c.id, c.value)
		if c.says == "" {
			p.waitText("hw-text", func(s string) bool { return strings.Contains(s, "24 GiB, 1008 GB/s") }, "the estimate again after "+c.id+" is fixed")
			if p.visible("hw-error") {
				t.Errorf("%s=%q: the panel still says %q", c.id, c.value, p.text("hw-error"))
			}
			continue
		}
		got := p.waitText("hw-error", func(s string) bool { return strings.HasPrefix(s, c.says) && p.visible("hw-error") }, fmt.Sprintf("the panel's message for %s=%q", c.id, c.value))
		if strings.Contains(got, "(got 0)") {
			t.Errorf("%s=%q: %q", c.id, c.value, got)
		}
	}
	p.noProblems()
}

// The estimate on your hardware is sentences, and they wrap: in a box that scrolled sideways
// (white-space: pre) the verdict's end ("but NVIDIA H200 SXM gives 140.40 GiB; at most 29505
// tokens of context fit …") was out of sight, at 1280 px as at 390.
func TestHardwareEstimateWraps(t *testing.T) {
	s := serve(t)
	tg := targetWith(func(x *target.Target) {
		x.Model, x.Quant, x.MinTps, x.Sizing, x.Context, x.Sequences, x.Driver, x.On = "meta-llama/Llama-3.1-70B", "FP8", 30, "kv", 32768, 8, "nvidia", "nvidia-h200"
	})
	for _, w := range []int64{1280, 390} {
		p := newPage(t, s.URL, w, 900)
		p.open(target.Permalink(tg))
		p.waitText("hw-text", func(s string) bool { return strings.Contains(s, "does not fit") }, "the estimate")
		var sizes []int
		p.eval(`(() => { const n = document.getElementById("hw-out"); return [n.scrollWidth, n.clientWidth]; })()`, &sizes)
		if len(sizes) != 2 || sizes[0] > sizes[1] {
			t.Errorf("%d px: the estimate is %v px wide in a box of %v: part of it is out of sight", w, sizes[0], sizes[1])
		}
		p.noProblems()
	}
}

// The panel's speed on a device and the table's Est. tok/s for the same device are one figure:
// a Bandwidth efficiency given in kv mode overrides the family's calibrated one in both (before,
// eff=60 on an H100 SXM: the table said 103.3 tok/s, the panel 128.5 at the calibrated 79.4 %),
// and after an edit of the field both follow.
func TestHardwareSpeedFollowsEfficiency(t *testing.T) {
	s := serve(t)
	p := newPage(t, s.URL, 1280, 1000)
	tg := targetWith(func(x *target.Target) {
		x.Model, x.Quant, x.Sizing, x.Context, x.Driver, x.EfficiencyPct, x.On = exampleModel, "BF16", "kv", 4096, "nvidia", 60, "nvidia-h100-sxm"
	})
	p.open(target.Permalink(tg))
	speeds := func() (panel, row string) {
		var got []string
		p.eval(`(() => { const m = /speed: ([0-9.]+) tokens/.exec(document.getElementById("hw-text").textContent);
			const r = Array.from(document.querySelectorAll("#matches tr")).find((tr) => /H100 SXM/.test(tr.children[0].textContent));
			return [m ? m[1] : "", r ? r.children[2].textContent : ""]; })()`, &got)
		return got[0], got[1]
	}
	for _, eff := range []string{"60", "70"} {
		if eff != "60" {
			p.setField("efficiencyPct", eff)
		}
		p.waitText("hw-text", func(s string) bool { return strings.Contains(s, "at "+eff+".0 % of 3350 GB/s") }, "the panel's speed at "+eff+" %")
		panel, row := speeds()
		if panel == "" || panel != row {
			t.Errorf("eff=%s: the panel says %q tok/s on the H100 SXM, the table %q", eff, panel, row)
		}
	}
	p.noProblems()
}

// The serving engine chosen in the Deployment tab is in the address, as README promises of
// everything shown ("the address bar always holds the permalink of what you see"), so the link
// shared opens the same Deployment; and, the link's engine sizing the claim, the Claim tab's
// claim is then sized for that engine too. Before, the choice changed nothing in the address:
// the link opened on vLLM, and a claim tab sized for llama.cpp's reserve (149 Gi for Llama-3.1-70B
// FP8 at 32k × 8) sat beside a vLLM Deployment whose template asked 165 Gi.
func TestDeploymentEngineInAddress(t *testing.T) {
	s := serve(t)
	p := newPage(t, s.URL, 1280, 1000)
	tg := targetWith(func(x *target.Target) {
		x.Model, x.Sizing, x.Context, x.Sequences, x.Driver = "Qwen/Qwen3-8B", target.SizingKV, 4096, 2, "nvidia"
	})
	p.open(target.Permalink(tg))
	p.waitText("yaml", nonEmpty, "a claim")
	p.run(chromedp.Click("#tab-deploy", chromedp.ByQuery))
	p.waitText("deploy-yaml", nonEmpty, "the Deployment")
	for _, engine := range []string{"llama.cpp", "vllm"} {
		p.eval(`(() => { const s = document.getElementById("deploy-engine"); s.value = `+jsString(engine)+`;
			s.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`, nil)
		want := tg
		want.Engine = engine
		claim, dep := render(t, want), deployed(t, want)
		p.waitText("deploy-yaml", func(s string) bool { return s == dep.YAML }, "the "+engine+" Deployment")
		p.waitText("yaml", func(s string) bool { return s == claim.YAML }, "the claim sized for "+engine)
		if got, w := p.fragment(), target.Permalink(want); got != w {
			t.Errorf("%s chosen: the address is #%s, want #%s", engine, got, w)
			continue
		}
		q := p.newTab(1280, 1000)
		q.open(p.fragment())
		q.run(chromedp.Click("#tab-deploy", chromedp.ByQuery))
		q.waitText("deploy-yaml", func(s string) bool { return s == dep.YAML }, "the shared link's "+engine+" Deployment")
		q.waitText("yaml", func(s string) bool { return s == claim.YAML }, "the shared link's claim")
		q.noProblems()
	}
	p.noProblems()
}

// In llmfit mode the hardware panel's estimate is of another size than the claim (README's
// example link: the claim Q4_K_M ≈ 3.9 GB, the panel BF16, 15.06 GiB): fit.EstimateOn always
// sizes as kv mode does. The panel says so, where it said nothing and the two looked at odds.
func TestHardwarePanelSaysHowItSizes(t *testing.T) {
	s := serve(t)
	p := newPage(t, s.URL, 1280, 1000)
	p.open("m=NousResearch%2FLlama-2-7b-chat-hf&tps=30&eff=60&on=nvidia-h100-sxm")
	p.waitText("hw-text", func(s string) bool { return strings.Contains(s, "(BF16,") }, "the panel's estimate, in the model's own format")
	if y := p.text("yaml"); !strings.Contains(y, "Q4_K_M") {
		t.Fatalf("the claim is not llmfit's Q4_K_M any more; this test's example is stale")
	}
	var hint string
	p.eval(`document.querySelector("#hardware > .hint").textContent`, &hint)
	if !strings.Contains(hint, "Sized as kv mode sizes, in either mode") {
		t.Errorf("the panel's hint %q does not say the estimate is sized as kv mode sizes", hint)
	}
	p.noProblems()
}
