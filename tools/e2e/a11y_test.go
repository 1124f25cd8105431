package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/fitclaim/fitclaim/target"
)

// ---------------------------------------------------------------------------
// keyboard and accessibility-tree helpers

// key presses one key (kb.Tab, kb.Enter, "a", …) on whatever has the focus.
func (p *page) key(k string, opts ...chromedp.KeyOption) {
	p.t.Helper()
	p.run(chromedp.KeyEvent(k, opts...))
}

// typeText types into the focused element, key by key.
func (p *page) typeText(s string) {
	p.t.Helper()
	p.run(chromedp.KeyEvent(s))
}

// clearFocused empties the focused text field as a user does: select all, then delete.
func (p *page) clearFocused() {
	p.t.Helper()
	p.key("a", chromedp.KeyModifiers(input.ModifierCtrl))
	p.key(kb.Backspace)
	var v string
	p.eval(`document.activeElement.value`, &v)
	if v != "" {
		p.t.Fatalf("Ctrl+A, Backspace left %q in #%s", v, p.focused())
	}
}

// focused is the id of the element with the focus ("" when it has none).
func (p *page) focused() string {
	p.t.Helper()
	var id string
	p.eval(`document.activeElement ? document.activeElement.id : ""`, &id)
	return id
}

// tabUntil presses Tab until the focused element satisfies the JavaScript predicate (on `e`, the
// focused element), at most max times: the page's tab order, walked as a keyboard user walks it.
func (p *page) tabUntil(pred, what string, max int) {
	p.t.Helper()
	var trail []string
	for i := 0; i <= max; i++ {
		var ok bool
		p.eval(fmt.Sprintf(`(() => { const e = document.activeElement; return !!e && !!(%s); })()`, pred), &ok)
		if ok {
			return
		}
		var here string
		p.eval(`(() => { const e = document.activeElement; return e ? e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") : ""; })()`, &here)
		trail = append(trail, here)
		p.key(kb.Tab)
	}
	p.t.Fatalf("%d Tabs did not reach %s; the focus went %s", max, what, strings.Join(trail, " → "))
}

func (p *page) tabTo(id string, max int) {
	p.t.Helper()
	p.tabUntil(fmt.Sprintf("e.id === %q", id), "#"+id, max)
}

