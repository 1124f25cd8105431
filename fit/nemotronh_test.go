package fit

import (
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/target"
)

// nemotronHShapes are a Nemotron-H's config facts (NVIDIA-NeMo/Megatron-Bridge's providers, as
// architectures.csv's rows cite them): the hybrid pattern (M Mamba-2, - MLP, * attention), width,
// Mamba-2 heads, head size and state (8 groups), MLP width, query heads (8 KV heads of 128).
type nemotronHShapes struct {
	pattern                         string
	hidden, mHeads, mHeadDim, state int64
	ffn, heads                      int64
	vocab                           int64
}

// count is the parameter sum params.go's releaseFacts comment gives, from the shapes alone.
func (s nemotronHShapes) count() int64 {
	m, a, f := int64(strings.Count(s.pattern, "M")), int64(strings.Count(s.pattern, "*")), int64(strings.Count(s.pattern, "-"))
	const groups, kv, hd = 8, 8, 128
	d := s.mHeads * s.mHeadDim
	conv := d + 2*groups*s.state
	mamba := s.hidden*(2*d+2*groups*s.state+s.mHeads) + conv*4 + conv + 3*s.mHeads + d + d*s.hidden
	attn := 2*s.hidden*s.heads*hd + 2*s.hidden*kv*hd
	mlp := 2 * s.hidden * s.ffn
	return m*mamba + a*attn + f*mlp + (m+a+f+1)*s.hidden + 2*s.vocab*s.hidden
}

// The shape sum is checked where the catalog counts the tensors (NVIDIA-Nemotron-Nano-9B-v2,
// NemotronNanoModelProvider9Bv2: 8,888,227,328, exactly), then gives Nemotron-H-8B's and -56B's
// counts, which the catalog's 16,995,319,808 and 96,099,893,248 are not (TestNemotronHSized).
func TestNemotronHShapesCount(t *testing.T) {
	nano9 := nemotronHShapes{"M-M-M-MM-M-M-M*-M-M-M*-M-M-M-M*-M-M-M-M*-M-MM-M-M-M-M-M-", 4480, 128, 80, 128, 15680, 40, 131072}
	if got, want := nano9.count(), catalog.Named("nvidia/NVIDIA-Nemotron-Nano-9B-v2").ParametersRaw; got != want {
		t.Fatalf("Nemotron-Nano-9B-v2's shapes count %d, the catalog %d: the sum is wrong", got, want)
	}
	for _, c := range []struct {
		name string
		s    nemotronHShapes
		want int64
	}{
		{"nvidia/Nemotron-H-8B-Base-8K", nemotronHShapes{"M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-", 4096, 128, 64, 128, 21504, 32, 131072}, 8100852736},
		{"nvidia/Nemotron-H-56B-Base-8K", nemotronHShapes{"M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-" +
			"M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-", 8192, 256, 64, 256, 32768, 64, 131072}, 56324350464},
		{"nvidia/NVIDIA-Nemotron-3-Nano-4B-BF16", nemotronHShapes{"M-M-M-MM-M-M*-M-M*-M-M-M*-M-M-MM*-MMM-M-M-", 3136, 96, 80, 128, 12544, 40, 131072}, 3973556832},
	} {
		if got := c.s.count(); got != c.want {
			t.Errorf("%s: shapes count %d, want %d", c.name, got, c.want)
		}
		m := catalog.Named(c.name)
		f, ok := releaseFacts[m.Arch.Base]
		if !ok || !near(f.TotalB, float64(c.want)/1e9) {
			t.Errorf("%s: releaseFacts[%q] = %v, %v; want %d", c.name, m.Arch.Base, f.TotalB, ok, c.want)
		}
		if a := ArchitectureOf(m); int64(len(c.s.pattern)) != int64(a.Layers) || a.FullAttentionLayers != strings.Count(c.s.pattern, "*") {
			t.Errorf("%s: row %d layers, %d full attention; the pattern %d, %d", c.name, a.Layers, a.FullAttentionLayers, len(c.s.pattern), strings.Count(c.s.pattern, "*"))
		}
		if n := denseStateLayers[m.Arch.Base]; n != strings.Count(c.s.pattern, "M") {
			t.Errorf("%s: %d state layers for vLLM, the pattern's M %d", c.name, n, strings.Count(c.s.pattern, "M"))
		}
	}
}

// Nemotron-H in kv mode at its 8,192 tokens, fp16 (before its rows, llmfit's 52 / 118 full layers
// and the catalog's 17.0 / 96.1 B: 8B 1.74 GB of KV and 33.99 GB of BF16 weights; 56B 3.96 and
// 192.20 GB):
//
//	8B: 4 attention layers × 2 × 8 × 128 × 2 B × 8,192 = 134,217,728 B + 24 Mamba-2 layers ×
//	(128 × 64 × 128 + (8,192 + 2 × 8 × 128) × 3) = 25,903,104 elements × 4 B = 103,612,416 B:
//	237,830,144 B; weights 8,100,852,736 × 2 B = 16,201,705,472 B.
//	56B: 10 × 32,768 × 8,192 = 335,544,320 B + 54 × (256 × 64 × 256 + (16,384 + 4,096) × 3) =
//	229,810,176 × 4 B = 919,240,704 B: 1,254,785,024 B; weights 112,648,700,928 B.
//
// The floor under llama.cpp: 8B 15.09 GiB weights + 0.22 KV + 0.70 reserve → 17 Gi (was 34); 56B
// 104.91 + 1.17 + 0.71 → 107 Gi (was 184).
func TestNemotronHSized(t *testing.T) {
	for _, c := range []struct {
		name             string
		paramsB, kv, wGB float64
		floorGi          int64
	}{
		{"nvidia/Nemotron-H-8B-Base-8K", 8.100852736, 237830144, 16.201705472, 17},
		{"nvidia/Nemotron-H-56B-Base-8K", 56.324350464, 1254785024, 112.648700928, 107},
	} {
		b := resolve(t, func(t *target.Target) { t.Model, t.Sizing, t.Context = c.name, target.SizingKV, 8192 })
		if !near(b.ParamsB, c.paramsB) || !near(b.WeightsGB, c.wGB) || b.KVEstimated || !near(b.KVBytes, c.kv) || b.MaxContext != 8192 {
			t.Errorf("%s: params %v B, weights %v GB, KV %v B (estimated %v), max context %d; want %v, %v, %v",
				c.name, b.ParamsB, b.WeightsGB, b.KVBytes, b.KVEstimated, b.MaxContext, c.paramsB, c.wGB, c.kv)
		}
		if b.MemoryGi != c.floorGi {
			t.Errorf("%s: floor %d Gi, want %d", c.name, b.MemoryGi, c.floorGi)
		}
		if !strings.HasPrefix(b.ParamsFrom, "counted from config.json's shapes") {
			t.Errorf("%s: params from %q", c.name, b.ParamsFrom)
		}
		// llmfit mode stays on llmfit's count
		l := resolve(t, func(t *target.Target) { t.Model = c.name })
		if own := float64(catalog.Named(c.name).ParametersRaw) / 1e9; !near(l.ParamsB, own) {
			t.Errorf("%s llmfit mode: params %v B, want the catalog's %v", c.name, l.ParamsB, own)
		}
	}
}
