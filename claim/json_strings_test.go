package claim

import (
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/internal/jsontext"
	"github.com/fitclaim/fitclaim/internal/smallsort"
	"github.com/fitclaim/fitclaim/target"
)

// TestRenderJSONIsTheStringsVersion: renderJSON, which writes every value into one buffer,
// gives renderJSONByStrings's bytes (the code it replaced, which made each value a string
// first) for the catalog's models every 53rd, under every driver, both sizings, several devices,
// the capacity request and a custom model.
func TestRenderJSONIsTheStringsVersion(t *testing.T) {
	links := []string{"p=7", "p=70&drv=any&s=kv", "p=0.5&q=Q4_K_M&drv=nvidia&n=4&cap=1"}
	models := catalog.Names()
	for i := 0; i < len(models); i += 53 {
		for _, drv := range []string{"llmfit", "nvidia", "amd", "intel", "any"} {
			for _, rest := range []string{"", "&s=kv&ctx=8192&seq=4", "&s=kv&n=2&kv=fp8", "&n=3&cap=1&tps=33.3"} {
				links = append(links, "m="+url.QueryEscape(models[i])+"&drv="+drv+rest)
			}
		}
	}
	checked := 0
	for _, link := range links {
		tg, err := target.ParsePermalink(link)
		if err != nil {
			t.Fatalf("%s: %v", link, err)
		}
		b, name, err := resolveNamed(tg)
		if err != nil {
			continue // a target the engine refuses renders nothing
		}
		if got, want := renderJSON(&b, name, Version), renderJSONByStrings(&b, name, Version); got != want {
			t.Fatalf("%s: renderJSON differs:\n--- got\n%s\n--- want\n%s", link, got, want)
		}
		checked++
	}
	if checked < len(links)/2 {
		t.Fatalf("only %d of %d targets rendered", checked, len(links))
	}
	t.Logf("%d targets", checked)
}

type jsonFieldByStrings struct{ key, value string }

// renderJSONByStrings is renderJSON as it was before it wrote into one buffer.
func renderJSONByStrings(b *fit.Bounds, name, version string) string {
	t := &b.Target
	f := []jsonFieldByStrings{
		{"claimName", jsontext.Quote(name)},
		{"deviceClass", jsontext.Quote(b.DeviceClass)},
		{"efficiencyPct", strconv.Itoa(t.EfficiencyPct)},
		{"memoryGi", strconv.FormatInt(b.MemoryGi, 10)},
		{"minBandwidthGBs", strconv.FormatInt(b.MinBandwidthGBs, 10)},
		{"minTps", jsonFloatByStrings(t.MinTps)},
		{"model", jsontext.Quote(b.Model.Name)},
		{"quant", jsontext.Quote(b.Quant)},
		{"resolverVersion", jsontext.Quote(version)},
		{"weightsGb", jsonFloatByStrings(jsontext.Round(b.WeightsGB, 1))},
	}
	if t.Sizing == target.SizingKV {
		f = append(f,
			jsonFieldByStrings{"activeParamsB", jsonFloatByStrings(jsontext.Round(b.ActiveParamsB, 3))},
			jsonFieldByStrings{"contextTokens", strconv.Itoa(b.ContextTokens)},
			jsonFieldByStrings{"efficiencyGiven", strconv.FormatBool(b.EfficiencyGiven)},
			jsonFieldByStrings{"kvCache", jsontext.Quote(b.KVCache)},
			jsonFieldByStrings{"kvCacheGi", jsonFloatByStrings(jsontext.Round(b.KVBytes/(1<<30), 3))},
			jsonFieldByStrings{"kvEstimated", strconv.FormatBool(b.KVEstimated)},
			jsonFieldByStrings{"sequences", strconv.Itoa(t.Sequences)},
			jsonFieldByStrings{"speedEfficiency", jsonFloatByStrings(jsontext.Round(b.SpeedEfficiency, 4))},
			jsonFieldByStrings{"speedFamily", jsontext.Quote(b.SpeedFamily)},
			jsonFieldByStrings{"speedOverheadMs", jsonFloatByStrings(jsontext.Round(b.SpeedOverheadSeconds*1e3, 3))},
			jsonFieldByStrings{"sizing", jsontext.Quote(t.Sizing)})
		if t.Driver == fit.DriverAny {
			f = append(f,
				jsonFieldByStrings{"nvidiaMinBandwidthGBs", strconv.FormatInt(b.NVIDIAMinBandwidthGBs, 10)},
				jsonFieldByStrings{"nvidiaSpeedEfficiency", jsonFloatByStrings(jsontext.Round(b.NVIDIASpeedEfficiency, 4))},
				jsonFieldByStrings{"nvidiaSpeedFamily", jsontext.Quote(b.NVIDIASpeedFamily)})
		}
	}
	if t.Driver != fit.DriverLlmfit || t.Count > 1 {
		f = append(f, jsonFieldByStrings{"count", strconv.Itoa(t.Count)}, jsonFieldByStrings{"driver", jsontext.Quote(t.Driver)})
		if len(b.Products) > 0 {
			list := make([]string, len(b.Products))
			for i, p := range b.Products {
				list[i] = jsontext.Quote(p)
			}
			f = append(f, jsonFieldByStrings{"productNames", "[\n    " + strings.Join(list, ",\n    ") + "\n  ]"})
		}
	}
	if t.CapacityRequest {
		f = append(f, jsonFieldByStrings{"capacityRequest", "true"})
	}
	smallsort.Func(f, func(a, b jsonFieldByStrings) int { return strings.Compare(a.key, b.key) })
	var s strings.Builder
	s.WriteString("{\n")
	for i, kv := range f {
		s.WriteString(`  "`)
		s.WriteString(kv.key)
		s.WriteString(`": `)
		s.WriteString(kv.value)
		if i < len(f)-1 {
			s.WriteByte(',')
		}
		s.WriteByte('\n')
	}
	s.WriteString("}")
	return s.String()
}
