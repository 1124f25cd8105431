package deploy

import (
	"strings"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/fit"
)

// noBF16 lists the catalog's NVIDIA devices older than Ampere (compute capability below 8.0:
// Volta's V100 is 7.0, Turing's T4, GeForce RTX 20 and TITAN RTX are 7.5, per NVIDIA's CUDA GPU
// table), by catalog id prefix. They have no bfloat16, and vLLM refuses --dtype bfloat16 on
// them ("Bfloat16 is only supported on GPUs with compute capability of at least 8.0",
// vllm-project/vllm#946, #1157), asking for float16 instead.
var noBF16 = []string{"nvidia-t4", "nvidia-v100", "nvidia-rtx-20", "nvidia-titan-rtx"}

func hasBF16(a *catalog.Accelerator) bool {
	if a.Family == "nvidia-pascal" {
		return false
	}
	for _, p := range noBF16 {
		if strings.HasPrefix(a.ID, p) {
			return false
		}
	}
	return true
}

// bf16Note names the devices the claim admits that cannot run bfloat16 weights, when the
// Deployment asks vLLM for them: with NVIDIA's driver the allow-list says exactly which.
func bf16Note(b *fit.Bounds, matches []fit.Match) string {
	if b.Quant != "BF16" || b.Driver.Name != fit.DriverNVIDIA {
		return ""
	}
	var old []string
	for i := range matches {
		if a := matches[i].Accelerator; matches[i].Selected && !hasBF16(a) {
			old = append(old, a.Name)
		}
	}
	if len(old) == 0 {
		return ""
	}
	return "the claim also admits " + strings.Join(old, ", ") + ", older than Ampere, where vLLM refuses --dtype bfloat16: " +
		"set quant F16 (--dtype float16) to run on them too"
}
