// Package docs writes the parts of README.md and docs/CONTRACT.md that are derived from the
// field table (package target), between marker comments, so they cannot drift from the code.
// `go generate ./target/...` rewrites them; TestDocsCurrent fails while they are stale.
package docs

//go:generate go run ./gen ../../README.md ../../docs/CONTRACT.md

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"

	"github.com/fitclaim/fitclaim/claim" // and through it package fit, which provides the choices of quant, kvCache and driver
	"github.com/fitclaim/fitclaim/target"
	"github.com/fitclaim/fitclaim/wasm/bridge"
)

// A generated section sits between these two lines, named by what stands after "fields:".
const (
	beginMark = "<!-- generated from target.Fields by `go generate ./target/...`: "
	endMark   = "<!-- end of generated "
)

// Sections are the generated parts by name: README.md has "permalink-table", CONTRACT.md
// "bridge-fields" and "bridge-result".
var Sections = map[string]func() string{
	"permalink-table": PermalinkTable,
	"bridge-fields":   BridgeFields,
	"bridge-result":   BridgeResult,
}

// PermalinkTable is the README's table of keys, fields, flags, labels, defaults and ranges.
func PermalinkTable() string {
	var b strings.Builder
	b.WriteString("| key | field (JSON / bridge) | flag | label | default | allowed | meaning |\n|---|---|---|---|---|---|---|\n")
	for i := range target.Fields {
		f := &target.Fields[i]
		flag := "positional"
		if f.Flag != "" {
			flag = "`--" + f.Flag + "`"
		}
		row := []string{"`" + f.Key + "`", "`" + f.Name + "`", flag, f.Label, defaultText(f), cell(f.Range()), cell(f.Help)}
		b.WriteString("| " + strings.Join(row, " | ") + " |\n")
	}
	b.WriteString("| `" + target.FormatKey + "` | — | — | link format | " + target.Num(target.FormatVersion) + " | a whole number ≥ 1 | the link format's version; older links keep working |\n")
	return b.String()
}

// BridgeFields is CONTRACT.md's list of the target object's properties and their JS types.
func BridgeFields() string {
	types := map[target.Kind]string{target.KindString: "string", target.KindNumber: "number", target.KindInteger: "number (whole)", target.KindBool: "boolean"}
	var b strings.Builder
	b.WriteString("| property | JS type | label | default | allowed |\n|---|---|---|---|---|\n")
	for i := range target.Fields {
		f := &target.Fields[i]
		b.WriteString("| `" + f.Name + "` | " + types[f.Kind()] + " | " + f.Label + " | " + defaultText(f) + " | " + cell(f.Range()) + " |\n")
	}
	return b.String()
}

func defaultText(f *target.Field) string {
	switch {
	case f.Default != "":
		return "`" + f.Default + "`"
	case f.Kind() == target.KindBool:
		return "`0`"
	case f.Derived != "":
		return f.DerivedText()
	}
	return "—"
}

// cell keeps a table cell one cell.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// Update rewrites every generated section of a document.
func Update(doc string) (string, error) {
	var out strings.Builder
	rest := doc
	for {
		i := strings.Index(rest, beginMark)
		if i < 0 {
			out.WriteString(rest)
			return out.String(), nil
		}
		nameEnd := strings.Index(rest[i:], " -->\n")
		if nameEnd < 0 {
			return "", errors.New("docs: unterminated begin marker")
		}
		name := rest[i+len(beginMark) : i+nameEnd]
		gen, ok := Sections[name]
		if !ok {
			return "", errors.New("docs: unknown generated section " + name)
		}
		bodyStart := i + nameEnd + len(" -->\n")
		end := endMark + name + " -->"
		j := strings.Index(rest[bodyStart:], end)
		if j < 0 {
			return "", errors.New("docs: no end marker for " + name)
		}
		out.WriteString(rest[:bodyStart])
		out.WriteString(gen())
		out.WriteString(end)
		rest = rest[bodyStart+j+len(end):]
	}
}

// BridgeResult lists the properties of fitclaim.render's answer, read from what the bridge
// writes for an example target, so the list cannot miss one.
func BridgeResult() string {
	tg, err := target.ParsePermalink("m=NousResearch%2FLlama-2-7b-chat-hf")
	if err != nil {
		panic(err)
	}
	r, err := claim.Render(tg)
	if err != nil {
		panic(err)
	}
	var parts map[string]json.RawMessage
	result := json.RawMessage(bridge.ResultJSON(tg, r))
	if err := json.Unmarshal(result, &parts); err != nil {
		panic(err)
	}
	var matches []json.RawMessage
	if err := json.Unmarshal(parts["matches"], &matches); err != nil || len(matches) == 0 {
		panic("docs: no matches in the example")
	}
	line := func(name string, obj json.RawMessage) string {
		return "- `" + name + "`: `{" + strings.Join(keys(obj), ", ") + "}`\n"
	}
	var columns, accs []json.RawMessage
	if err := json.Unmarshal(bridge.AppendResultColumnsJSON(nil, tg, r), &parts); err != nil {
		panic(err)
	}
	if err := json.Unmarshal([]byte("["+string(parts["table"])+"]"), &columns); err != nil {
		panic(err)
	}
	if err := json.Unmarshal([]byte(bridge.AcceleratorsJSON()), &accs); err != nil || len(accs) == 0 {
		panic("docs: no accelerators")
	}
	return line("render(target)", result) + line("bounds", parts["bounds"]) + line("explain", parts["explain"]) + line("matches[]", matches[0]) +
		line("render(target, {columns: true}).table", columns[0]) + line("accelerators()[]", accs[0])
}

// keys are an object's keys in the order they are written.
func keys(obj json.RawMessage) []string {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		panic("docs: not an object")
	}
	var out []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			panic(err)
		}
		out = append(out, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			panic(err)
		}
	}
	return out
}
