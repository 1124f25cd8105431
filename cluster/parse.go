package cluster

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"sigs.k8s.io/yaml"
)

// MaxInput is the largest slice list read (5 MiB): `kubectl get resourceslices -o yaml` of a
// hundred nodes with eight GPUs each is about 1.5 MiB; YAML decoding takes several times the
// input in memory, which a browser tab and an edge worker both have to hold.
const MaxInput = 5 << 20

// MaxDevices bounds the devices judged; a slice holds at most 128 (the API's limit).
const MaxDevices = 20000

// MaxInputLarge and MaxDevicesLarge are the bounds of Inputs.Large, the command line's: a
// 1,000-node cluster with eight GPUs a node is about 6 MiB as kubectl -o yaml and 16 MiB as
// -o json (its nodes with their image lists as much again), past MaxInput; with every MIG
// partition of every GPU listed it has some 160,000 devices. Reading such a cluster takes about
// 40 bytes of memory per byte of YAML, which a terminal has and a browser tab may not.
const (
	MaxInputLarge   = 32 << 20
	MaxDevicesLarge = 200000
)

// LargeHint follows a refusal of an input over MaxInput (the page's and the API's bound): where a
// bigger cluster is read.
const LargeHint = "the command line's fitclaim check reads up to 32 MiB"

// limits are the bounds a parse reads within.
type limits struct{ input, devices int }

var (
	smallLimits = limits{MaxInput, MaxDevices}
	largeLimits = limits{MaxInputLarge, MaxDevicesLarge}
)

// inWords writes a byte bound in words: "5242880 bytes (5 MiB)".
func (l limits) inWords() string {
	return strconv.Itoa(l.input) + " bytes (" + strconv.Itoa(l.input>>20) + " MiB)"
}

// Error is a slice (or claim) list that cannot be read, naming the object and the field.
type Error struct {
	Input  string // which input: "claims" for ParseClaims; "" is the slices
	Object string // `ResourceSlice "node-a-gpu"`, or `document 2` / `items[3]` before a name is known
	Field  string // the field's path in the object, "" for the whole input
	Msg    string
}

func (e *Error) Error() string {
	s := "slices: "
	if e.Input != "" {
		s = e.Input + ": "
	}
	if e.Object != "" {
		s += e.Object + ": "
	}
	if e.Field != "" {
		s += e.Field + ": "
	}
	return s + e.Msg
}

// Parse reads ResourceSlices: a List (kubectl's -o yaml or -o json), a ResourceSliceList, one
// ResourceSlice, or several YAML documents separated by `---` lines. resource.k8s.io/v1 and
// v1beta2 (flat devices) and v1beta1 (devices under `basic`) are read.
func Parse(data []byte) ([]Slice, error) { return parseWithin(data, smallLimits) }

func parseWithin(data []byte, lim limits) ([]Slice, error) {
	p := parser{maxDevices: lim.devices}
	if err := eachDocument(data, lim, "", "kubectl get resourceslices -o yaml", p.top); err != nil {
		return nil, err
	}
	if p.objects == 0 {
		return nil, &Error{Msg: "no ResourceSlice in the input: paste the output of kubectl get resourceslices -o yaml"}
	}
	applyTaintRules(p.slices, p.rules)
	return p.slices, nil
}

// eachDocument cuts a paste into its documents (one JSON value, or YAML documents separated by
// `---` lines), decodes each and hands the non-empty ones to top with the document's name
// ("document N", "" when there is one). input is Error.Input for what is pasted ("" for the
// slices, "claims"); kubectl is the command whose output it wants, said when the paste is empty.
// Parse and ParseClaims both read their pastes through it.
func eachDocument(data []byte, lim limits, input, kubectl string, top func(where string, v any) error) error {
	if len(data) > lim.input {
		// Not len(data): the command line reads one byte past the bound, not the whole file.
		msg := "the input is over " + lim.inWords() + ", the most that is read"
		if lim.input < MaxInputLarge {
			msg += "; " + LargeHint
		}
		return &Error{Input: input, Msg: msg}
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return &Error{Input: input, Msg: "empty: paste the output of " + kubectl}
	}
	docs := [][]byte{trimmed}
	if !looksJSON(trimmed) {
		docs = splitDocuments(data)
	}
	for i, doc := range docs {
		where := "document " + strconv.Itoa(i+1)
		if len(docs) == 1 {
			where = ""
		}
		v, err := decode(doc)
		if err != nil {
			return &Error{Input: input, Object: where, Msg: err.Error()}
		}
		if v == nil {
			continue // an empty document
		}
		if err := top(where, v); err != nil {
			return err
		}
	}
	return nil
}

