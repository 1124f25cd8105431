package vllmtrain

import "testing"

// The memory floor is on the side of every logged start-up it can be checked against: a device
// that started and held a request of --max-model-len had at least the floor. llmd-08 (Qwen3-32B,
// one H100 of 79.18 GiB at 0.9, 1.14 requests of 16,000 tokens held) is the tightest: its logged
// weights 61.03 + activation and non-torch ≈ 5.77 + 16,000 × 262,144 B = 3.91 GiB of KV make
// ≈ 70.7 GiB of need, ≈ 78.5 GiB over 0.9, under 79.18 (with 1.12 GiB of CUDA graphs on top it was
// 79.65, above it).
func TestFloorsAgreeWithTheLogs(t *testing.T) {
	rows, err := Load("../..")
	if err != nil {
		t.Fatal(err)
	}
	fs := Floors(rows)
	if len(fs) != 9 {
		t.Errorf("%d rows checked, want 9", len(fs))
	}
	for _, f := range fs {
		if !f.Agrees {
			t.Errorf("%s: floor %.2f GiB, device %.2f GiB, %s", f.Row.ID, f.FloorGiB, f.Row.Total, f.Row.Status)
		}
		if f.Row.ID == "llmd-08" && !(f.FloorGiB > 78 && f.FloorGiB < 79.18) {
			t.Errorf("llmd-08: floor %.2f GiB, want between 78 and 79.18", f.FloorGiB)
		}
	}
}
