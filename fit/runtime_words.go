package fit

import (
	"strconv"
	"strings"

	"github.com/fitclaim/fitclaim/target"
)

// Runtime is the words for the vendor's GPU runtime a device runs under, where the explanation
// names it: the per-device context of llama.cpp's reserve, vLLM's captured graphs and the
// runtime whose count of a device's memory vLLM sees. The figures behind them (451 MiB of
// context, ≤ 1.12 GiB of graphs, the driver's shortfall) were measured on CUDA and are used as
// estimates for the other vendors; the names follow the vendor, so an AMD or Intel claim does not
// call its context CUDA's, and a line of its own says whose measurement it is (reserveMeasuredOn). NVIDIA, and the drivers that select NVIDIA devices or any vendor's (llmfit.ai,
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
	runtimeMetal = Runtime{Name: "Metal", Context: "Metal context", Graphs: "Metal graphs"}         // llama.cpp's Metal backend (vLLM is refused on Apple: vllm_refuse.go)
)

// RuntimeFor is the runtime of a vendor ("amd", "intel", "nvidia") or a device family
// ("amd", "intel", "apple", "nvidia-pascal", …); anything else is CUDA's.
func RuntimeFor(vendorOrFamily string) Runtime {
	switch {
	case strings.HasPrefix(vendorOrFamily, "amd"):
		return runtimeROCm
	case strings.HasPrefix(vendorOrFamily, "intel"):
		return runtimeLevel
	case strings.HasPrefix(vendorOrFamily, "apple"):
		return runtimeMetal
	}
	return runtimeCUDA
}

// Where the reserves' figures come from, per runtime. Every fixed reserve of the KV-aware floor was
// measured under CUDA: llama.cpp's 451 MiB context on RTX 4090s (ggml-org/llama.cpp#15860, engine.go),
// and vLLM's activation peak, non-torch memory, graph capture and the driver's shortfall on NVIDIA
// boards (data/vllm-train.tsv, vllm.go). No public log measures them under ROCm/HIP or Level Zero
// the same way, and the tools that would print them could not at the time:
//   - llama.cpp's SYCL backend took the device's total as its free memory, so its breakdown's
//     "unaccounted" column (the context) came out negative on Arc A770 and B50 boards
//     (ggml-org/llama.cpp#27968, which added Level Zero's count of free memory);
//   - vLLM skipped its own graph-memory profiling on ROCm and XPU because torch's free-memory
//     reading and graph pool "can produce incorrect or negative estimates" there
//     (vllm-project/vllm#36720); ROCm's came back in #48526, XPU's stays excluded (#39977).
//
// So an AMD or Intel claim, and an estimate on an Apple device (llama.cpp's Metal backend), is
// sized with CUDA's figures as an estimate, and says so: the header's or the estimate's reserve
// line, and the claim JSON's reserveMeasuredOn (ReserveMeasuredOn).
const reserveMeasuredOn = "CUDA"

// ReserveMeasuredOn is the runtime the reserve of b's claim was measured on, when that is not the
// runtime its devices run (an AMD or Intel claim: "CUDA"), else "".
func ReserveMeasuredOn(b *Bounds) string {
	if runtimeOf(b).Name == reserveMeasuredOn {
		return ""
	}
	return reserveMeasuredOn
}

// ReserveBorrowedWords says, for a claim whose reserve was measured on another runtime than its
// devices', that the reserve is that runtime's figure used as an estimate ("" otherwise).
func ReserveBorrowedWords(b *Bounds) string {
	return reserveBorrowedWords(runtimeOf(b), b.Engine)
}

// ReserveBorrowedWordsOn is ReserveBorrowedWords for an estimate on a device of the family
// ("amd", "intel", …) under the engine.
func ReserveBorrowedWordsOn(family, engine string) string {
	return reserveBorrowedWords(RuntimeFor(family), engine)
}

func reserveBorrowedWords(rt Runtime, engine string) string {
	if rt.Name == reserveMeasuredOn {
		return ""
	}
	what := "its " + strconv.Itoa(llamaCppContextMiB) + " MiB " + rt.Context + " is llama.cpp's " + reserveMeasuredOn + " context on RTX 4090s"
	if engine == target.EngineVLLM {
		what = "vLLM's activation peak, non-torch memory, " + rt.Graphs + " and the share the driver keeps are " + reserveMeasuredOn +
			" measurements on NVIDIA boards (data/vllm-train.tsv)"
	}
	return "reserve: " + what + ", used as an estimate for " + rt.Name + ": no public " + rt.Name + " start-up log measures it"
}

// runtimeOf is the runtime of the devices b's claim selects (its driver's vendor).
func runtimeOf(b *Bounds) Runtime {
	if b == nil {
		return runtimeCUDA
	}
	return RuntimeFor(b.Driver.Vendor)
}
