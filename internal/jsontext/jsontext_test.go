package jsontext

import (
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"testing"
	"unicode/utf8"
)

func TestWriterProducesValidJSON(t *testing.T) {
	var w Writer
	w.BeginObject()
	w.Key("s")
	w.Str("a \"quoted\"\n\x01 line \xff")
	w.Key("n")
	w.Num(1e21)
	w.Key("x")
	w.Num(math.Inf(1))
	w.Key("i")
	w.Int(-42)
	w.Key("b")
	w.Bool(true)
	w.Key("list")
	w.BeginArray()
	w.BeginObject()
	w.Key("k")
	w.Str("v")
	w.EndObject()
	w.Strs([]string{"p", "q"})
	w.Num(0.5)
	w.EndArray()
	w.Key("empty")
	w.BeginObject()
	w.EndObject()
	w.EndObject()
	var got map[string]any
	if err := json.Unmarshal(w.Bytes(), &got); err != nil {
		t.Fatalf("%s: %v", w.String(), err)
	}
	want := map[string]any{
		"s": "a \"quoted\"\n\x01 line \ufffd", "n": 1e21, "x": nil, "i": -42.0, "b": true,
		"list": []any{map[string]any{"k": "v"}, []any{"p", "q"}, 0.5}, "empty": map[string]any{},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %#v\nwant %#v", got, want)
	}
}

func FuzzQuoteRoundTrips(f *testing.F) {
	for _, s := range []string{"", "plain", "\"\\", "\x00\x1f\x7f", "\u2028", "\xff\xfe", "ünï €"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var back string
		if err := json.Unmarshal([]byte(Quote(s)), &back); err != nil {
			t.Fatalf("Quote(%q) = %s: %v", s, Quote(s), err)
		}
		want, err := json.Marshal(s) // encoding/json also turns invalid UTF-8 into U+FFFD
		if err != nil {
			t.Fatal(err)
		}
		var wantBack string
		if err := json.Unmarshal(want, &wantBack); err != nil {
			t.Fatal(err)
		}
		if back != wantBack {
			t.Fatalf("Quote(%q) reads back %q, want %q", s, back, wantBack)
		}
		ascii := AppendQuoteASCII(nil, s)
		for _, c := range ascii {
			if c >= utf8.RuneSelf {
				t.Fatalf("AppendQuoteASCII(%q) = %s: not ASCII", s, ascii)
			}
		}
		back = ""
		if err := json.Unmarshal(ascii, &back); err != nil || back != wantBack {
			t.Fatalf("AppendQuoteASCII(%q) = %s reads back %q (%v), want %q", s, ascii, back, err, wantBack)
		}
	})
}

// The ASCII form of a few characters, each escape written out: ≥ is U+2265, é U+00E9, and 🚀
// U+1F680, beyond 16 bits, is the surrogate pair D83D DE80 (0x1F680 - 0x10000 = 0xF680; its top
// ten bits 0x3D + 0xD800, its low ten 0x280 + 0xDC00).
func TestQuoteASCII(t *testing.T) {
	if got, want := string(AppendQuoteASCII(nil, "≥ é 🚀 \\n")), `"\u2265 \u00e9 \ud83d\ude80 \\n"`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	w := NewASCIIWriter(nil)
	w.BeginObject()
	w.Key("≥")
	w.Strs([]string{"×"})
	w.EndObject()
	if got, want := w.String(), `{"\u2265":["\u00d7"]}`; got != want {
		t.Errorf("ASCII writer: %s, want %s", got, want)
	}
}

func TestRound(t *testing.T) {
	cases := []struct{ x, want float64 }{{7.35, 7.4}, {4.06, 4.1}, {0.05, 0.1}, {2.25, 2.3}, {-2.25, -2.3}, {0.04, 0}, {17.7085087744, 17.7}}
	for _, c := range cases {
		if got := Round(c.x, 1); got != c.want {
			t.Errorf("Round(%v) = %v, want %v", c.x, got, c.want)
		}
	}
}

// Num's whole-number shortcut must print exactly what strconv's shortest 'g' prints: the
// integers, the edges where 'g' switches to an exponent (1e+06), and negative zero.
func TestNumWholeNumbersMatchShortestG(t *testing.T) {
	cases := map[float64]string{0: "0", math.Copysign(0, -1): "-0", 7: "7", -42: "-42", 100000: "100000",
		999999: "999999", -999999: "-999999", 1e6: "1e+06", -1e6: "-1e+06", 2.5: "2.5", 1e21: "1e+21"}
	for x, want := range cases {
		var w Writer
		w.Num(x)
		if got := w.Finish(); got != want {
			t.Errorf("Num(%v) = %q, want %q", x, got, want)
		}
	}
	for x := -1100000.0; x <= 1100000; x += 997 {
		var w Writer
		w.Num(x)
		if got, want := w.String(), strconv.FormatFloat(x, 'g', -1, 64); got != want {
			t.Fatalf("Num(%v) = %q, strconv says %q", x, got, want)
		}
	}
}

// Finish hands over the text; writing afterwards starts afresh and leaves it alone.
func TestFinishDetachesTheText(t *testing.T) {
	var w Writer
	w.Strs([]string{"a"})
	got := w.Finish()
	w.Strs([]string{"b"})
	if got != `["a"]` || w.String() != `["b"]` {
		t.Errorf("Finish = %q, then %q", got, w.String())
	}
}

// StrBytes writes what Str writes, and the buffer it read may be reused at once.
func TestStrBytesIsStr(t *testing.T) {
	var a, b Writer
	buf := []byte("needs 24 Gi, \"has\" 23.5 ≥ \x01")
	a.Str(string(buf))
	b.StrBytes(buf)
	copy(buf, "xxxxx")
	if a.String() != b.String() {
		t.Errorf("StrBytes = %s, Str = %s", b.String(), a.String())
	}
}

// TestQuotePlainIsAppendQuote: Quote's shortcut for text that quotes as itself gives what the
// escaping path gives, at each boundary of "plain" (space, DEL, '"', '\\', a control
// character, the first non-ASCII byte, invalid UTF-8).
func TestQuotePlainIsAppendQuote(t *testing.T) {
	for _, s := range []string{"", "a", "Qwen/Qwen2.5-7B-Instruct", " ~", "\x7f", "a\"b", `a\b`, "a\x1fb", "é", "a\xffb", "\u2028", "gpu.nvidia.com"} {
		if got, want := Quote(s), string(AppendQuote(nil, s)); got != want {
			t.Errorf("Quote(%q) = %s, AppendQuote gives %s", s, got, want)
		}
	}
	// by hand: the plain text in quotes, and an escaped one
	if got := Quote("a b"); got != `"a b"` {
		t.Errorf(`Quote("a b") = %s, want "a b"`, got)
	}
	if got := Quote("a\"b\n"); got != `"a\"b\n"` {
		t.Errorf(`Quote("a\"b\n") = %s, want "a\"b\n"`, got)
	}
}
