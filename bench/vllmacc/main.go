// Command vllmacc prints how well fit's model of vLLM's engine budget reproduces the start-ups
// of data/vllm-train.tsv: available KV memory, KV tokens, concurrency and the start-up verdict,
// with the constants the data gives. bench/bench.sh runs it from the repository root.
package main

import (
	"fmt"
	"os"

	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/internal/vllmtrain"
)

func main() {
	rows, err := vllmtrain.Load(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "vllmacc:", err)
		os.Exit(1)
	}
	c := vllmtrain.Calibrate(rows)
	fmt.Print(vllmtrain.Table(vllmtrain.Evaluate(rows)))
	fmt.Print(vllmtrain.ChainTable(vllmtrain.EndToEnd(rows)))
	fmt.Print(vllmtrain.FloorTable(vllmtrain.Floors(rows)))
	fmt.Printf("constants (committed / from the data): activation = %.3g / %.4g × fp32 logits + %.3g / %.4g × bf16 hidden states (rows %v);\n",
		fit.VLLMActLogitFactor, c.LogitFactor, fit.VLLMActHiddenFactor, c.HiddenFactor, c.ActRows)
	fmt.Printf("  non-torch %.3g / %.4g GiB on one device, %.3g / %.4g GiB tensor parallel (rows %v); CUDA-graph headroom %.3g / %.4g GiB (rows %v)\n",
		fit.VLLMNonTorchGiB, c.NonTorch, fit.VLLMNonTorchTPGiB, c.NonTorchTP, c.NonTorchRows, fit.VLLMCUDAGraphGiB, c.CUDAGraph, c.GraphRows)
	fmt.Print("activation peak, each calibration row left out of the fit (logged → predicted GiB):")
	for _, h := range vllmtrain.LeaveOneOut(rows) {
		fmt.Printf(" %s %.2f → %.2f;", h.ID, h.Logged, h.Predicted)
	}
	fmt.Println()
}
