package fit

import "strings"

// Runtime is the words for the vendor's GPU runtime a device runs under, where the explanation
// names it: the per-device context of llama.cpp's reserve, vLLM's captured graphs and the
// runtime whose count of a device's memory vLLM sees. The figures behind them (451 MiB of
// context, ≤ 1.12 GiB of graphs, the driver's shortfall) were measured on CUDA and are assumed
// for the other vendors; only the names follow the vendor, so an AMD or Intel claim does not
// speak of CUDA. NVIDIA, and the drivers that select NVIDIA devices or any vendor's (llmfit.ai,
// any — whose Deployment gets the CUDA build), keep CUDA's.
type Runtime struct {
	Name    string // the runtime that counts a device's memory: "CUDA", "HIP", "Level Zero"
	Context string // its per-device context: "CUDA context"
	Graphs  string // vLLM's captured graphs on it: "CUDA graphs"
}

var (
	runtimeCUDA  = Runtime{Name: "CUDA", Context: "CUDA context", Graphs: "CUDA graphs"}
	runtimeROCm  = Runtime{Name: "HIP", Context: "ROCm/HIP context", Graphs: "HIP graphs"}          // vLLM's ROCm build captures HIP graphs through torch.cuda
	runtimeLevel = Runtime{Name: "Level Zero", Context: "Level Zero context", Graphs: "XPU graphs"} // vLLM's XPU build: torch.xpu, xpu_graph_capture
)

// RuntimeFor is the runtime of a vendor ("amd", "intel", "nvidia") or a device family
// ("amd", "intel", "nvidia-pascal", …); anything else is CUDA's.
func RuntimeFor(vendorOrFamily string) Runtime {
	switch {
	case strings.HasPrefix(vendorOrFamily, "amd"):
		return runtimeROCm
	case strings.HasPrefix(vendorOrFamily, "intel"):
		return runtimeLevel
	}
	return runtimeCUDA
}

// runtimeOf is the runtime of the devices b's claim selects (its driver's vendor).
func runtimeOf(b *Bounds) Runtime {
	if b == nil {
		return runtimeCUDA
	}
	return RuntimeFor(b.Driver.Vendor)
}
