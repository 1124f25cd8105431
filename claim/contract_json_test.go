package claim

import (
	"encoding/json"
	"math"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/target"
)

// docs/CONTRACT.md § claim says which keys the claim's JSON carries and when, and what a few of
// them hold. This test renders a grid of targets and holds the JSON to those sentences: the key
// set is exactly the stated one, each key has the stated type, the stated values hold, and every
// key the JSON can carry is named in that section of the document.
func TestClaimJSONIsTheContract(t *testing.T) {
	doc, err := os.ReadFile("../docs/CONTRACT.md")
	if err != nil {
		t.Fatal(err)
	}
	section := string(doc)
	if i := strings.Index(section, "## claim ("); i >= 0 {
		section = section[i:]
		if j := strings.Index(section[3:], "\n## "); j >= 0 {
			section = section[:j+3]
		}
	} else {
		t.Fatal("docs/CONTRACT.md has no claim section")
	}
	llmfitKeys := []string{"claimName", "deviceClass", "efficiencyPct", "memoryGi", "minBandwidthGBs", "minTps", "model", "quant", "resolverVersion", "weightsGb"}
	kvKeys := []string{"activeParamsB", "contextTokens", "efficiencyGiven", "engine", "kvCache", "kvCacheGi", "kvEstimated", "overheadGi", "sequences", "sizing", "speedEfficiency", "speedFamily", "speedOverheadMs"}
	anyKVKeys := []string{"nvidiaMinBandwidthGBs", "nvidiaSpeedEfficiency", "nvidiaSpeedFamily"}
	types := map[string]string{ // "n" number, "i" whole number, "s" string, "b" boolean, "a" array of strings
		"claimName": "s", "deviceClass": "s", "efficiencyPct": "i", "memoryGi": "i", "memoryMi": "i", "minBandwidthGBs": "i", "minTps": "n",
		"model": "s", "quant": "s", "resolverVersion": "s", "weightsGb": "n",
		"activeParamsB": "n", "contextTokens": "i", "efficiencyGiven": "b", "kvCache": "s", "kvCacheGi": "n", "kvEstimated": "b", "engine": "s", "overheadGi": "n",
		"sequences": "i", "sizing": "s", "speedEfficiency": "n", "speedFamily": "s", "speedOverheadMs": "n",
		"nvidiaMinBandwidthGBs": "i", "nvidiaSpeedEfficiency": "n", "nvidiaSpeedFamily": "s", "reserveMeasuredOn": "s",
		"count": "i", "driver": "s", "productNames": "a", "capacityRequest": "b", "capacityName": "s",
		"warnings": "a",
	}
	// llmfit's ten keys are docs/REFERENCE-llmfit-claim.md's list, in its order; the others CONTRACT.md's
	ref, err := os.ReadFile("../docs/REFERENCE-llmfit-claim.md")
	if err != nil {
		t.Fatal(err)
	}
	if list := strings.Join(llmfitKeys, ", "); !strings.Contains(strings.Join(strings.Fields(string(ref)), " "), list) {
		t.Errorf("docs/REFERENCE-llmfit-claim.md does not list llmfit's ten keys as %s", list)
	}
	for k := range types {
		if slices.Contains(llmfitKeys, k) {
			continue
		}
		if !strings.Contains(section, "`"+k+"`") && !strings.Contains(section, "`"+k+":") {
			t.Errorf("docs/CONTRACT.md's claim section does not name the JSON key %s", k)
		}
	}
	models := catalog.Models()
	renders := 0
	for i := 0; i < len(models); i += 41 {
		for _, sizing := range []string{"llmfit", "kv"} {
			for _, drv := range []string{"llmfit", "nvidia", "amd", "intel", "any"} {
				for _, n := range []int{1, 2} {
					for _, v := range []int{0, 1, 2} { // plain; given efficiency and vLLM; capacity request
						tg := target.Default()
						tg.Model, tg.Sizing, tg.Driver, tg.Count = models[i].Name, sizing, drv, n
						given := v == 1
						if given {
							tg.EfficiencyPct, tg.Engine = 60, "vllm"
						}
						if v == 2 {
							tg.CapacityRequest, tg.CapacityName = true, "qualified"
						}
						r, err := Render(tg)
						if err != nil {
							continue
						}
						renders++
						q := target.Permalink(tg)
						var got map[string]any
						if err := json.Unmarshal([]byte(r.JSON), &got); err != nil {
							t.Fatalf("%s: %v", q, err)
						}
						want := slices.Clone(llmfitKeys)
						if sizing == "kv" {
							want = append(want, kvKeys...)
							if drv == "any" {
								want = append(want, anyKVKeys...)
							}
							if drv == "amd" || drv == "intel" {
								want = append(want, "reserveMeasuredOn")
							}
							if len(r.Warnings) > 0 { // the claim's warnings, only when it has any
								want = append(want, "warnings")
								if w, _ := got["warnings"].([]any); len(w) != len(r.Warnings) || !slices.ContainsFunc(r.Warnings, func(s string) bool { return s == w[0] }) {
									t.Errorf("%s: warnings %v, the claim's %q", q, got["warnings"], r.Warnings)
								}
							}
						}
						if drv != "llmfit" || n > 1 {
							want = append(want, "count", "driver")
						}
						if drv == "nvidia" || drv == "any" {
							want = append(want, "productNames")
						}
						if sizing == "kv" || drv != "llmfit" || n > 1 || v == 2 { // all but llmfit's own ten keys
							want = append(want, "memoryMi")
						}
						if v == 2 {
							want = append(want, "capacityRequest", "capacityName")
						}
						var keys []string
						for k := range got {
							keys = append(keys, k)
						}
						sort.Strings(keys)
						sort.Strings(want)
						if !slices.Equal(keys, want) {
							t.Errorf("%s: keys\n%q\nthe contract says\n%q", q, keys, want)
							continue
						}
						for k, x := range got {
							if !hasJSONType(x, types[k]) {
								t.Errorf("%s: %s = %v, not of type %s", q, k, x, types[k])
							}
						}
						if sizing == "kv" {
							eff, share := got["efficiencyPct"].(float64), got["speedEfficiency"].(float64)
							switch {
							case got["sizing"] != "kv":
								t.Errorf("%s: sizing %v", q, got["sizing"])
							case !given && eff != 55:
								t.Errorf("%s: efficiencyPct %v, the contract says llmfit's 55 when not given", q, eff)
							case got["efficiencyGiven"] != given:
								t.Errorf("%s: efficiencyGiven %v", q, got["efficiencyGiven"])
							case given && (math.Abs(share-eff/100) > 1e-9 || got["speedFamily"] != ""):
								t.Errorf("%s: given %v%%: speedEfficiency %v, speedFamily %q", q, eff, share, got["speedFamily"])
							case !given && (share <= 0 || share >= 1 || got["speedFamily"] == ""):
								t.Errorf("%s: speedEfficiency %v, speedFamily %q", q, share, got["speedFamily"])
							}
							if wantEngine := map[bool]string{false: "llama.cpp", true: "vllm"}[given]; got["engine"] != wantEngine {
								t.Errorf("%s: engine %v, want %s", q, got["engine"], wantEngine)
							}
							if oh := got["overheadGi"].(float64); oh <= 0 || oh >= got["memoryGi"].(float64) {
								t.Errorf("%s: overheadGi %v of memoryGi %v", q, oh, got["memoryGi"])
							}
							if on, ok := got["reserveMeasuredOn"]; ok && on != "CUDA" {
								t.Errorf("%s: reserveMeasuredOn %v", q, on)
							}
						}
						// memoryMi is the floor the CEL asks; memoryGi it rounded up to whole Gi (llmfit's
						// mode: its own floor, memoryMi = memoryGi × 1024)
						if mi, ok := got["memoryMi"].(float64); ok {
							gi := got["memoryGi"].(float64)
							if math.Ceil(mi/1024) != gi || sizing == "llmfit" && mi != gi*1024 || !strings.Contains(r.YAML, "quantity('"+b2q(mi)+"')") {
								t.Errorf("%s: memoryMi %v, memoryGi %v, the CEL asks another", q, mi, gi)
							}
						}
						if v == 2 && (got["capacityRequest"] != true || got["capacityName"] != "qualified") {
							t.Errorf("%s: capacityRequest %v, capacityName %v", q, got["capacityRequest"], got["capacityName"])
						}
					}
				}
			}
		}
	}
	if renders < 200 {
		t.Errorf("only %d claims", renders)
	}
}

// b2q is a floor in MiB as the CEL spells it: whole Gi as Gi.
func b2q(mi float64) string {
	if int64(mi)%1024 == 0 {
		return strconv.FormatInt(int64(mi)/1024, 10) + "Gi"
	}
	return strconv.FormatInt(int64(mi), 10) + "Mi"
}

func hasJSONType(x any, typ string) bool {
	switch typ {
	case "n":
		_, ok := x.(float64)
		return ok
	case "i":
		f, ok := x.(float64)
		return ok && f == math.Trunc(f)
	case "s":
		_, ok := x.(string)
		return ok
	case "b":
		_, ok := x.(bool)
		return ok
	case "a":
		xs, ok := x.([]any)
		for _, s := range xs {
			if _, isString := s.(string); !isString {
				return false
			}
		}
		return ok
	}
	return false
}
