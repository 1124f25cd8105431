package mix

import (
	"strconv"
	"strings"
)

// A Case is one request of the hostile mix: a short label (no spaces) and its GET path.
type Case struct{ Name, Path string }

// Hostile is a mix of GET requests the API refuses or that sit at the edge of what it accepts:
// misspelt model names (the repository part only; short, 30, 60, 100 and 300 bytes), unknown
// devices, every bounded field at its limit and just past it, a 16 KiB query of repeated keys
// or of empty pairs, long text fields, searches of 1 and 200 characters with limit=100,
// percent-encoding everywhere, a custom model at every limit, in each route. wasmapi -mix
// hostile times it; its answers may be 400s (a refused request must cost no more than an
// answer).
func Hostile() []Case {
	const api = "/api/v1/"
	grow := func(s string, n int) string { // s repeated and cut to n bytes
		return strings.Repeat(s, n/len(s)+1)[:n]
	}
	// Misspelt repository parts of catalog names (a letter dropped, two swapped), padded with
	// name-like words to the length asked.
	miss := func(n int) string {
		return grow("Qwen2.5-7B-Instrct-GUFF-Lama-3.1-8b-chat-hf-", n)
	}
	custom := "p=100000&ap=100000&L=1000&kvh=1024&hd=4096"
	kvMax := "s=kv&ctx=16777216&seq=4096"
	m := "m=Qwen/Qwen2.5-7B-Instruct"
	pct := func(s string) string { // every byte percent-encoded
		var b strings.Builder
		for i := 0; i < len(s); i++ {
			b.WriteString("%" + strings.ToUpper(strconv.FormatUint(uint64(s[i])|0x100, 16)[1:]))
		}
		return b.String()
	}
	pctQuery := func(q string) string { // keys and values percent-encoded, '=' and '&' kept
		var parts []string
		for _, pair := range strings.Split(q, "&") {
			k, v, _ := strings.Cut(pair, "=")
			parts = append(parts, pct(k)+"="+pct(v))
		}
		return strings.Join(parts, "&")
	}
	repeated := grow("m=x&", 16<<10-1) + "x"
	empties := strings.Repeat("&", 16<<10)
	var unknown strings.Builder // distinct unknown keys, to 16 KiB
	for i := 0; unknown.Len() < 16<<10-8; i++ {
		unknown.WriteString("k" + strconv.Itoa(i) + "=1&")
	}
	unknowns := unknown.String()
	return []Case{
		{"miss-short", api + "claim.yaml?m=Lama-2-7b-chat"},
		{"miss-36", api + "claim.yaml?m=" + miss(36)},
		{"miss-30", api + "claim.yaml?m=" + miss(30)},
		{"miss-60", api + "claim.yaml?m=" + miss(60)},
		{"miss-100", api + "claim.yaml?m=" + miss(100)},
		{"miss-300", api + "claim.yaml?m=" + miss(300)},
		{"miss-301", api + "claim.yaml?m=" + miss(301)},
		{"miss-est", api + "estimate.json?m=" + miss(60) + "&on=nvidia-rtx-4090"},
		{"miss-deploy", api + "deploy.yaml?m=" + miss(60)},
		{"est-on-unknown", api + "estimate.json?" + m + "&on=nvidia-rtx-4091"},
		{"est-on-128", api + "estimate.json?" + m + "&on=" + grow("nvidia-geforce-rtx-", 128)},
		{"fit-on-unknown", api + "fitting.json?on=nvidia-rtx-4091&limit=100"},
		{"fit-n8-100", api + "fitting.json?on=nvidia-rtx-4090&n=8&limit=100"},
		{"fit-mem-max", api + "fitting.json?memory=1048576&bandwidth=1000000&family=nvidia&n=8&limit=100"},
		{"p-max", api + "claim.yaml?p=100000"},
		{"p-over", api + "claim.yaml?p=100000.001"},
		{"tps-max", api + "claim.json?" + m + "&tps=100000"},
		{"tps-over", api + "claim.json?" + m + "&tps=100001"},
		{"eff-over", api + "claim.json?" + m + "&eff=101"},
		{"ctx-max-kv", api + "claim.yaml?" + m + "&" + kvMax},
		{"ctx-over", api + "claim.yaml?" + m + "&s=kv&ctx=16777217"},
		{"seq-over", api + "claim.yaml?" + m + "&s=kv&seq=4097"},
		{"n-max-nvidia", api + "claim.yaml?" + m + "&n=8&drv=nvidia"},
		{"n-over", api + "claim.yaml?" + m + "&n=9&drv=nvidia"},
		{"custom-max", api + "claim.yaml?" + custom + "&" + kvMax + "&n=8&drv=nvidia"},
		{"custom-over", api + "claim.yaml?p=100000&ap=100000&L=1001&kvh=1024&hd=4096&s=kv"},
		{"mla-max", api + "claim.yaml?" + m + "&s=kv&att=mla&klr=65536&qkr=65536&ctx=16777216&seq=4096"},
		{"moe-max", api + "claim.yaml?" + custom + "&s=kv&ne=4096&nept=4096"},
		{"vllm-max", api + "claim.yaml?" + m + "&s=kv&engine=vllm&mns=65536&mbt=16777216&gmu=1&ctx=16777216"},
		{"deploy-max", api + "deploy.yaml?" + custom + "&" + kvMax + "&n=8&drv=nvidia&image=" + grow("registry.example/x/", 512)},
		{"deploy-over", api + "deploy.yaml?" + m + "&image=" + grow("registry.example/x/", 513)},
		{"est-custom-max", api + "estimate.json?" + custom + "&" + kvMax + "&n=8&on=nvidia-h100-sxm"},
		{"est-dev-max", api + "estimate.json?" + m + "&" + kvMax + "&memory=1048576&bandwidth=1000000&family=nvidia"},
		{"est-mem-over", api + "estimate.json?" + m + "&memory=1048577&bandwidth=1000&family=nvidia"},
		{"name-253", api + "claim.yaml?" + m + "&name=" + grow("a-b.", 252) + "c"},
		{"name-254", api + "claim.yaml?" + m + "&name=" + grow("a-b.", 253) + "c"},
		{"name-bad", api + "claim.yaml?" + m + "&name=" + grow("A_B!", 253)},
		{"q16k-repeat", api + "claim.yaml?" + repeated},
		{"q16k-empty", api + "claim.yaml?" + empties},
		{"q16k-models", api + "models?" + empties},
		{"q16k-fit", api + "fitting.json?" + empties},
		{"q16k-est", api + "estimate.json?" + repeated},
		{"q16k-unknown", api + "claim.yaml?" + unknowns},
		{"q16k-unk-models", api + "models?" + unknowns},
		{"q16k-unk-fit", api + "fitting.json?" + unknowns},
		{"q-over", api + "claim.yaml?" + repeated + "x"},
		{"search-1", api + "models?q=a&limit=100"},
		{"search-200", api + "models?limit=100&q=" + grow("llama+qwen+7b+instruct+", 200)},
		{"search-words", api + "models?limit=100&q=" + grow("a+b+1+", 300)},
		{"search-digits", api + "models?limit=100&q=" + grow("7b+", 300)},
		{"search-300x", api + "models?limit=100&q=" + grow("%C3%A9", 900)},
		{"pct-claim", api + "claim.yaml?" + pctQuery(m+"&s=kv&ctx=32768&seq=4&drv=nvidia&n=2")},
		{"pct-est", api + "estimate.json?" + pctQuery(m+"&on=nvidia-rtx-4090&s=kv")},
		{"pct-bad", api + "claim.yaml?" + m + "&name=%zz"},
		{"unknown-key", api + "claim.yaml?" + m + "&" + grow("zz", 300) + "=1"},
		{"unknown-path", api + grow("x/", 2000)},
	}
}
