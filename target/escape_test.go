package target

import (
	"net/url"
	"strings"
	"testing"
)

// The hand-written percent-encoding must agree with net/url's, which links made elsewhere use.
func TestEscapeAgreesWithNetURL(t *testing.T) {
	inputs := []string{"", "plain", "NousResearch/Llama-2-7b-chat-hf", "a b+c&d=e#f?g", "ü€\x00\x7f\xff", "100%", "~-_.", "'quote'\"", "\n\r\t"}
	for _, s := range inputs {
		if got, want := queryEscape(s), url.QueryEscape(s); got != want {
			t.Errorf("queryEscape(%q) = %q, net/url %q", s, got, want)
		}
		back, err := queryUnescape(queryEscape(s))
		if err != nil || back != s {
			t.Errorf("round trip of %q = %q, %v", s, back, err)
		}
	}
}

func FuzzUnescapeAgreesWithNetURL(f *testing.F) {
	for _, s := range []string{"a+b", "%41", "%4", "%zz", "%", "%%41", "ok", "%e2%82%ac"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := queryUnescape(s)
		want, werr := url.QueryUnescape(s)
		if (err != nil) != (werr != nil) || got != want && err == nil {
			t.Fatalf("queryUnescape(%q) = %q, %v; net/url %q, %v", s, got, err, want, werr)
		}
	})
}

// hasEscape is strings.ContainsAny(s, "%+") on every byte alone and in short and long texts.
func TestHasEscapeIsContainsAny(t *testing.T) {
	for b := 0; b < 256; b++ {
		for _, s := range []string{string([]byte{byte(b)}), "ab" + string([]byte{byte(b)}), "0123456789ab" + string([]byte{byte(b)}) + "é"} {
			if got, want := hasEscape(s), strings.ContainsAny(s, "%+"); got != want {
				t.Fatalf("hasEscape(%q) = %v, ContainsAny %v", s, got, want)
			}
		}
	}
}
