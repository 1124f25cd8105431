package api

import (
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// One rule for a 0 (target's TestZeroIsTheTableRule): KEY=0 answers the bytes of the query
// without it where the table's 0 means absent, and 400 naming the key and its range elsewhere,
// on the claim, deploy and estimate routes.
func TestZeroIsTheTableRuleAPI(t *testing.T) {
	h := Handler()
	for _, base := range []string{
		"/api/v1/claim.yaml?m=Qwen%2FQwen3-8B&s=kv&drv=nvidia",
		"/api/v1/claim.json?p=70&L=80&kvh=8&hd=128&s=kv",
		"/api/v1/deploy.yaml?m=Qwen%2FQwen3-8B&s=kv&engine=vllm",
		"/api/v1/estimate.json?m=Qwen%2FQwen3-8B&memory=24&bandwidth=900&family=nvidia",
	} {
		code0, body0 := getAPI(h, base)
		if code0 != 200 {
			t.Fatalf("%s: %d %s", base, code0, body0)
		}
		for i := range target.Fields {
			f := &target.Fields[i]
			if k := f.Kind(); (k != target.KindNumber && k != target.KindInteger) || strings.Contains(base, "&"+f.Key+"=") || strings.Contains(base, "?"+f.Key+"=") {
				continue
			}
			code, body := getAPI(h, base+"&"+f.Key+"=0")
			if f.ZeroMeansDerived() {
				if code != code0 || body != body0 {
					t.Errorf("%s&%s=0: %d, not the bytes without it (%q)", base, f.Key, code, body)
				}
			} else if code != 400 || !strings.Contains(body, f.Label+" ("+f.Name+", "+f.Key+")") || !strings.Contains(body, f.Allowed()) {
				t.Errorf("%s&%s=0: %d %q; want 400 naming the key and its range", base, f.Key, code, body)
			}
		}
	}
}
