package fit

import (
	"math"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// Any target and device the table accepts gives vLLM's answer or a field error, never a panic,
// and the answer is sane: whole non-negative blocks and tokens, a start only with room for one
// request, a longest length below the one asked.
func FuzzEstimateVLLM(f *testing.F) {
	f.Add(7.0, 4096, 1, 1, 24.0, 0.9, 0, 0)
	f.Add(1e-9, 1<<24, 4096, 8, 1e6, 0.01, 65536, 1)
	f.Add(70.0, 131072, 64, 2, 79.18, 1.0, 1, 16777216)
	f.Fuzz(func(t *testing.T, paramsB float64, ctx, seqs, count int, memory, util float64, mns, mbt int) {
		tg := target.Default()
		tg.ParamsB, tg.Context, tg.Sequences, tg.Count = paramsB, ctx, seqs, count
		tg.Engine, tg.GPUMemoryUtilization, tg.MaxNumSeqs, tg.MaxNumBatchedTokens = target.EngineVLLM, util, mns, mbt
		e, err := EstimateOn(tg, Device{MemoryGiB: memory, BandwidthGBs: 1000, Family: FamilyNVIDIA})
		if err != nil {
			if _, ok := err.(*target.FieldError); !ok {
				t.Fatalf("%T %v", err, err)
			}
			return
		}
		r := e.VLLM
		if r == nil || r.KVBlocks < 0 || r.KVCacheTokens < 0 || math.IsNaN(r.MaxConcurrency) || r.MaxConcurrency < 0 ||
			math.IsNaN(e.NeedGiB) || (r.Starts && r.KVCacheGiB < r.NeededGiB) || (!r.Starts && r.MaxModelLen >= e.Bounds.ContextTokens) {
			t.Fatalf("%+v", r)
		}
	})
}
