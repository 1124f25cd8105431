package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"strings"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/target"
	"github.com/fitclaim/fitclaim/wasm/bridge"
)

// defaultExample is the claim a bare visit shows: a mixture-of-experts model sized with its KV
// cache for a real driver, so every part of the page (the allow-list, the memory picture, the
// speed bars) has something to show.
const defaultExample = "m=Qwen%2FQwen3-30B-A3B-Instruct-2507&s=kv&ctx=32768&seq=4&drv=nvidia"

// example is one claim rendered by the engine at build time, exactly as fitclaim.render would
// give it to the page.
type example struct {
	fragment string
	yaml     string
	json     string
	summary  string // the summary's paragraphs as app.js writes them (writeSummary), prerendered
	data     []byte // {"fragment", "target", "result"}: what app.js shows before the wasm is there
}

func renderExample(fragment string) (*example, error) {
	t, err := target.ParsePermalink(fragment)
	if err != nil {
		return nil, fmt.Errorf("example #%s: %w", fragment, err)
	}
	r, err := claim.Render(t)
	if err != nil {
		return nil, fmt.Errorf("example #%s: %w", fragment, err)
	}
	data, err := json.Marshal(map[string]any{
		"fragment": target.Permalink(t),
		"target":   bridge.TargetView(t),
		"result":   json.RawMessage(bridge.ResultJSON(t, r)),
	})
	if err != nil {
		return nil, err
	}
	// Inside <script type="application/json"> nothing may close the element: '<' only occurs in
	// JSON strings, where \u003c spells it.
	data = bytes.ReplaceAll(data, []byte("<"), []byte(`\u003c`))
	return &example{fragment: fragment, yaml: r.YAML, json: r.JSON, data: data, summary: summaryHTML(t, r)}, nil
}

// summaryHTML is the example's summary as app.js's writeSummary writes it (its sentence and its
// verdict), so a bare visit's first paint has it: drawn by app.js after the first paint, it pushed
// the claim under it down 143 px (1280 px wide) to 244 px (390). Marked data-example: a link's
// load does not show it (style.css). Empty where the summary has a button (a split, another
// driver), which app.js writes.
func summaryHTML(t target.Target, r claim.Result) string {
	var res struct {
		Explain struct {
			Summary, Verdict string
			Split            json.RawMessage
		}
		DriverNote string `json:"driverNote"`
	}
	if json.Unmarshal([]byte(bridge.ResultJSON(t, r)), &res) != nil || res.DriverNote != "" ||
		(len(res.Explain.Split) > 0 && string(res.Explain.Split) != "null") {
		return ""
	}
	return `<p data-example>` + html.EscapeString(res.Explain.Summary) + `</p><p class="verdict-line" data-example>` +
		html.EscapeString(res.Explain.Verdict) + `</p>`
}

// fill writes the example into a page's placeholders (HTML comments, so web/index.html stays a
// valid page): the YAML and JSON as text, the data block app.js renders the rest from, and the
// field table (fitclaim.fields()), from which app.js labels the form before the engine is there.
func (ex *example) fill(page []byte) ([]byte, error) {
	repl := map[string]string{
		"<!--example:yaml-->":    html.EscapeString(ex.yaml),
		"<!--example:json-->":    html.EscapeString(ex.json),
		"<!--example:summary-->": ex.summary,
		"<!--example:data-->": `<script type="application/json" id="example">` + string(ex.data) + `</script>` +
			`<script type="application/json" id="fields">` + strings.ReplaceAll(bridge.FieldsJSON(), "<", `\u003c`) + `</script>`,
	}
	s := string(page)
	for k, v := range repl {
		if strings.Count(s, k) != 1 {
			return nil, fmt.Errorf("index.html: want exactly one %s placeholder", k)
		}
		s = strings.Replace(s, k, v, 1)
	}
	return []byte(s), nil
}
