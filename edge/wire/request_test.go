package wire

import (
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
)

// oldRequest is how wasm/edge/direct.go read the request before this package (strings.Cut,
// url.Parse, http.Header.Add), which Request must agree with.
func oldRequest(s string) (*http.Request, bool) {
	method, s, ok1 := strings.Cut(s, "\n")
	rawURL, s, ok2 := strings.Cut(s, "\n")
	if !ok1 || !ok2 {
		return nil, false
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, false
	}
	header := http.Header{}
	for s != "" {
		name, rest, ok1 := strings.Cut(s, "\n")
		value, rest, ok2 := strings.Cut(rest, "\n")
		if !ok1 || !ok2 {
			return nil, false
		}
		header.Add(name, value)
		s = rest
	}
	return &http.Request{
		Method:     method,
		URL:        u,
		Header:     header,
		Body:       http.NoBody,
		Host:       header.Get("Host"),
		RemoteAddr: header.Get("Cf-Connecting-Ip"),
	}, true
}

var requestCorpus = []string{
	"GET\nhttp://127.0.0.1:8787/api/v1/claim.yaml?m=Qwen%2FQwen2.5-7B-Instruct\nhost\n127.0.0.1:8787\nuser-agent\nGo-http-client/1.1\naccept-encoding\ngzip\n",
	"HEAD\nhttps://fitclaim-api.workers.dev/api/v1/version\nhost\nfitclaim-api.workers.dev\nif-none-match\n\"abc\", W/\"def\"\ncf-connecting-ip\n203.0.113.9\n",
	"GET\nhttp://h/api/v1/models?q=llama&limit=10\n",
	"GET\nhttp://h/api/v1/models?\n",                          // ForceQuery
	"GET\nhttp://h/api/v1/claim%2Eyaml?m=x\nx-a\n1\nX-A\n2\n", // escaped path; a repeated name
	"GET\nhttp://h/a!b/(c)?x=1\n",
	"GET\nhttp://h/%zz\n",            // url.Parse refuses it
	"GET\nhttp://h/a?b=\x01\n",       // a control byte
	"GET\nhttp://h/a?b#frag\n",       // a fragment
	"GET\nhttp://user@h/a\n",         // userinfo
	"GET\nhttp://[::1]:80/a\n",       // IPv6
	"GET\nhttp://h:/a\n",             // empty port
	"GET\nhttp://h:8x/a\n",           // bad port
	"GET\nHTTP://H/A\n",              // upper-case scheme
	"GET\n/relative?x\n",             // no scheme
	"GET\nhttp:opaque\n",             // opaque
	"GET\nhttp://h\n",                // no path
	"GET\nhttp://h/a\nbad name\nv\n", // a name with a space: kept as it is
	"GET\nhttp://h/a\nx_y-z\nv\n",    // underscore
	"GET\nhttp://h/a\ncontent-TYPE\nv\n",
	"GET\nhttp://h/a\n\nempty name\n",
	"GET\nhttp://h/a\nname\n",      // no value line
	"GET\nhttp://h/a\nname\nvalue", // no final '\n'
	"GET\nhttp://h/a",              // no '\n' after the URL
	"GET",
	"",
	"GET\nhttp://h/a\nä-b\nv\n", // a non-ASCII name
}

func TestRequestIsOldRequest(t *testing.T) {
	for _, s := range requestCorpus {
		checkRequest(t, s)
	}
}

// TestReaderIsOldRequest: one Reader reading the corpus in turn, twice over, gives each request
// as a fresh read does: the memory it reuses keeps nothing of the request before.
func TestReaderIsOldRequest(t *testing.T) {
	var rd Reader
	for range 2 {
		for _, s := range requestCorpus {
			want, wantOK := oldRequest(s)
			got, gotOK := rd.Read([]byte(s))
			if gotOK != wantOK {
				t.Fatalf("%q: ok %v, want %v", s, gotOK, wantOK)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%q:\n got %#v %#v\nwant %#v %#v", s, got, got.URL, want, want.URL)
			}
		}
	}
}

func FuzzRequestIsOldRequest(f *testing.F) {
	for _, s := range requestCorpus {
		f.Add(s)
	}
	f.Fuzz(checkRequest)
}

func checkRequest(t *testing.T, s string) {
	want, wantOK := oldRequest(s)
	got, gotOK := Request([]byte(s))
	if gotOK != wantOK {
		t.Fatalf("%q: ok %v, want %v", s, gotOK, wantOK)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q:\n got %#v %#v\nwant %#v %#v", s, got, got.URL, want, want.URL)
	}
}

func TestPlainURLIsParse(t *testing.T) {
	urls := []string{"http://127.0.0.1:8787/api/v1/claim.yaml?m=Qwen%2FQwen2.5-7B-Instruct&tps=40", "https://x.dev/api/v1/version", "http://h/a?%zz", "http://h/a/../b?c"}
	for _, s := range requestCorpus {
		if _, rest, ok := strings.Cut(s, "\n"); ok {
			u, _, _ := strings.Cut(rest, "\n")
			urls = append(urls, u)
		}
	}
	plain := 0
	for _, raw := range urls {
		got, ok := plainURL(raw, new(url.URL))
		if !ok {
			continue
		}
		plain++
		want, err := url.Parse(raw)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%q: plainURL %#v, url.Parse %#v, %v", raw, got, want, err)
		}
	}
	if plain < 5 {
		t.Errorf("only %d of the URLs were plain: the fast path is not tested", plain)
	}
}