// splitDocuments splits a YAML stream at `---` lines, as kubectl does.
func splitDocuments(data []byte) [][]byte {
	var docs [][]byte
	start := 0
	for i := 0; i <= len(data); {
		end := bytes.IndexByte(data[i:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += i
		}
		line := bytes.TrimRight(data[i:end], "\r")
		if bytes.Equal(line, []byte("---")) || bytes.HasPrefix(line, []byte("--- ")) {
			docs = append(docs, data[start:i])
			start = end + 1
		}
		i = end + 1
	}
	if start < len(data) {
		docs = append(docs, data[start:])
	}
	return docs
}

// decode reads one document as a generic tree, numbers kept as written.
func decode(doc []byte) (any, error) {
	j := bytes.TrimSpace(doc)
	if len(j) == 0 {
		return nil, nil
	}
	if !looksJSON(j) {
		var err error
		if j, err = yaml.YAMLToJSON(doc); err != nil {
			return nil, errorText("not YAML or JSON", err)
		}
	}
	return decodeJSON(j)
}

// looksJSON: the document begins as JSON does, an array or an object whose first key is quoted
// (or none), not as YAML's flow style does ({kind: Node, metadata: {name: a}}), which is YAML.
func looksJSON(j []byte) bool {
	if j[0] == '[' {
		return true
	}
	if j[0] != '{' {
		return false
	}
	rest := bytes.TrimLeft(j[1:], " \t\r\n")
	return len(rest) == 0 || rest[0] == '"' || rest[0] == '}'
}

// decodeJSON reads one JSON value, numbers kept as written.
func decodeJSON(j []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(j))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			err = errCutShort
		}
		return nil, errorText("not YAML or JSON", err)
	}
	if d.More() {
		return nil, errorText("not YAML or JSON", errTrailing)
	}
	return v, nil
}

type constError string

func (e constError) Error() string { return string(e) }

const (
	errTrailing = constError("more than one JSON value; give one List")
	errCutShort = constError("unexpected EOF: the input ends inside a value; is the paste cut short?")
)

// errorText shortens a decoder's message (it may quote a long stretch of the input).
func errorText(what string, err error) error {
	msg := err.Error()
	if len(msg) > 200 {
		msg = msg[:200] + "…"
	}
	return constError(what + " (" + strings.TrimPrefix(msg, "error converting YAML to JSON: ") + ")")
}

// parser accumulates the slices of every document.
type parser struct {
	slices     []Slice
	rules      []TaintRule // DeviceTaintRules pasted beside the slices
	objects    int
	devices    int
	maxDevices int
}

// top reads a document: a List, a ResourceSliceList or a ResourceSlice.
func (p *parser) top(where string, v any) error {
	if where == "" {
		where = "the input"
	}
	if m, ok := v.(map[string]any); ok {
		switch m["kind"] {
		case "DeviceTaintRule":
			return p.taintRule(where, m)
		case "DeviceTaintRuleList": // kubectl get devicetaintrules -o yaml alone prints a List
			return listOrOne(&object{name: where}, v, "DeviceTaintRule", "kubectl get resourceslices,devicetaintrules -o yaml", &p.objects, p.slice)
		}
	}
	return listOrOne(&object{name: where}, v, "ResourceSlice", "kubectl get resourceslices -o yaml", &p.objects, p.slice)
}

// listOrOne reads one document of a paste: a List (or a KIND List) whose items one reads, or
// one KIND object. objects counts a List, which may hold no object: an empty cluster is still
// the output asked for.
func listOrOne(o *object, v any, kind, kubectl string, objects *int, one func(where string, v any) error) error {
	m, ok := v.(map[string]any)
	if !ok {
		msg := "is a " + typeName(v) + "; want a " + kind + " or a List of them"
		if _, text := v.(string); text { // words, not objects: kubectl's table, or "No resources found"
			msg += " (" + kubectl + "; without -o yaml, kubectl prints a table)"
		}
		return o.err("", msg)
	}
	switch k, _ := m["kind"].(string); k {
	case "List", kind + "List":
		*objects++
		items, ok := m["items"].([]any)
		if !ok && m["items"] != nil {
			return o.err("items", "is a "+typeName(m["items"])+"; want a list")
		}
		for i, it := range items {
			// The API server's own list (kubectl get --raw /apis/…, curl, a client's dump) leaves
			// its items' kind and apiVersion out: a KIND List's are the list's.
			if im, ok := it.(map[string]any); ok && k == kind+"List" && im["kind"] == nil {
				im["kind"] = kind
				if im["apiVersion"] == nil {
					im["apiVersion"] = m["apiVersion"]
				}
			}
			if err := one("items["+strconv.Itoa(i)+"]", it); err != nil {
				return err
			}
		}
		return nil
	case kind:
		return one(o.name, m)
	case "":
		if _, ok := m["items"]; ok { // kubectl writes a List's kind after its items
			return o.err("kind", "missing, and items are there: kubectl ends a List with kind: List; is the paste cut short?")
		}
		return o.err("kind", "missing; want "+kind+" or List")
	default:
		return o.err("kind", strconv.Quote(clip(k))+"; want "+kind+" or List ("+kubectl+")")
	}
}

func typeName(v any) string {
	switch v.(type) {
	case map[string]any:
		return "mapping"
	case []any:
		return "list"
	case string:
		return "string"
	case json.Number:
		return "number"
	case bool:
		return "boolean"
	case nil:
		return "null"
	}
	return "value"
}

// clip shortens a value quoted in a message.
func clip(s string) string { return clipAt(s, 80) }

// clipAt shortens s to at most most bytes (and an ellipsis), at a rune's start.
func clipAt(s string, most int) string {
	if len(s) <= most {
		return strings.ToValidUTF8(s, "�")
	}
	cut := most
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strings.ToValidUTF8(s[:cut], "�") + "…"
}