// waitEval polls a JavaScript condition.
func (p *page) waitEval(js, what string) {
	p.t.Helper()
	deadline := time.Now().Add(patient(30 * time.Second))
	for time.Now().Before(deadline) {
		var ok bool
		p.eval(js, &ok)
		if ok {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	p.t.Fatalf("timed out waiting for %s (%s)", what, js)
}

// axNode is what a screen reader is told about an element: Chromium's accessibility tree.
type axNode struct {
	Role, Name, Description string
	Props                   map[string]string
}

func axString(v *accessibility.Value) string {
	if v == nil || len(v.Value) == 0 {
		return ""
	}
	var x any
	if err := json.Unmarshal(v.Value, &x); err != nil {
		return string(v.Value)
	}
	return fmt.Sprint(x)
}

// ax reads the accessibility node of the first element matching a CSS selector.
func (p *page) ax(sel string) axNode {
	p.t.Helper()
	var nodes []*cdp.Node
	p.run(chromedp.Nodes(sel, &nodes, chromedp.ByQuery, chromedp.AtLeast(0)))
	if len(nodes) == 0 {
		p.t.Fatalf("no element %s", sel)
	}
	var got []*accessibility.Node
	p.run(chromedp.ActionFunc(func(ctx context.Context) error {
		var err error
		got, err = accessibility.GetPartialAXTree().WithBackendNodeID(nodes[0].BackendNodeID).WithFetchRelatives(false).Do(ctx)
		return err
	}))
	if len(got) == 0 {
		p.t.Fatalf("no accessibility node for %s", sel)
	}
	n := got[0]
	out := axNode{Role: axString(n.Role), Name: axString(n.Name), Description: axString(n.Description), Props: map[string]string{}}
	for _, pr := range n.Properties {
		out.Props[string(pr.Name)] = axString(pr.Value)
	}
	return out
}

// ---------------------------------------------------------------------------
// tests

// A keyboard alone does what a mouse does: pick a model in the combobox (arrows, Enter), change
// a field, reach an error's field from its message and mend it, switch the output tabs with
// the arrows, copy the claim, sort the table and show a device in the memory picture, and each
// claim is the engine's.
func TestKeyboardOnly(t *testing.T) {
	s := serve(t)
	p := newPage(t, s.URL, 1280, 1000)
	p.open("")
	var exampleFrag string
	p.eval(`JSON.parse(document.getElementById("example").textContent).fragment`, &exampleFrag)
	tg, err := target.ParsePermalink(exampleFrag)
	if err != nil {
		t.Fatalf("the example's fragment %q: %v", exampleFrag, err)
	}

	// The first Tab reaches the skip link; then the model field (the source radios are one stop).
	p.key(kb.Tab)
	var first string
	p.eval(`document.activeElement.className + " " + document.activeElement.textContent`, &first)
	if first != "skip Skip to the result" {
		t.Errorf("the first Tab focuses %q, not the skip link", first)
	}
	p.tabTo("model", 4)
	p.clearFocused()
	p.typeText("llama-2-7b-chat")
	p.waitEval(`document.getElementById("model").getAttribute("aria-expanded") === "true" &&
		document.querySelectorAll("#model-list [role=option]").length > 0`, "the combobox's list")
	status := p.waitText("model-status", nonEmpty, "the list's size said politely")
	if !strings.Contains(status, "in the list") {
		t.Errorf("the combobox's status says %q", status)
	}
	p.eval(`document.querySelector("#model-list [role=option] .opt-name").textContent`, &first)
	p.key(kb.ArrowDown)
	p.key(kb.ArrowDown)
	p.key(kb.ArrowUp)
	var active, selected string
	p.eval(`document.getElementById("model").getAttribute("aria-activedescendant") || ""`, &active)
	p.eval(`Array.from(document.querySelectorAll('#model-list [aria-selected="true"]')).map(e => e.id).join()`, &selected)
	if active != "model-opt-0" || selected != "model-opt-0" {
		t.Errorf("Down, Down, Up: aria-activedescendant %q, selected option %q; want model-opt-0 for both", active, selected)
	}
	p.key(kb.Enter)
	tg.Model = first
	want := render(t, tg)
	p.waitText("yaml", func(s string) bool { return s == want.YAML }, "the engine's YAML for "+first)
	if p.focused() != "model" {
		t.Errorf("after Enter the focus is on #%s, not the model field", p.focused())
	}

	// Escape, and Alt+ArrowUp, close a reopened list and keep the model.
	p.key(kb.ArrowDown)
	p.waitEval(`document.getElementById("model").getAttribute("aria-expanded") === "true"`, "the list reopened by ArrowDown")
	p.key(kb.Escape)
	var after struct{ Expanded, Value string }
	p.eval(`({expanded: document.getElementById("model").getAttribute("aria-expanded"), value: document.getElementById("model").value})`, &after)
	if after.Expanded != "false" || after.Value != first {
		t.Errorf("after Escape: aria-expanded %q, value %q; want false and %q", after.Expanded, after.Value, first)
	}
	p.key(kb.ArrowDown)
	p.waitEval(`document.getElementById("model").getAttribute("aria-expanded") === "true"`, "the list reopened by ArrowDown")
	p.key(kb.ArrowUp, chromedp.KeyModifiers(input.ModifierAlt))
	p.eval(`({expanded: document.getElementById("model").getAttribute("aria-expanded"), value: document.getElementById("model").value})`, &after)
	if after.Expanded != "false" || after.Value != first {
		t.Errorf("after Alt+ArrowUp: aria-expanded %q, value %q; want false and %q", after.Expanded, after.Value, first)
	}

	// Change a field: the target speed.
	p.tabTo("minTps", 10)
	p.clearFocused()
	p.typeText("35")
	p.key(kb.Tab)
	tg.MinTps = 35
	want = render(t, tg)
	p.waitText("yaml", func(s string) bool { return s == want.YAML }, "the engine's YAML at 35 tok/s")
	if !p.visible("summary") || !strings.Contains(p.text("summary"), want.Name) {
		t.Errorf("the summary %q does not name the claim %q", p.text("summary"), want.Name)
	}

	// A bad value: the field says so (aria-invalid, its message as its description), the message
	// above the result has a button that takes the focus back to the field.
	p.tabTo("efficiencyPct", 3)
	p.clearFocused()
	p.typeText("500")
	p.waitEval(`document.getElementById("efficiencyPct").getAttribute("aria-invalid") === "true"`, "the efficiency field marked invalid")
	msg := p.waitText("efficiencyPct-err", nonEmpty, "the efficiency field's message")
	if ax := p.ax("#efficiencyPct"); !strings.Contains(ax.Description, msg) || ax.Props["invalid"] != "true" {
		t.Errorf("the efficiency field tells a screen reader: description %q, invalid %q; want its message %q and true", ax.Description, ax.Props["invalid"], msg)
	}
	p.tabUntil(`e.closest("#result-error") && e.tagName === "BUTTON"`, "the error's button to its field", 40)
	p.key(kb.Enter)
	if p.focused() != "efficiencyPct" {
		t.Fatalf("the error's button took the focus to #%s, not the efficiency field", p.focused())
	}
	p.clearFocused()
	p.typeText("60")
	p.key(kb.Tab)
	tg.EfficiencyPct = 60
	want = render(t, tg)
	p.waitText("yaml", func(s string) bool { return s == want.YAML }, "the engine's YAML at 60 %")
	var invalid string
	p.eval(`document.getElementById("efficiencyPct").getAttribute("aria-invalid") || ""`, &invalid)
	if invalid != "" || p.visible("result-error") {
		t.Errorf("the mended field is still marked (aria-invalid %q, error shown %v)", invalid, p.visible("result-error"))
	}

	// The tabs: one Tab stop, the arrows move between them.
	p.tabTo("tab-yaml", 40)
	p.key(kb.ArrowRight)
	if p.focused() != "tab-json" || !p.visible("json") || p.visible("yaml") {
		t.Errorf("ArrowRight on YAML: focus #%s, JSON shown %v, YAML shown %v", p.focused(), p.visible("json"), p.visible("yaml"))
	}
	sameText(t, "the JSON tab", want.JSON, p.text("json"))
	p.key(kb.End)
	if p.focused() != "tab-deploy" || !p.visible("panel-deploy") {
		t.Errorf("End: focus #%s, Deployment shown %v", p.focused(), p.visible("panel-deploy"))
	}
	p.key(kb.Home)
	if p.focused() != "tab-yaml" || !p.visible("yaml") {
		t.Errorf("Home: focus #%s, YAML shown %v", p.focused(), p.visible("yaml"))
	}

	// Copy the claim.
	p.run(browser.GrantPermissions([]browser.PermissionType{browser.PermissionTypeClipboardReadWrite, browser.PermissionTypeClipboardSanitizedWrite}).WithOrigin(s.URL))
	p.tabTo("copy-yaml", 3)
	p.key(kb.Enter)
	if got := p.waitText("copied", nonEmpty, "the copy said politely"); !strings.HasPrefix(got, "Copied") {
		t.Errorf("after Enter on Copy YAML the page says %q", got)
	}

	// Sort the table by memory from its header's button.
	p.tabUntil(`e.parentElement && e.parentElement.dataset.sort === "memoryGiB"`, "the Memory column's sort button", 40)
	p.key(kb.Enter)
	var sorts []string
	p.eval(`Array.from(document.querySelectorAll("th[aria-sort]")).map(th => th.dataset.sort + " " + th.getAttribute("aria-sort"))`, &sorts)
	if strings.Join(sorts, ",") != "memoryGiB descending" {
		t.Errorf("after Enter on Memory the headers' aria-sort: %q, want only memoryGiB descending", sorts)
	}
	if c := p.text("matches-caption"); !strings.Contains(c, "sorted by Memory, GiB, descending") {
		t.Errorf("the table's caption %q does not say how it is sorted", c)
	}

	// Show the first row's device in the memory picture.
	p.tabUntil(`e.classList.contains("acc")`, "the first accelerator's button", 10)
	var dev string
	p.eval(`document.activeElement.textContent`, &dev)
	p.key(kb.Enter)
	var pressed string
	p.eval(`document.querySelector("#matches .acc[aria-pressed=true]") ? document.querySelector("#matches .acc[aria-pressed=true]").textContent : ""`, &pressed)
	if pressed != dev {
		t.Errorf("after Enter on %q the pressed device is %q", dev, pressed)
	}
	if ax := p.ax("#chart-memory svg"); !strings.HasPrefix(ax.Name, "Memory on one "+dev+" (") {
		t.Errorf("the memory picture is named %q after picking %q", ax.Name, dev)
	}

	// On your hardware: a device chosen with the arrow keys; its verdict, the first line of the
	// estimate, is said politely.
	p.tabTo("hw-on", 40)
	p.waitEval(`document.getElementById("hw-on").options.length > 2`, "the device list")
	p.key(kb.ArrowDown)
	text := p.waitText("hw-text", func(s string) bool { return strings.Contains(s, "\n") }, "the estimate on the first device")
	if got := p.waitText("hw-status", nonEmpty, "the device's verdict said"); got != strings.SplitN(text, "\n", 2)[0] {
		t.Errorf("hw-status says %q, want the estimate's first line %q", got, strings.SplitN(text, "\n", 2)[0])
	}
	// A device by its numbers, with a memory the engine refuses: the field is marked and
	// described by the message, which has a button back to it.
	p.key(kb.End)
	p.tabTo("hw-memory", 2)
	p.typeText("-5")
	p.waitEval(`document.getElementById("hw-memory").getAttribute("aria-invalid") === "true"`, "the device memory field marked invalid")
	a := p.ax("#hw-memory")
	if a.Props["invalid"] != "true" || !strings.Contains(a.Description, "Device memory") {
		t.Errorf("the device memory field tells a screen reader: %+v", a)
	}
	p.tabUntil(`e.closest("#result-error, #hw-error") && e.tagName === "BUTTON"`, "the error's button to its field", 40)
	p.key(kb.Enter)
	if p.focused() != "hw-memory" {
		t.Errorf("the error's button took the focus to #%s, not the device memory field", p.focused())
	}
	p.noProblems()
}

// What a screen reader is told about the main controls and the pictures: their roles, names,
// states and descriptions, from Chromium's accessibility tree.
func TestAccessibleNamesAndRoles(t *testing.T) {
	p, want := showClaim(t, targetWith(func(x *target.Target) { x.Model = exampleModel; x.Driver = "nvidia" }))
	p.waitEval(`!!document.querySelector("#chart-speed svg")`, "the pictures")

	var label string
	p.eval(`document.querySelector('label[for="model"]').textContent`, &label)
	if a := p.ax("#model"); a.Role != "combobox" || a.Name != label || a.Props["expanded"] != "false" || a.Props["autocomplete"] != "list" {
		t.Errorf("model field: %+v; want a collapsed combobox named %q with a list", a, label)
	}
	if a := p.ax("#minTps"); a.Role != "spinbutton" || a.Name == "" || a.Description == "" {
		t.Errorf("target speed field: %+v; want a named spinbutton described by its hint", a)
	}
	if a := p.ax(`[role=tablist]`); a.Role != "tablist" || a.Name != "Output format" {
		t.Errorf("tab list: %+v", a)
	}
	for id, name := range map[string]string{"tab-yaml": "YAML", "tab-json": "JSON", "tab-deploy": "Deployment"} {
		a := p.ax("#" + id)
		if a.Role != "tab" || a.Name != name || a.Props["selected"] != fmt.Sprint(id == "tab-yaml") {
			t.Errorf("#%s: %+v; want tab %q, selected only for YAML", id, a, name)
		}
	}
	if a := p.ax("#panel-yaml"); a.Role != "tabpanel" || a.Name != "YAML" {
		t.Errorf("YAML panel: %+v", a)
	}
	if a := p.ax("#heredoc"); a.Role != "region" || a.Name != "The claim, YAML" || a.Props["focusable"] != "true" {
		t.Errorf("the YAML block: %+v; want a focusable region named The claim, YAML", a)
	}
	if a := p.ax("#copy-yaml"); a.Role != "button" || a.Name != "Copy YAML" {
		t.Errorf("copy button: %+v", a)
	}
	// The live region says the summary (the verdict) once an edit is done (#announce, since the
	// summary itself was read out on every key: TestClaimAnnouncedOnceTypingPauses), not the YAML.
	if a := p.ax("#announce"); a.Props["live"] != "polite" || a.Role != "status" {
		t.Errorf("#announce: role %q, live %q; want a polite status", a.Role, a.Props["live"])
	}
	var liveAboveYAML bool
	p.eval(`!!document.getElementById("yaml").closest("[aria-live], [role=status], [role=alert], [role=log]")`, &liveAboveYAML)
	if liveAboveYAML {
		t.Errorf("the YAML sits in a live region: every edit would read it all out")
	}

	// The table: a table with a caption, column headers whose sort buttons are named by the
	// column, row headers naming the device.
	if a := p.ax("table.matches"); a.Role != "table" || !strings.HasPrefix(a.Name, "Every accelerator of the catalog") {
		t.Errorf("accelerator table: %+v", a)
	}
	if a := p.ax(`th[data-sort="memoryGiB"]`); a.Role != "columnheader" {
		t.Errorf("Memory header: %+v", a)
	}
	if a := p.ax(`th[data-sort="memoryGiB"] button`); a.Role != "button" || a.Name != "Memory, GiB" {
		t.Errorf("Memory sort button: %+v", a)
	}
	if a := p.ax("#matches tr th"); a.Role != "rowheader" || !strings.HasPrefix(a.Name, want.Matches[0].Accelerator.Name) {
		t.Errorf("first row header: %+v; want a rowheader naming %q", a, want.Matches[0].Accelerator.Name)
	}
	// The narrow screen's cards display the table as blocks, where WebKit drops a table's implicit
	// roles: every row and cell spells its role out.
	var spelled bool
	p.eval(`Array.from(document.querySelectorAll("table.matches tr")).every(tr => tr.getAttribute("role") === "row" &&
		Array.from(tr.cells).every(c => c.getAttribute("role") === (c.tagName === "TD" ? "cell" : tr.parentElement.tagName === "THEAD" ? "columnheader" : "rowheader")))`, &spelled)
	if !spelled {
		t.Errorf("a row or cell of the accelerator table has no explicit role")
	}
	if a := p.ax("#matches .acc"); a.Role != "button" || a.Props["pressed"] != "false" {
		t.Errorf("a device's button: %+v; want a toggle button, not pressed", a)
	}

	// The pictures: images named by their title, described by the same numbers in words.
	for id, words := range map[string][]string{"chart-memory": {"GiB"}, "chart-speed": {"tok/s", "the target is"}} {
		a := p.ax("#" + id + " svg")
		var title, desc string
		p.eval(fmt.Sprintf(`document.getElementById(%q).textContent`, id+"-t"), &title)
		p.eval(fmt.Sprintf(`document.getElementById(%q).textContent`, id+"-d"), &desc)
		if (a.Role != "image" && a.Role != "img") || a.Name != title || a.Description != desc {
			t.Errorf("%s: %+v; want an image named %q described by %q", id, a, title, desc)
		}
		for _, w := range words {
			if !strings.Contains(desc, w) {
				t.Errorf("%s's description %q does not say %q", id, desc, w)
			}
		}
	}
	p.noProblems()
}

// A popular model picked from the hardware panel's list by keyboard: the list is rebuilt by the
// render it starts, so the focus goes to the model field (where the change is), not to nowhere.
func TestHardwareFittingKeepsFocus(t *testing.T) {
	s := serve(t)
	p := newPage(t, s.URL, 1280, 1000)
	tg := targetWith(func(x *target.Target) { x.Model = exampleModel; x.On = "nvidia-rtx-4090" })
	p.open(target.Permalink(tg))
	p.waitEval(`document.querySelectorAll("#hw-fitting button").length > 0`, "the popular models that fit an RTX 4090")
	p.run(chromedp.Focus("#hw-on", chromedp.ByQuery))
	p.tabUntil(`e.closest("#hw-fitting")`, "the first popular model's button", 5)
	var name string
	p.eval(`document.activeElement.textContent`, &name)
	p.key(kb.Enter)
	var got struct{ Focus, Value string }
	p.eval(`({focus: document.activeElement.id, value: document.getElementById("model").value})`, &got)
	if got.Focus != "model" || got.Value != name {
		t.Errorf("after Enter on %q: focus #%s, model %q; want the model field holding it", name, got.Focus, got.Value)
	}
	tg.Model = name
	want := render(t, tg)
	p.waitText("yaml", func(s string) bool { return s == want.YAML }, "the engine's YAML for "+name)
	p.noProblems()
}
