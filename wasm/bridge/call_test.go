package bridge

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/target"
)

// entry is one key of an object argument as web/render.js writes it.
type entry struct {
	key string
	typ byte
	str string
	num float64
	b   bool
}

// callObject writes one argument the way web/render.js does: 'o', the count, the entries.
func callObject(dst []byte, entries ...entry) []byte {
	dst = append(dst, 'o')
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(entries)))
	for _, e := range entries {
		dst = append(dst, e.typ)
		dst = binary.LittleEndian.AppendUint32(dst, uint32(len(e.key)))
		dst = append(dst, e.key...)
		switch e.typ {
		case 's':
			dst = binary.LittleEndian.AppendUint32(dst, uint32(len(e.str)))
			dst = append(dst, e.str...)
		case 'n':
			dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(e.num))
		case 'b':
			if e.b {
				dst = append(dst, 1)
			} else {
				dst = append(dst, 0)
			}
		}
	}
	return dst
}

// The answer to a call is render's text: the page's columns form for {columns: true}, the
// documented form for absent options, as fitclaim.render gives them for the same target.
func TestAppendRenderAnswersAsRender(t *testing.T) {
	tg, err := target.ParsePermalink("m=NousResearch%2FLlama-2-7b-chat-hf&tps=30")
	if err != nil {
		t.Fatal(err)
	}
	r, err := claim.Render(tg)
	if err != nil {
		t.Fatal(err)
	}
	obj := callObject(nil, entry{key: "model", typ: 's', str: "NousResearch/Llama-2-7b-chat-hf"}, entry{key: "minTps", typ: 'n', num: 30})
	for _, c := range []struct {
		options []byte
		want    string
	}{
		{callObject(nil, entry{key: "columns", typ: 'b', b: true}), string(AppendResultColumnsJSON(nil, tg, r))},
		{[]byte{'u'}, ResultJSON(tg, r)},
		{callObject(nil, entry{key: "columns", typ: 'b', b: false}), ResultJSON(tg, r)},
		{callObject(nil), ResultJSON(tg, r)},
	} {
		got, ok := AppendRender([]byte("kept: "), append(append([]byte{}, obj...), c.options...))
		text, kept := strings.CutPrefix(string(got), "kept: ")
		if !ok || !kept {
			t.Fatalf("options %q: ok %v, kept %v", c.options, ok, kept)
		}
		// The same values as render's text, in ASCII only (the YAML's "≈" as \u2248).
		var gotV, wantV any
		if err := json.Unmarshal([]byte(text), &gotV); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(c.want), &wantV); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(gotV, wantV) {
			t.Fatalf("options %q: the answer's values differ from render's", c.options)
		}
		if i := strings.IndexFunc(text, func(r rune) bool { return r >= utf8.RuneSelf }); i >= 0 {
			t.Fatalf("options %q: a byte beyond ASCII at %d", c.options, i)
		}
		if !strings.Contains(ResultJSON(tg, r), "≈") || !strings.Contains(text, `\u2248`) {
			t.Fatalf("options %q: want the claim's ≈ in render's text and \\u2248 in the answer", c.options)
		}
	}
}

// A call render refuses answers with the Error render rejects with, as JSON: its message, and
// for a field's error the field, key and label.
func TestAppendRenderRefusesAsRender(t *testing.T) {
	columns := callObject(nil, entry{key: "columns", typ: 'b', b: true})
	paramsB := entry{key: "paramsB", typ: 'n', num: 7}
	for _, c := range []struct {
		call  []byte
		field string
		msg   string
	}{
		{append(callObject(nil, paramsB, entry{key: "minTps", typ: 'n', num: -1}), columns...), "minTps", "must be a decimal number greater than 0"},
		{append(callObject(nil, paramsB, entry{key: "minTps", typ: 's', str: "30"}), columns...), "minTps", `must be of type number, not string (got "30")`},
		{append(callObject(nil, paramsB, entry{key: "template", typ: 'o'}), columns...), "template", "must be of type boolean, not object"},
		{append(callObject(nil, paramsB, entry{key: "minTps", typ: 'g'}), columns...), "minTps", "must be of type number, not bigint"},
		{append(callObject(nil, entry{key: "color", typ: 's', str: "red"}), columns...), "target", `unknown key "color"`},
		{append([]byte{'s'}, columns...), "target", "must be an object"},
		{append([]byte{'u'}, columns...), "target", "must be an object"},
		{append(callObject(nil, paramsB), 'n'), "options", "must be an object such as {columns: true}, not number"},
		{append(callObject(nil, paramsB), callObject(nil, entry{key: "rows", typ: 'b', b: true})...), "options", `unknown key "rows"; known keys: columns`},
		{append(callObject(nil, paramsB), callObject(nil, entry{key: "columns", typ: 's', str: "yes"})...), "options", "columns must be of type boolean, not string"},
	} {
		got, ok := AppendRender(nil, c.call)
		var e struct{ Message, Field, Key, Label *string }
		if err := json.Unmarshal(got, &e); err != nil {
			t.Fatalf("%s: the answer is not JSON: %v: %s", c.msg, err, got)
		}
		if ok || e.Message == nil || !strings.Contains(*e.Message, c.msg) || e.Field == nil || *e.Field != c.field || e.Key == nil || e.Label == nil {
			t.Errorf("ok %v, answer %s; want an error naming field %q with %q", ok, got, c.field, c.msg)
		}
	}
}

