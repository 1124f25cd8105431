package estimate

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// Any query gives a field error or the contract's object as valid JSON: never a panic, never a
// number JSON cannot hold, and tokensPerSecond exactly when it fits.
func FuzzRunRaw(f *testing.F) {
	for _, q := range []string{
		"p=8&memory=24&bandwidth=1000&family=nvidia",
		"m=Qwen%2FQwen3-30B-A3B-Instruct-2507&on=nvidia-rtx-4090&ctx=32768&seq=4",
		"p=100000&ap=1e-9&L=1000&kvh=1024&hd=4096&ctx=16777216&seq=4096&n=8&memory=1048576&bandwidth=1000000&family=other&unified=1",
		"p=1e-300&memory=1e-300&bandwidth=1e-300&family=apple",
		"p=8&on=nvidia-t4&engine=vllm",
		"p=8&memory=NaN&bandwidth=Inf&family=amd",
	} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, q string) {
		e, err := RunRaw(q)
		if err != nil {
			var fe *target.FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("%q: not a field error: %v", q, err)
			}
			return
		}
		var obj map[string]any
		if err := json.Unmarshal([]byte(JSON(e)), &obj); err != nil {
			t.Fatalf("%q: invalid JSON %s: %v", q, JSON(e), err)
		}
		if _, has := obj["tokensPerSecond"]; has != e.Fits {
			t.Fatalf("%q: fits %v but tokensPerSecond present %v", q, e.Fits, has)
		}
		for _, k := range []string{"needGiB", "usableGiB", "maxContextTokens", "maxSequences"} {
			if _, ok := obj[k].(float64); !ok {
				t.Fatalf("%q: %s is %v", q, k, obj[k])
			}
		}
	})
}
