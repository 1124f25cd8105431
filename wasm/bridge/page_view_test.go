package bridge

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/fit"
)

type pageResult struct {
	Explain struct {
		Summary, Verdict string
		Lines            []struct{ Label, Text string }
	}
	DriverNote, DriverSwitch string
	Memory                   struct {
		FloorGi, FloorMi int64
		Parts            []struct {
			Key, Label string
			Gi         float64
		}
	}
	Matches []struct {
		ID, Vendor     string
		MemoryGiB      float64
		FitsMemory     bool
		Selectable     bool
		FreeGi         float64
		Why            string
		DevicesNeeded  int
		NeededTps      float64
		NeededMemoryGi int64
		NeededMemoryMi int64
	}
}

func pageView(t *testing.T, link string) pageResult {
	t.Helper()
	tg, r := renderLink(t, link)
	var v pageResult
	if err := json.Unmarshal([]byte(ResultJSON(tg, r)), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestPageViewMemoryAndRows(t *testing.T) {
	v := pageView(t, "p=8&q=F16&s=kv&ctx=4096&seq=2&L=32&kvh=8&hd=128&drv=nvidia")
	// weights 8e9 × 2 B = 16e9 B = 14.90 GiB; KV 2 × 32 layers × 8 heads × 128 dim × 4096 tokens
	// × 2 sequences × 2 B = 2^30 B = 1 GiB; reserve 0.97 GiB (llama.cpp's: 451 MiB CUDA context + the
	// compute buffer of a model whose vocabulary and width are unknown, 512 × (262,144 + 16,384) × 4 B
	// = 0.53125 GiB); 14.901 + 1 + 0.972 = 16.873 GiB, 17,277.8 MiB: the floor is 17,278 Mi (16.87
	// Gi), rounded up to 17 Gi.
	want := []struct {
		key string
		gi  float64
	}{{"weights", 14.90}, {"kv", 1}, {"reserve", 0.97}}
	if len(v.Memory.Parts) != 3 || v.Memory.FloorGi != 17 || v.Memory.FloorMi != 17278 {
		t.Fatalf("memory = %+v", v.Memory)
	}
	for i, w := range want {
		if p := v.Memory.Parts[i]; p.Key != w.key || p.Gi < w.gi-0.005 || p.Gi > w.gi+0.005 {
			t.Errorf("part %d = %+v, want %s %.2f", i, p, w.key, w.gi)
		}
	}
	var amd, short bool
	for _, m := range v.Matches {
		// free = the device's memory - 16.87 GiB
		if got, want := m.FreeGi, m.MemoryGiB-16.873; got < want-0.005 || got > want+0.005 {
			t.Errorf("%s: freeGi %v, want %.1f - 16.87", m.ID, got, m.MemoryGiB)
		}
		if m.Vendor == "amd" {
			amd = true
			if m.Selectable || !strings.Contains(m.Why, "the gpu.nvidia.com driver cannot select it") {
				t.Errorf("%s under the NVIDIA driver: selectable %v, why %q", m.ID, m.Selectable, m.Why)
			}
		}
		if !m.FitsMemory {
			short = true
			// the floor as every surface writes it, and the device's MiB beside it
			if want := "needs 17,278 Mi (16.87 Gi), has " + string(fit.AppendGrouped(nil, int64(math.Round(m.MemoryGiB*1024)))) + " Mi"; !strings.HasPrefix(m.Why, want) {
				t.Errorf("%s: why %q, want it to start %q", m.ID, m.Why, want)
			}
		}
	}
	if !amd || !short {
		t.Errorf("the catalog has no AMD row (%v) or no row short of memory (%v) here", amd, short)
	}
	// llmfit's mode keeps its whole-Gi floor and its words: "needs 17 Gi, has 15.9"
	l := pageView(t, "p=8&q=F16&drv=nvidia")
	short = false
	for _, m := range l.Matches {
		if !m.FitsMemory {
			short = true
			if want := "needs " + strconv.FormatInt(l.Memory.FloorGi, 10) + " Gi, has " + strconv.FormatFloat(math.Floor(m.MemoryGiB*10)/10, 'f', 1, 64); !strings.HasPrefix(m.Why, want) {
				t.Errorf("llmfit %s: why %q, want it to start %q", m.ID, m.Why, want)
			}
		}
	}
	if !short || l.Memory.FloorMi != l.Memory.FloorGi*1024 {
		t.Errorf("llmfit: no row short of memory (%v), or floor %d Mi of %d Gi", short, l.Memory.FloorMi, l.Memory.FloorGi)
	}
	if v.DriverNote != "" {
		t.Errorf("a driver note for the NVIDIA driver: %q", v.DriverNote)
	}
}

func TestPageViewLlmfitDriverNote(t *testing.T) {
	v := pageView(t, "m=NousResearch%2FLlama-2-7b-chat-hf")
	if !strings.Contains(v.DriverNote, "llmfit.ai") || v.DriverSwitch != "nvidia" {
		t.Errorf("driver note %q, switch %q", v.DriverNote, v.DriverSwitch)
	}
	if !strings.HasPrefix(v.Explain.Summary, "ResourceClaim nousresearch-llama-2-7b-chat-hf-fit: ") || len(v.Explain.Lines) == 0 {
		t.Errorf("explain = %+v", v.Explain)
	}
	for _, m := range v.Matches {
		if !m.Selectable {
			t.Errorf("%s: llmfit.ai can publish any accelerator, yet not selectable", m.ID)
		}
	}
}

func TestPageViewNeedsMoreDevices(t *testing.T) {
	// 70 B at F16 = 140 GB of weights: no single catalog device of 80 GB holds it.
	v := pageView(t, "p=70&q=F16&drv=nvidia")
	found := false
	for _, m := range v.Matches {
		if m.DevicesNeeded > 1 {
			found = true
			if m.NeededTps <= 0 || m.NeededMemoryGi <= 0 {
				t.Errorf("%s needs %d devices but says no speed (%v) or floor (%d) at that count", m.ID, m.DevicesNeeded, m.NeededTps, m.NeededMemoryGi)
			}
		} else if m.NeededTps != 0 {
			t.Errorf("%s needs %d device(s) yet has neededTps %v", m.ID, m.DevicesNeeded, m.NeededTps)
		}
	}
	if !found {
		t.Fatal("no row needs more devices")
	}
}