// A permalink call answers the target's permalink as fitclaim.permalink does, and refuses what
// fitclaim.permalink refuses with its words: a value of the wrong type (a value out of range is
// spelled, as fitclaim.permalink spells it; render refuses it).
func TestAppendPermalink(t *testing.T) {
	obj := callObject(nil, entry{key: "model", typ: 's', str: "NousResearch/Llama-2-7b-chat-hf"}, entry{key: "minTps", typ: 'n', num: 30})
	// The model's name with its slash escaped (%2F) under m, the speed under tps: the link the
	// page bench opens, plus the speed.
	const want = "m=NousResearch%2FLlama-2-7b-chat-hf&tps=30"
	got, ok := AppendPermalink([]byte("kept: "), append(obj, 'u'))
	if !ok || string(got) != "kept: "+want {
		t.Fatalf("ok %v, %q; want %q", ok, got, "kept: "+want)
	}
	got, ok = AppendPermalink(nil, append(callObject(nil, entry{key: "paramsB", typ: 'n', num: 7}, entry{key: "minTps", typ: 's', str: "30"}), 'u'))
	var e struct{ Message, Field string }
	if err := json.Unmarshal(got, &e); err != nil {
		t.Fatalf("the answer is not JSON: %v: %s", err, got)
	}
	if ok || e.Field != "minTps" || !strings.Contains(e.Message, `must be of type number, not string (got "30")`) {
		t.Fatalf("ok %v, %s; want minTps's error", ok, got)
	}
}

// Bytes web/render.js would never write (cut short, a count beyond the bytes, an unknown type,
// bytes left over) are an internal error, never a panic or a render of half a call.
func TestDecodeCallRefusesMalformedCalls(t *testing.T) {
	good := append(callObject(nil, entry{key: "paramsB", typ: 'n', num: 7}), 'u')
	if _, _, err := DecodeCall(good); err != nil {
		t.Fatalf("the good call: %v", err)
	}
	for i := range len(good) {
		if _, _, err := DecodeCall(good[:i]); err != errMalformedCall {
			t.Errorf("cut to %d bytes: err %v, want errMalformedCall", i, err)
		}
	}
	huge := []byte{'o', 0xff, 0xff, 0xff, 0x7f, 'u'}
	for _, bad := range [][]byte{append(good, 'u'), {'x', 'u'}, {'u', 'x'}, huge, append(callObject(nil, entry{key: "k", typ: 'q'}), 'u')} {
		if _, _, err := DecodeCall(bad); err != errMalformedCall {
			t.Errorf("%q: err %v, want errMalformedCall", bad, err)
		}
	}
	if got, ok := AppendRender(nil, nil); ok || !strings.Contains(string(got), "internal error in fitclaim") {
		t.Fatalf("no call: ok %v, %s", ok, got)
	}
}

// Any bytes are read, or refused with a field's error or as malformed; never a panic.
func FuzzDecodeCall(f *testing.F) {
	f.Add(append(callObject(nil, entry{key: "paramsB", typ: 'n', num: 7}), callObject(nil, entry{key: "columns", typ: 'b', b: true})...))
	f.Add([]byte{'u', 'u'})
	f.Fuzz(func(t *testing.T, b []byte) {
		var fe *target.FieldError
		if _, _, err := DecodeCall(b); err != nil && err != errMalformedCall && !errors.As(err, &fe) {
			t.Fatalf("%q: %v, neither a field's error nor errMalformedCall", b, err)
		}
	})
}

// AppendRender writes a render's matches into the array the render before it used
// (renderMatches): one after another, on targets whose matches differ in count of devices
// needed, driver and sizing, each answer is the columns text of a fresh claim.Render.
func TestAppendRenderReusedMatchesAnswerAsRender(t *testing.T) {
	links := []string{
		"m=deepseek-ai%2FDeepSeek-R1&tps=30", // needs several devices: NeededTps, NeededMemoryGi set
		"m=NousResearch%2FLlama-2-7b-chat-hf&tps=30",
		"m=Qwen%2FQwen3-30B-A3B-Instruct-2507&s=kv&ctx=32768&seq=4&drv=nvidia",
		"m=Qwen%2FQwen3-30B-A3B-Instruct-2507&s=kv&drv=any&n=2",
		"p=7&tps=5",
		"m=NousResearch%2FLlama-2-7b-chat-hf&tps=30",
	}
	columns := callObject(nil, entry{key: "columns", typ: 'b', b: true})
	for round := 0; round < 2; round++ {
		for _, link := range links {
			tg, r := renderLink(t, link)
			obj := entries(t, TargetView(tg))
			want := string(AppendResultColumnsJSON(nil, tg, r))
			got, ok := AppendRender(nil, append(callObject(nil, obj...), columns...))
			if !ok || string(got) != want {
				t.Fatalf("%s (round %d): AppendRender's answer differs from claim.Render's", link, round)
			}
		}
	}
}
