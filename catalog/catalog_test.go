package catalog

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// sourceData is the repository's data/ folder, the catalog's source.
var sourceData = filepath.Join("..", "data")

const sourceJSON = "llmfit-hf-models-2026-05-12.json"

// goTool is the go command that runs this test: go test puts its GOROOT/bin first on PATH.
func goTool(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go tool to run the generator: %v", err)
	}
	return p
}

// TestGeneratedFilesAreCurrent runs the committed generator on the source data in data/ and demands that
// its output equals, byte for byte, the files the package embeds.
func TestGeneratedFilesAreCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go run ./gen")
	}
	if _, err := os.Stat(filepath.Join(sourceData, sourceJSON)); err != nil {
		t.Fatalf("source data: %v (data/ is the catalog source)", err)
	}
	out := t.TempDir()
	cmd := exec.Command(goTool(t), "run", "./gen", "-data", sourceData, "-out", out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run ./gen: %v\n%s", err, b)
	}
	for _, f := range []string{"models_tsv.go", "accelerators_tsv.go", "LICENSE-llmfit.txt"} {
		want, err := os.ReadFile(filepath.Join(out, f))
		if err != nil {
			t.Fatalf("generator did not write %s: %v", f, err)
		}
		got, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: the generator writes %d bytes, the committed file has %d; run go generate ./catalog", f, len(want), len(got))
		}
	}
	if Date != "2026-05-12" {
		t.Errorf("Date = %q, want 2026-05-12", Date)
	}
}

func TestLicenseTravelsWithCatalog(t *testing.T) {
	b, err := os.ReadFile("LICENSE-llmfit.txt")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "MIT License") && !strings.Contains(string(b), "Permission is hereby granted") {
		t.Errorf("LICENSE-llmfit.txt does not look like the MIT notice:\n%s", b)
	}
	if !strings.Contains(modelsTSV[:200], "MIT, see LICENSE-llmfit.txt") {
		t.Error("models_tsv.go does not point at its licence")
	}
}

func TestCounts(t *testing.T) {
	ms := Models()
	if len(ms) != 1852 {
		t.Errorf("%d models, want 1,852", len(ms))
	}
	// data/accelerators.csv: the 36 datacenter, workstation and consumer boards of the first
	// table, 30 GeForce RTX 20/30/40/50, 4 workstation, GB10, 8 AMD, 6 Intel and 44
	// Apple silicon rows (one per memory size) = 129, and the 15 NVIDIA boards added on
	// 2026-12-03 (A30, A40, A16, A2, H20, H800 SXM and PCIe, GH200 144 GB, GB200, B300, GB300,
	// L20, V100 PCIe 16 and 32 GB, RTX 5000 Ada) = 144, and 2 more the accelerator audit of
	// 2026-12-03 found in NVIDIA's table with readings (GH200 120GB, RTX PRO 6000 Max-Q, A800 SXM4
	// and PCIe 80GB, RTX A4000, RTX 4090 D) = 150, and 7 more of that table the fifteenth session
	// found readings for (RTX A5500, RTX A4500, RTX 4500 Ada, RTX 2000 Ada, L2, A800 40GB Active,
	// A800 SXM4 40GB) = 157.
	if n := len(Accelerators()); n != 157 {
		t.Errorf("%d accelerators, want 157", n)
	}
	// The counts the page shows before anything is decoded are the same.
	if ModelCount() != 1852 || AcceleratorCount() != 157 {
		t.Errorf("ModelCount %d, AcceleratorCount %d, want 1852 and 157", ModelCount(), AcceleratorCount())
	}
	moe, moeActive, arch, vram, names := 0, 0, 0, 0, map[string]bool{}
	quants := map[string]int{}
	for i := range ms {
		m := &ms[i]
		if m.MoE {
			moe++
			if m.ActiveParameters > 0 {
				moeActive++
			}
		}
		if m.HasArchitecture() {
			arch++
		}
		if m.HasMinVRAM {
			vram++
		}
		if m.ParametersRaw <= 0 {
			t.Errorf("%s: parameters_raw %d (the README says every entry has one)", m.Name, m.ParametersRaw)
		}
		if names[m.Name] {
			t.Errorf("duplicate name %s", m.Name)
		}
		names[m.Name] = true
		quants[m.Quantization]++
	}
	if moe != 356 || moeActive != 356 {
		t.Errorf("MoE entries %d (with active_parameters %d), want 356", moe, moeActive)
	}
	if arch != 1597 {
		t.Errorf("entries with layers/kv_heads/head_dim: %d, want 1,597", arch)
	}
	if vram != 1852 {
		t.Errorf("entries with min_vram_gb: %d, want all", vram)
	}
	// data/README.md: Q4_K_M 1,683, AWQ-4bit 111, GPTQ-Int4 42, AWQ-8bit 7, AutoRound-4bit 5, GPTQ-Int8 4.
	want := map[string]int{"Q4_K_M": 1683, "AWQ-4bit": 111, "GPTQ-Int4": 42, "AWQ-8bit": 7, "AutoRound-4bit": 5, "GPTQ-Int8": 4}
	for q, n := range want {
		if quants[q] != n {
			t.Errorf("quantization %s: %d entries, want %d", q, quants[q], n)
		}
	}
	if len(quants) != len(want) {
		t.Errorf("quantizations %v, want exactly %v", quants, want)
	}
}

// srcEntry is the JSON source read independently of the generator.
type srcEntry struct {
	Name             string   `json:"name"`
	ParameterCount   string   `json:"parameter_count"`
	ParametersRaw    *int64   `json:"parameters_raw"`
	MinRAMGB         *float64 `json:"min_ram_gb"`
	MinVRAMGB        *float64 `json:"min_vram_gb"`
	Quantization     string   `json:"quantization"`
	ContextLength    *int     `json:"context_length"`
	Layers           *int     `json:"num_hidden_layers"`
	KVHeads          *int     `json:"num_key_value_heads"`
	HeadDim          *int     `json:"head_dim"`
	HiddenSize       *int     `json:"hidden_size"`
	VocabSize        *int     `json:"vocab_size"`
	IsMoE            *bool    `json:"is_moe"`
	ActiveParameters *int64   `json:"active_parameters"`
	Downloads        *int64   `json:"hf_downloads"`
	UseCase          string   `json:"use_case"`
}

func readSource(t *testing.T) []srcEntry {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(sourceData, sourceJSON))
	if err != nil {
		t.Fatalf("source data: %v", err)
	}
	var out []srcEntry
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func deref[T any](p *T) T {
	var z T
	if p == nil {
		return z
	}
	return *p
}

// TestEveryFieldMatchesSource compares every entry, field by field, with the JSON source, in
// order; a few well-known entries are also checked against literal values.
func TestEveryFieldMatchesSource(t *testing.T) {
	src := readSource(t)
	ms := Models()
	if len(src) != len(ms) {
		t.Fatalf("source has %d entries, catalog %d", len(src), len(ms))
	}
	for i, e := range src {
		m := ms[i]
		want := Model{
			Name: e.Name, ParameterCount: e.ParameterCount, ParametersRaw: deref(e.ParametersRaw),
			MinRAMGB: deref(e.MinRAMGB), MinVRAMGB: deref(e.MinVRAMGB), HasMinVRAM: e.MinVRAMGB != nil,
			Quantization: e.Quantization, ContextLength: deref(e.ContextLength), Layers: deref(e.Layers),
			KVHeads: deref(e.KVHeads), HeadDim: deref(e.HeadDim), HiddenSize: deref(e.HiddenSize), VocabSize: deref(e.VocabSize), MoE: deref(e.IsMoE),
			ActiveParameters: deref(e.ActiveParameters), Downloads: deref(e.Downloads),
		}
		if !equalModel(m, want) {
			t.Errorf("entry %d differs from the source:\n got %+v\nwant %+v", i, m, want)
		}
	}

	// Literal values, read from the JSON by hand.
	lit := []Model{
		{Name: "meta-llama/Llama-3.1-8B-Instruct", ParameterCount: "8.0B", ParametersRaw: 8030261248,
			MinRAMGB: 4.5, MinVRAMGB: 4.1, HasMinVRAM: true, Quantization: "Q4_K_M", ContextLength: 4096, Downloads: 9393633},
		{Name: "Qwen/Qwen3-30B-A3B-Instruct-2507", ParametersRaw: 30531911680, MinRAMGB: 17.1, MinVRAMGB: 15.6, HasMinVRAM: true,
			Quantization: "Q4_K_M", ContextLength: 262144, Layers: 48, KVHeads: 4, HeadDim: 128, MoE: true, ActiveParameters: 3339427840},
		{Name: "microsoft/phi-3-mini-4k-instruct", ParameterCount: "3.8B", ParametersRaw: 3821079552,
			MinRAMGB: 2.1, MinVRAMGB: 2.0, HasMinVRAM: true, Quantization: "Q4_K_M", ContextLength: 4096,
			Layers: 32, KVHeads: 32, HeadDim: 96, HiddenSize: 3072, Downloads: 750792},
		{Name: "Intel/DeepSeek-V4-Flash-W4A16-AutoRound", ParametersRaw: 39916293330, MinRAMGB: 22.3, MinVRAMGB: 20.4,
			HasMinVRAM: true, Quantization: "AutoRound-4bit", MoE: true, ActiveParameters: 2884575880},
		{Name: "Qwen/Qwen2.5-0.5B-Instruct", ParameterCount: "494M", ParametersRaw: 494032768, MinRAMGB: 1.0, MinVRAMGB: 0.5,
			HasMinVRAM: true, Quantization: "Q4_K_M"},
	}
	for _, w := range lit {
		m, err := Lookup(w.Name)
		if err != nil {
			t.Fatal(err)
		}
		check := func(field string, got, want any) {
			if want != reflectZero(want) && got != want {
				t.Errorf("%s.%s = %v, want %v", w.Name, field, got, want)
			}
		}
		check("Name", m.Name, w.Name)
		check("ParameterCount", m.ParameterCount, w.ParameterCount)
		check("ParametersRaw", m.ParametersRaw, w.ParametersRaw)
		check("MinRAMGB", m.MinRAMGB, w.MinRAMGB)
		check("MinVRAMGB", m.MinVRAMGB, w.MinVRAMGB)
		check("HasMinVRAM", m.HasMinVRAM, w.HasMinVRAM)
		check("Quantization", m.Quantization, w.Quantization)
		check("ContextLength", m.ContextLength, w.ContextLength)
		check("Layers", m.Layers, w.Layers)
		check("KVHeads", m.KVHeads, w.KVHeads)
		check("HeadDim", m.HeadDim, w.HeadDim)
		check("HiddenSize", m.HiddenSize, w.HiddenSize)
		check("MoE", m.MoE, w.MoE)
		check("ActiveParameters", m.ActiveParameters, w.ActiveParameters)
		check("Downloads", m.Downloads, w.Downloads)
	}
	// Llama 3.1 8B has no architecture fields in llmfit's catalog: the KV fallback applies to it.
	if m, err := Lookup("meta-llama/Llama-3.1-8B-Instruct"); err != nil || m.HasArchitecture() {
		t.Errorf("meta-llama/Llama-3.1-8B-Instruct unexpectedly has architecture fields (%v)", err)
	}
}

func reflectZero(v any) any {
	switch v.(type) {
	case string:
		return ""
	case int:
		return 0
	case int64:
		return int64(0)
	case float64:
		return 0.0
	case bool:
		return false
	}
	return nil
}

func equalModel(a, b Model) bool {
	a.Arch, b.Arch = Architecture{}, Architecture{} // llmfit's fields only; see TestArchitecturesMerged
	a.Embedding, b.Embedding = false, false         // derived by the generator; see TestEmbeddingModels
	return reflect.DeepEqual(a, b)
}

func TestAcceleratorsMatchCSV(t *testing.T) {
	f, err := os.Open(filepath.Join(sourceData, "accelerators.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	accs := Accelerators()
	if len(recs)-1 != len(accs) {
		t.Fatalf("CSV has %d rows, catalog %d", len(recs)-1, len(accs))
	}
	for i, r := range recs[1:] {
		a := accs[i]
		mib, err := strconv.ParseInt(r[6], 10, 64)
		if err != nil {
			t.Fatalf("accelerators.csv row %d memory_mib: %v", i+1, err)
		}
		bw, err := strconv.ParseFloat(r[8], 64)
		if err != nil {
			t.Fatalf("accelerators.csv row %d bandwidth_gbs: %v", i+1, err)
		}
		want := Accelerator{ID: r[0], Vendor: r[1], Kind: r[2], Name: r[3], Driver: r[4], ProductName: r[5],
			MemoryMiB: mib, MemoryExact: r[7] == "yes", BandwidthGBs: bw,
			Family: r[10], Unified: r[11] == "true", ShortName: r[13]} // notes (r[9]) and source (r[12]) stay in data/
		if a != want {
			t.Errorf("accelerator %d:\n got %+v\nwant %+v", i, a, want)
		}
		if a.MemoryMiB <= 0 || a.BandwidthGBs <= 0 {
			t.Errorf("%s: memory %d MiB, bandwidth %v", a.ID, a.MemoryMiB, a.BandwidthGBs)
		}
		if !slices.Contains([]string{"nvidia", "nvidia-pascal", "nvidia-unified", "amd", "apple", "intel", "other"}, a.Family) ||
			r[12] == "" || (r[11] != "true" && r[11] != "false") {
			t.Errorf("%s: family %q, unified %q, source %q", a.ID, a.Family, r[11], r[12])
		}
	}
	// The H100 SXM reading REFERENCE §4 quotes: 81,559 MiB, less than 80 GiB.
	var h100 *Accelerator
	for i := range accs {
		if accs[i].ID == "nvidia-h100-sxm" {
			h100 = &accs[i]
		}
	}
	if h100 == nil || h100.MemoryMiB != 81559 || !h100.MemoryExact || h100.ProductName != "NVIDIA H100 80GB HBM3" ||
		h100.BandwidthGBs != 3350 || h100.Driver != "gpu.nvidia.com" {
		t.Fatalf("H100 SXM = %+v", h100)
	}
	if got := h100.MemoryBytes(); got != 81559*1024*1024 || got >= 80<<30 {
		t.Errorf("H100 MemoryBytes = %d", got)
	}
}

// TestCompressedSize bounds what the embedded catalog adds to a wasm build: brotli must stay
// under 120 KB; gzip -9 compresses worse than brotli, so it is an upper bound.
func TestCompressedSize(t *testing.T) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{modelsTSV, acceleratorsTSV, dateTxt} {
		if _, err := zw.Write([]byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("embedded catalog: %d bytes raw, %d bytes gzip -9", len(modelsTSV)+len(acceleratorsTSV)+len(dateTxt), buf.Len())
	if buf.Len() >= 120_000 {
		t.Errorf("embedded catalog is %d bytes gzip -9, budget 120 KB", buf.Len())
	}
}

func TestLookupExact(t *testing.T) {
	for _, name := range []string{
		"NousResearch/Llama-2-7b-chat-hf",
		"Qwen/Qwen3-30B-A3B-Instruct-2507",
		"microsoft/phi-3-mini-4k-instruct",
		"microsoft/Phi-3-mini-4k-instruct",
	} {
		m, err := Lookup(name)
		if err != nil {
			t.Errorf("Lookup(%q): %v", name, err)
			continue
		}
		if m.Name != name {
			t.Errorf("Lookup(%q) = %q: the exact spelling must win", name, m.Name)
		}
	}
	// Every catalog name resolves to itself.
	for _, m := range Models() {
		got, err := Lookup(m.Name)
		if err != nil || got.Name != m.Name {
			t.Fatalf("Lookup(%q) = %v, %v", m.Name, got, err)
		}
	}
	// Surrounding spaces are ignored.
	if m, err := Lookup("  NousResearch/Llama-2-7b-chat-hf \t"); err != nil || m.Name != "NousResearch/Llama-2-7b-chat-hf" {
		t.Errorf("Lookup with spaces = %v, %v", m, err)
	}
}

func TestLookupCaseInsensitive(t *testing.T) {
	m, err := Lookup("NOUSRESEARCH/LLAMA-2-7B-CHAT-HF")
	if err != nil || m.Name != "NousResearch/Llama-2-7b-chat-hf" {
		t.Errorf("case-insensitive lookup = %v, %v", m, err)
	}
	// The two names that differ only in case: a third spelling matches both, ambiguously (the
	// more downloaded listed first).
	_, err = Lookup("MICROSOFT/PHI-3-MINI-4K-INSTRUCT")
	var amb *AmbiguousError
	if !errors.As(err, &amb) {
		t.Fatalf("Lookup of a third spelling of the phi-3 names: %v, want *AmbiguousError", err)
	}
	if amb.Total != 2 || len(amb.Matches) != 2 || amb.Matches[0] != "microsoft/Phi-3-mini-4k-instruct" || amb.Matches[1] != "microsoft/phi-3-mini-4k-instruct" {
		t.Errorf("ambiguity = %+v", amb)
	}
	want := `"MICROSOFT/PHI-3-MINI-4K-INSTRUCT" matches 2 models: microsoft/Phi-3-mini-4k-instruct, microsoft/phi-3-mini-4k-instruct; give the full name`
	if err.Error() != want {
		t.Errorf("error = %q\nwant    %q", err, want)
	}
}

func TestLookupUniqueSubstring(t *testing.T) {
	m, err := Lookup("llama-2-7b-chat-hf")
	if err != nil || m.Name != "NousResearch/Llama-2-7b-chat-hf" {
		t.Errorf("unique substring = %v, %v", m, err)
	}
	m, err = Lookup("deepseek-v4-flash-w4a16")
	if err != nil || m.Name != "Intel/DeepSeek-V4-Flash-W4A16-AutoRound" {
		t.Errorf("unique substring = %v, %v", m, err)
	}
}

// TestLookupRepositoryName: a query that is a repository's whole name after the publisher's slash
// picks it over the longer names that merely contain it: "DeepSeek-R1" is in 24 names
// (DeepSeek-R1-0528, unsloth/DeepSeek-R1-GGUF, …) but is the whole repository name of one,
// deepseek-ai/DeepSeek-R1. "qwen3-8b" is the whole name of two (Qwen's and unsloth's): issue 12
// says "a name without its org resolves to the most-downloaded exact match and says which", so
// it is Qwen/Qwen3-8B (the type-ahead's first answer too), and Resolve names unsloth's beside it.
// (It was an ambiguity listing both, which the words overrule.)
func TestLookupRepositoryName(t *testing.T) {
	m, err := Lookup("DeepSeek-R1")
	if err != nil || m.Name != "deepseek-ai/DeepSeek-R1" {
		t.Errorf("DeepSeek-R1 = %v, %v", m, err)
	}
	m, others, err := Resolve("qwen3-8b")
	if err != nil || m.Name != "Qwen/Qwen3-8B" || strings.Join(others, "|") != "unsloth/Qwen3-8B" {
		t.Errorf("qwen3-8b = %v, %q, %v; want Qwen/Qwen3-8B beside unsloth/Qwen3-8B", m, others, err)
	}
	if s := Search("qwen3-8b", 1); len(s) != 1 || s[0].Name != m.Name {
		t.Errorf("the type-ahead's first answer to qwen3-8b is %v, the lookup's %s: one search for both", s, m.Name)
	}
	// Three whole-repository matches, most downloaded first.
	m, others, err = Resolve("llama-3.1-8b-instruct")
	if err != nil || m.Name != "meta-llama/Llama-3.1-8B-Instruct" ||
		strings.Join(others, "|") != "unsloth/Llama-3.1-8B-Instruct|DeSTA-ntu/Llama-3.1-8B-Instruct" {
		t.Errorf("llama-3.1-8b-instruct = %v, %q, %v", m, others, err)
	}
	for _, q := range []string{"Qwen/Qwen3-8B", "DeepSeek-R1", "llama-2-7b-chat-hf"} {
		if _, others, err := Resolve(q); err != nil || others != nil {
			t.Errorf("Resolve(%q): others %q, %v; want none", q, others, err)
		}
	}
}

func TestLookupAmbiguous(t *testing.T) {
	// Three names contain "llama-2-7b-chat" (NousResearch, TheBloke's GPTQ, unsloth's bnb-4bit).
	_, err := Lookup("llama-2-7b-chat")
	var amb *AmbiguousError
	if !errors.As(err, &amb) {
		t.Fatalf("err = %v, want *AmbiguousError", err)
	}
	if amb.Total != 3 || strings.Join(amb.Matches, "|") != "NousResearch/Llama-2-7b-chat-hf|TheBloke/Llama-2-7B-Chat-GPTQ|unsloth/llama-2-7b-chat-bnb-4bit" {
		t.Errorf("ambiguity = %+v", amb)
	}
	if !strings.Contains(err.Error(), "matches 3 models: NousResearch/Llama-2-7b-chat-hf, TheBloke/Llama-2-7B-Chat-GPTQ, unsloth/llama-2-7b-chat-bnb-4bit") {
		t.Errorf("error = %q", err)
	}
	if strings.Contains(err.Error(), "…") {
		t.Errorf("three matches are all listed, no ellipsis: %q", err)
	}

	// Many matches: the ten most downloaded listed (issue 12: "an ambiguous link offers the top
	// ten"), the total counted, an ellipsis.
	_, err = Lookup("qwen")
	if !errors.As(err, &amb) {
		t.Fatalf("err = %v", err)
	}
	total := 0
	for _, m := range Models() {
		if strings.Contains(strings.ToLower(m.Name), "qwen") {
			total++
		}
	}
	var top []string
	for _, m := range Search("qwen", 10) {
		top = append(top, m.Name)
	}
	if !slices.Equal(amb.Matches, top) {
		t.Errorf("qwen lists %q; the type-ahead's ten are %q", amb.Matches, top)
	}
	if amb.Total != total || len(amb.Matches) != 10 || !strings.Contains(err.Error(), "matches "+strconv.Itoa(total)+" models: ") ||
		!strings.HasSuffix(err.Error(), ", …; give the full name") {
		t.Errorf("qwen: total %d (want %d), %d listed: %q", amb.Total, total, len(amb.Matches), err)
	}
}

func TestLookupNotFound(t *testing.T) {
	_, err := Lookup("NousResearch/Lama-2-7b-chat-hf") // one letter missing
	var nf *NotFoundError
	if !errors.As(err, &nf) {
		t.Fatalf("err = %v, want *NotFoundError", err)
	}
	if len(nf.Suggestions) == 0 || nf.Suggestions[0] != "NousResearch/Llama-2-7b-chat-hf" {
		t.Errorf("suggestions = %v, want NousResearch/Llama-2-7b-chat-hf first", nf.Suggestions)
	}
	if len(nf.Suggestions) > 3 {
		t.Errorf("%d suggestions, want at most 3", len(nf.Suggestions))
	}
	if !strings.HasPrefix(err.Error(), `no model in the catalog matches "NousResearch/Lama-2-7b-chat-hf"; closest: NousResearch/Llama-2-7b-chat-hf`) {
		t.Errorf("error = %q", err)
	}
	// The part after the provider's slash is compared too.
	_, err = Lookup("lama-2-7b-chat-hff")
	if !errors.As(err, &nf) || len(nf.Suggestions) == 0 || nf.Suggestions[0] != "NousResearch/Llama-2-7b-chat-hf" {
		t.Errorf("lama-2-7b-chat-hff: %v", err)
	}
	// Nothing close: no suggestions, and the message says so plainly.
	_, err = Lookup("zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz")
	if !errors.As(err, &nf) || len(nf.Suggestions) != 0 || err.Error() != `no model in the catalog matches "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"` {
		t.Errorf("far query: %v", err)
	}
	// Empty and blank queries.
	for _, q := range []string{"", "   "} {
		if _, err := Lookup(q); !errors.As(err, &nf) {
			t.Errorf("Lookup(%q) = %v, want *NotFoundError", q, err)
		}
	}
}

func names(ms []Model) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Name
	}
	return out
}

func TestSearchRanking(t *testing.T) {
	// Exact name first, even when more downloaded models also contain the query.
	got := names(Search("NousResearch/Llama-2-7b-chat-hf", 5))
	if len(got) == 0 || got[0] != "NousResearch/Llama-2-7b-chat-hf" {
		t.Errorf("exact: %v", got)
	}
	// The part after the slash counts as the exact name.
	got = names(Search("llama-2-7b-chat-hf", 5))
	if len(got) != 1 || got[0] != "NousResearch/Llama-2-7b-chat-hf" {
		t.Errorf("short exact: %v", got)
	}
	// Prefix matches (of the short name) come before a mid-word substring.
	got = names(Search("llama-2-7b-chat", 10))
	if len(got) != 3 || got[0] != "NousResearch/Llama-2-7b-chat-hf" || got[2] != "TheBloke/Llama-2-7B-Chat-GPTQ" && got[1] != "TheBloke/Llama-2-7B-Chat-GPTQ" {
		t.Errorf("prefix: %v", got)
	}
	// Every result of a one-word query contains it, and ranks never go backwards.
	res := Search("instruct", 100)
	if len(res) != 100 {
		t.Errorf("instruct: %d results, want 100", len(res))
	}
	last := 0
	for _, m := range res {
		r := rank(strings.ToLower(m.Name), "instruct", []string{"instruct"})
		if r < 0 {
			t.Errorf("%s does not match", m.Name)
		}
		if r < last {
			t.Errorf("%s (rank %d) after rank %d", m.Name, r, last)
		}
		last = r
	}
	// Within a rank, more downloaded first.
	res = Search("qwen3", 50)
	for i := 1; i < len(res); i++ {
		ra := rank(strings.ToLower(res[i-1].Name), "qwen3", []string{"qwen3"})
		rb := rank(strings.ToLower(res[i].Name), "qwen3", []string{"qwen3"})
		if ra == rb && res[i-1].Downloads < res[i].Downloads {
			t.Errorf("%s (%d downloads) before %s (%d)", res[i-1].Name, res[i-1].Downloads, res[i].Name, res[i].Downloads)
		}
	}
	// Several words, in any order: every word must appear.
	res = Search("instruct qwen3 30b", 20)
	if len(res) == 0 {
		t.Fatal("multi-word: no results")
	}
	for _, m := range res {
		n := strings.ToLower(m.Name)
		if !strings.Contains(n, "instruct") || !strings.Contains(n, "qwen3") || !strings.Contains(n, "30b") {
			t.Errorf("multi-word: %s", m.Name)
		}
	}
	// Case does not matter.
	if a, b := names(Search("QWEN3-30B", 10)), names(Search("qwen3-30b", 10)); strings.Join(a, ",") != strings.Join(b, ",") {
		t.Errorf("case: %v vs %v", a, b)
	}
	if got := Search("no-such-model-anywhere", 10); len(got) != 0 {
		t.Errorf("no match: %v", names(got))
	}
}

func TestSearchPrefixBeforeSubstring(t *testing.T) {
	// "phi-3" starts the short name of microsoft/Phi-3-…, and sits mid-name in others.
	res := Search("phi-3", 100)
	seenMid := false
	for _, m := range res {
		n := strings.ToLower(m.Name)
		short := n[strings.LastIndexByte(n, '/')+1:]
		prefix := strings.HasPrefix(short, "phi-3") || strings.HasPrefix(n, "phi-3")
		if !prefix {
			seenMid = true
		} else if seenMid {
			t.Errorf("prefix match %s after a non-prefix match", m.Name)
		}
	}
}

func TestSearchLimit(t *testing.T) {
	cases := []struct{ limit, want int }{{-5, 1}, {0, 1}, {1, 1}, {7, 7}, {100, 100}, {101, 100}, {100000, 100}}
	for _, c := range cases {
		if got := len(Search("", c.limit)); got != c.want {
			t.Errorf("Search(\"\", %d) gave %d, want %d", c.limit, got, c.want)
		}
	}
}

func TestSearchEmptyIsMostDownloaded(t *testing.T) {
	res := Search("  ", 10)
	if len(res) != 10 {
		t.Fatalf("%d results", len(res))
	}
	if res[0].Name != "Qwen/Qwen3-VL-2B-Instruct" {
		t.Errorf("most downloaded = %s, want Qwen/Qwen3-VL-2B-Instruct", res[0].Name)
	}
	most := slices.MaxFunc(Models(), func(a, b Model) int { return cmp.Compare(a.Downloads, b.Downloads) }).Downloads
	if res[0].Downloads != most {
		t.Errorf("first has %d downloads, the most is %d", res[0].Downloads, most)
	}
	for i := 1; i < len(res); i++ {
		if res[i].Downloads > res[i-1].Downloads {
			t.Errorf("not sorted by downloads at %d", i)
		}
	}
}

func TestLevenshtein(t *testing.T) {
	cases := []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"a", "", 1}, {"", "abc", 3}, {"kitten", "sitting", 3}, {"flaw", "lawn", 2}, {"same", "same", 0}}
	for _, c := range cases {
		// len(a)+len(b) edits always suffice, so that bound never stops it early.
		if got := newMyers(c.a).distance(c.b, len(c.a)+len(c.b)); got != c.d {
			t.Errorf("myers(%q).distance(%q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
	// kitten → sitting takes 3 edits: under a bound of 1 the answer is only "more than 1".
	if got := newMyers("kitten").distance("sitting", 1); got <= 1 {
		t.Errorf("myers(kitten).distance(sitting, bound 1) = %d, want more than 1", got)
	}
}

func BenchmarkSearch(b *testing.B) {
	Models()
	b.ReportAllocs()
	for b.Loop() {
		Search("qwen3 30b", 20)
	}
}

func BenchmarkSearchEmpty(b *testing.B) {
	Models()
	b.ReportAllocs()
	for b.Loop() {
		Search("", 20)
	}
}

func BenchmarkLookup(b *testing.B) {
	Models()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Lookup("llama-2-7b-chat-hf"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLookupExact(b *testing.B) {
	Models()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Lookup("NousResearch/Llama-2-7b-chat-hf"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLookupNotFound(b *testing.B) {
	Models()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Lookup("NousResearch/Lama-2-7b-chat-hf"); err == nil {
			b.Fatal("a misspelt name was found")
		}
	}
}

// TestArchitecturesMerged checks the verified facts of data/architectures.csv reach the catalog
// beside llmfit's own (untouched) fields. Values read from the CSV by hand.
func TestArchitecturesMerged(t *testing.T) {
	n := 0
	for i := range Models() {
		if Models()[i].Arch.Known() {
			n++
		}
	}
	const want = 430 + 38 + 6 + 4 + 3 + 2
	if n != want { // 325 + Llama-4-Scout's abliterated re-upload + SmolLM2-360M and its -Instruct + MiMo-V2-Flash + 7 LFM2 + Nemotron-H-8B and -56B + gpt-oss-safeguard-20b and -120b, Nemotron-Cascade-2-30B-A3B, Nemotron-Nano-9B-v2-Japanese + 24 Qwen3.5/3.6 and LFM2 fine-tunes + 7 Olmo-3, Gemma-2/3/4 fine-tunes + gpt-oss-20b-Derestricted + DeepSeek-Coder-V2-Instruct, its AWQ copy and DeepSeek-V2.5-1210-FP8 + 7 EXAONE-4.0/4.5 + 3 Olmo-3 32B + 2 Moonlight-16B-A3B + c4ai-command-r7b + granite-4.0-h-tiny + 3 LFM2-2.6B + 3 Nemotron-3-Nano-4B + 2 Kimi-VL-A3B + 2 Command R v01 + 29 Gemma-3/4 fine-tunes and copies (s15-mlaswa)
		// + 35 (s15-hybrid: LFM2-24B-A2B and two of its MLX copies; 20 Qwen3.5/3.6 and 3 Qwen3-Next re-uploads and fine-tunes; LFM2-VL-450M, -1.6B and 3 LFM2 MLX copies; 4 pure-SSM Mamba models; Zamba2-1.2B-instruct; Bamba-9B-v1; Jamba-Mini-1.5)
		// + 6 (s15-mlaswa: Gemma-2-27B (2), a Gemma-2-9B copy, Gemma-3n-E4B (3))
		// + 4 (s15-mlaswa: sarvam-105b, MiniCPM3-4B, the Kimi-K2.6 and GLM-5.1 MLX copies)
		// + 3 (s15-mlaswa: OLMoE-1B-7B-0924, ERNIE-4.5-21B-A3B-PT, Solar-Open-100B)
		// + 2 (s16-arch: Kimi-Linear-48B-A3B-Instruct, Zamba2-7B-Instruct)
		t.Errorf("%d entries with verified architecture, want the CSV's %d", n, want)
	}
	for _, c := range []struct {
		name string
		want Architecture
		// llmfit's own values that must stay as llmfit has them
		llmCtx, llmLayers int
	}{
		// litgpt's phi-4: 40 layers, 40 heads in 10 query groups, width 5,120 (head 128), block 16,384
		{"microsoft/phi-4", Architecture{Base: "microsoft/phi-4", Layers: 40, AttentionHeads: 40, KVHeads: 10, HeadDim: 128,
			HiddenSize: 5120, MaxContext: 16384, Attention: "gqa"}, 16384, 0},
		{"meta-llama/Llama-3.1-8B-Instruct", Architecture{Base: "meta-llama/Llama-3.1-8B(-Instruct)", Layers: 32, AttentionHeads: 32,
			KVHeads: 8, HeadDim: 128, HiddenSize: 4096, MaxContext: 131072, NativeDtype: "bfloat16", Attention: "gqa"}, 4096, 0},
		{"openai/gpt-oss-120b", Architecture{Base: "openai/gpt-oss-120b", Layers: 36, AttentionHeads: 64, KVHeads: 8, HeadDim: 64,
			HiddenSize: 2880, MaxContext: 131072, NativeDtype: "bfloat16", Prequant: "mxfp4 (MoE weights, native release)",
			Attention: "gqa", SlidingWindow: 128, SlidingLayers: 18, Experts: 128, ExpertsPerToken: 4}, 4194304, -1},
		{"deepseek-ai/DeepSeek-R1", Architecture{Base: "deepseek-ai/DeepSeek-V3 (also R1, R1-0528, V3-0324: same architecture)",
			Layers: 61, AttentionHeads: 128, HeadDim: 192, HiddenSize: 7168, MaxContext: 163840, NativeDtype: "bfloat16",
			Prequant: "fp8 (native release)", Attention: "mla", KVLoraRank: 512, QKRopeHeadDim: 64, Experts: 256,
			ExpertsPerToken: 8, SharedExperts: 1}, 6553600, -1},
		{"Qwen/Qwen3-Next-80B-A3B-Instruct", Architecture{Base: "Qwen/Qwen3-Next-80B-A3B-Instruct", Layers: 48, AttentionHeads: 16,
			KVHeads: 2, HeadDim: 256, HiddenSize: 2048, MaxContext: 262144, NativeDtype: "bfloat16", Attention: "hybrid",
			FullAttentionLayers: 12, Experts: 512, ExpertsPerToken: 10, SharedExperts: 1, RecurrentState: 19759104,
			RecurrentConvState: 884736}, -1, -1},
		{"deepseek-ai/DeepSeek-V4-Flash", Architecture{Base: "deepseek-ai/DeepSeek-V4-Flash", Layers: 43, AttentionHeads: 64,
			KVHeads: 1, HeadDim: 512, HiddenSize: 4096, MaxContext: 1048576, NativeDtype: "bfloat16",
			Prequant: "fp8 attention + mxfp4 experts (native release)", Attention: "csa", SlidingWindow: 128, QKRopeHeadDim: 64,
			Experts: 256, ExpertsPerToken: 6, SharedExperts: 1, CSALayers: 21, HCALayers: 20, IndexTopK: 512}, 16777216, 43},
	} {
		m, err := Lookup(c.name)
		if err != nil {
			t.Fatal(err)
		}
		if m.Arch != c.want {
			t.Errorf("%s arch:\n got %+v\nwant %+v", c.name, m.Arch, c.want)
		}
		if c.llmCtx >= 0 && m.ContextLength != c.llmCtx {
			t.Errorf("%s: llmfit's context_length %d changed (want %d)", c.name, m.ContextLength, c.llmCtx)
		}
		if c.llmLayers >= 0 && m.Layers != c.llmLayers {
			t.Errorf("%s: llmfit's layers %d changed (want %d)", c.name, m.Layers, c.llmLayers)
		}
	}
}

// A device may be named by its id, its display name or its productName (fit.LookupAccelerator,
// first match in table order), so no id or display name may name two rows, ignoring case. A
// productName is the driver's string, which some boards share (the RTX 3080's 10 and 12 GB, the
// RTX 4060 Ti's 8 and 16 GB): it may name several rows only when it names nothing else, and the
// first of them, the one a lookup finds, must have the least memory, so a device named by its
// productName is never taken for a bigger board than it may be.
func TestAcceleratorNamesNameOneRow(t *testing.T) {
	owner := map[string]string{}
	accs := Accelerators()
	byID := map[string]*Accelerator{}
	for i := range accs {
		byID[accs[i].ID] = &accs[i]
	}
	for _, a := range accs {
		for _, n := range []string{a.ID, a.Name} {
			k := strings.ToLower(strings.TrimSpace(n))
			if o, ok := owner[k]; ok && o != a.ID {
				t.Errorf("%q names both %s and %s", n, o, a.ID)
			}
			owner[k] = a.ID
		}
	}
	firstWith := map[string]string{} // productName → the first row that has it
	for _, a := range accs {
		k := strings.ToLower(strings.TrimSpace(a.ProductName))
		if k == "" {
			continue
		}
		first, shared := firstWith[k]
		if !shared {
			firstWith[k] = a.ID
			first = a.ID
		}
		if o, ok := owner[k]; ok && o != a.ID && !strings.EqualFold(byID[o].ProductName, a.ProductName) {
			t.Errorf("productName %q of %s is the id or name of %s", a.ProductName, a.ID, o)
		}
		if shared && byID[first].MemoryMiB > a.MemoryMiB {
			t.Errorf("productName %q: its first row %s (%d MiB) has more memory than %s (%d MiB)", a.ProductName, first, byID[first].MemoryMiB, a.ID, a.MemoryMiB)
		}
	}
}

// The productName strings NVIDIA's DRA driver publishes are NVML's device name, untransformed
// (k8s-dra-driver-gpu cmd/gpu-kubelet-plugin/nvlib.go: device.GetName()), which nvidia-smi
// prints; a claim's allow-list that differs by one character never selects the device. These
// were checked against NVIDIA's supported-products table (open-gpu-kernel-modules README.md @
// df1c9a3, driver 595.45.04) and public nvidia-smi output (docs/AUDIT.md, fourteenth session's
// accelerator audit). The sizes NVIDIA's names leave out are the trap: the RTX 3080 12GB, 4060 Ti
// 8GB/16GB and 5060 Ti 16GB were listed under names no driver publishes.
func TestNVIDIAProductNamesAsTheDriverPublishes(t *testing.T) {
	want := map[string]string{
		"nvidia-b200": "NVIDIA B200", "nvidia-h200": "NVIDIA H200", "nvidia-h200-nvl": "NVIDIA H200 NVL",
		"nvidia-gh200-96": "NVIDIA GH200 480GB", "nvidia-gh200-144": "NVIDIA GH200 144G HBM3e",
		"nvidia-gh200-96-120": "NVIDIA GH200 120GB", "nvidia-rtx-pro-6000-maxq": "NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition",
		"nvidia-a800-sxm-80": "NVIDIA A800-SXM4-80GB", "nvidia-a800-pcie-80": "NVIDIA A800 80GB PCIe",
		"nvidia-rtx-a4000": "NVIDIA RTX A4000", "nvidia-rtx-4090-d": "NVIDIA GeForce RTX 4090 D",
		"nvidia-rtx-a5500": "NVIDIA RTX A5500", "nvidia-rtx-a4500": "NVIDIA RTX A4500", "nvidia-l2": "NVIDIA L2",
		"nvidia-rtx-4500-ada": "NVIDIA RTX 4500 Ada Generation", "nvidia-rtx-2000-ada": "NVIDIA RTX 2000 Ada Generation",
		"nvidia-a800-active-40": "NVIDIA A800 40GB Active", "nvidia-a800-sxm-40": "NVIDIA A800-SXM4-40GB",
		"nvidia-h100-sxm": "NVIDIA H100 80GB HBM3", "nvidia-h100-nvl": "NVIDIA H100 NVL", "nvidia-h100-pcie": "NVIDIA H100 PCIe",
		"nvidia-a100-sxm-80": "NVIDIA A100-SXM4-80GB", "nvidia-a100-pcie-80": "NVIDIA A100 80GB PCIe",
		"nvidia-a100-sxm-40": "NVIDIA A100-SXM4-40GB", "nvidia-a100-pcie-40": "NVIDIA A100-PCIE-40GB",
		"nvidia-l40s": "NVIDIA L40S", "nvidia-l40": "NVIDIA L40", "nvidia-l4": "NVIDIA L4", "nvidia-l20": "NVIDIA L20",
		"nvidia-a10g": "NVIDIA A10G", "nvidia-a10": "NVIDIA A10", "nvidia-a30": "NVIDIA A30", "nvidia-a40": "NVIDIA A40",
		"nvidia-a16": "NVIDIA A16", "nvidia-a2": "NVIDIA A2", "nvidia-t4": "Tesla T4",
		"nvidia-v100-sxm-32": "Tesla V100-SXM2-32GB", "nvidia-v100-sxm-16": "Tesla V100-SXM2-16GB",
		"nvidia-v100-pcie-32": "Tesla V100-PCIE-32GB", "nvidia-v100-pcie-16": "Tesla V100-PCIE-16GB",
		"nvidia-h20": "NVIDIA H20", "nvidia-h800-sxm": "NVIDIA H800", "nvidia-h800-pcie": "NVIDIA H800 PCIe",
		"nvidia-gb200": "NVIDIA GB200", "nvidia-b300": "NVIDIA B300 SXM6 AC", "nvidia-gb300": "NVIDIA GB300", "nvidia-gb10": "NVIDIA GB10",
		"nvidia-rtx-pro-6000":    "NVIDIA RTX PRO 6000 Blackwell Server Edition",
		"nvidia-rtx-pro-6000-ws": "NVIDIA RTX PRO 6000 Blackwell Workstation Edition",
		"nvidia-rtx-6000-ada":    "NVIDIA RTX 6000 Ada Generation", "nvidia-rtx-5880-ada": "NVIDIA RTX 5880 Ada Generation",
		"nvidia-rtx-5000-ada": "NVIDIA RTX 5000 Ada Generation", "nvidia-rtx-4000-ada": "NVIDIA RTX 4000 Ada Generation",
		"nvidia-rtx-a6000": "NVIDIA RTX A6000", "nvidia-rtx-a5000": "NVIDIA RTX A5000", "nvidia-titan-rtx": "NVIDIA TITAN RTX",
		"nvidia-rtx-2060-super": "NVIDIA GeForce RTX 2060 SUPER", "nvidia-rtx-2080-ti": "NVIDIA GeForce RTX 2080 Ti",
		"nvidia-rtx-3080": "NVIDIA GeForce RTX 3080", "nvidia-rtx-3080-12": "NVIDIA GeForce RTX 3080",
		"nvidia-rtx-4060-ti-8": "NVIDIA GeForce RTX 4060 Ti", "nvidia-rtx-4060-ti-16": "NVIDIA GeForce RTX 4060 Ti",
		"nvidia-rtx-4070-ti-super": "NVIDIA GeForce RTX 4070 Ti SUPER", "nvidia-rtx-4090": "NVIDIA GeForce RTX 4090",
		"nvidia-rtx-5060-ti-16": "NVIDIA GeForce RTX 5060 Ti", "nvidia-rtx-5090": "NVIDIA GeForce RTX 5090",
	}
	got := map[string]string{}
	for _, a := range Accelerators() {
		if a.Vendor != "nvidia" {
			continue
		}
		got[a.ID] = a.ProductName
		// A memory or board size NVIDIA's names do not carry must not be added: the names that
		// do carry one (A100-SXM4-80GB, GH200 480GB, V100-PCIE-16GB …) are pinned above.
		if _, pinned := want[a.ID]; !pinned && regexp.MustCompile(`\d+GB\b`).MatchString(a.ProductName) {
			t.Errorf("%s: productName %q names a size; NVIDIA's GeForce and RTX names carry none", a.ID, a.ProductName)
		}
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s: productName %q, the driver publishes %q", id, got[id], w)
		}
	}
}

// Embedding and other encoder-only models are marked, as the generator derives it: every entry
// llmfit's use case calls "Text embeddings for RAG", and these read from their model cards by hand
// (an XLM-R embedder llmfit files as general purpose, an embedder and a late-interaction
// retriever built on decoder families, a reranker); generators are not.
func TestEmbeddingModels(t *testing.T) {
	ms := Models()
	n := 0
	for i, e := range readSource(t) {
		if e.UseCase == "Text embeddings for RAG" {
			n++
			if !ms[i].Embedding {
				t.Errorf("%s: llmfit's use case is embeddings; not marked", e.Name)
			}
		}
	}
	if n != 53 {
		t.Errorf("%d entries with the embeddings use case, want 53 (data/README.md's catalog)", n)
	}
	for _, c := range []struct {
		name string
		want bool
	}{
		{"intfloat/multilingual-e5-large", true}, {"intfloat/e5-mistral-7b-instruct", true},
		{"LiquidAI/LFM2-ColBERT-350M", true}, {"BAAI/bge-reranker-large", true}, {"BAAI/bge-small-en-v1.5", true},
		{"Qwen/Qwen3-8B", false}, {"openai-community/gpt2", false}, {"jinaai/ReaderLM-v2", false},
		{"meta-llama/Llama-3.1-8B-Instruct", false},
	} {
		m, err := Lookup(c.name)
		if err != nil {
			t.Fatal(err)
		}
		if m.Embedding != c.want {
			t.Errorf("%s: embedding %v, want %v", c.name, m.Embedding, c.want)
		}
	}
}

// Entries are decoded one by one on first use (Lookup) or all at once (Models), from several
// goroutines at a time (the API server's requests): either way a *Model is the catalog's own
// entry, and go test -race sees no race.
func TestLazyDecodeIsShared(t *testing.T) {
	names := []string{"NousResearch/Llama-2-7b-chat-hf", "Qwen/Qwen2.5-7B-Instruct", "Qwen/Qwen3-30B-A3B-Instruct-2507"}
	done := make(chan *Model, 2*len(names))
	for _, n := range names {
		go func() {
			m, err := Lookup(n)
			if err != nil {
				t.Error(err)
			}
			done <- m
		}()
		go func() { Models(); done <- nil }()
	}
	for range 2 * len(names) {
		<-done
	}
	all := Models()
	if len(all) != len(Names()) {
		t.Fatalf("%d models, %d names", len(all), len(Names()))
	}
	for _, n := range names {
		m, err := Lookup(n)
		if err != nil {
			t.Fatal(err)
		}
		i := slices.Index(Names(), n)
		if i < 0 || m != &all[i] || m.Name != n {
			t.Errorf("Lookup(%q) is not entry %d of Models()", n, i)
		}
	}
}

// searchScan is Search as it was written first, ranking every name on its own with rank: the
// reference that TestSearchSameAsScan holds the joined-text search (rankAll) to.
func searchScan(query string, limit int) []Model {
	limit = max(1, min(limit, 100))
	q := strings.ToLower(strings.TrimSpace(query))
	words := strings.Fields(q)
	var buckets [maxRank + 1][]int
	for _, i := range byDownloadsThenName() {
		if r := rank(lowerNames()[i], q, words); r >= 0 {
			buckets[r] = append(buckets[r], i)
		}
	}
	var out []Model
	for _, b := range buckets {
		for _, i := range b {
			if len(out) < limit {
				out = append(out, Models()[i])
			}
		}
	}
	return out
}

// TestSearchSameAsScan: the search over the joined names gives what ranking each name on its
// own gives, for queries of every kind: each name's words, pieces and whole, several words
// (repeated, in any order, one absent), a newline that would join two names, case, Unicode.
func TestSearchSameAsScan(t *testing.T) {
	queries := []string{"", " ", "llama", "qwen 7b", "qwen+7b", "7b qwen instruct", "instruct instruct", "b", "-", "/", "a/b",
		"hf\nmeta", "hf\n", "\nmeta", "q4 q4 q4", "llama zzz", "é", "İnstruct", "QWEN3-30B", "mistral 7b", "gemma 27b", "phi 3 mini",
		"meta-llama/llama-3.1-8b-instruct", "llama-3.1-8b-instruct", "thebloke", "gguf awq", "x"}
	for i, n := range Names() {
		if i%7 != 0 {
			continue
		}
		queries = append(queries, n, strings.ToUpper(n[len(n)/2:]), n[:len(n)/3]+" "+n[len(n)-3:])
		if slash := strings.IndexByte(n, '/'); slash > 0 {
			queries = append(queries, n[slash+1:], n[:slash]+"\n"+n[slash+1:])
		}
	}
	// Two neighbouring names joined by the newline that separates them in the joined text.
	all := Names()
	queries = append(queries, strings.ToLower(all[0]+"\n"+all[1]), strings.ToLower(all[0][len(all[0])-2:]+"\n"+all[1][:2]))
	for _, q := range queries {
		for _, limit := range []int{1, 10, 100} {
			got, want := names(Search(q, limit)), names(searchScan(q, limit))
			if strings.Join(got, ",") != strings.Join(want, ",") {
				t.Fatalf("Search(%q, %d) = %v, ranking each name gives %v", q, limit, got, want)
			}
		}
	}
}

// A model's Hugging Face address names its owner/name, which is the catalog's name: pasted whole
// it was "no model in the catalog matches", closest HuggingFaceM4/idefics2-8b.
func TestLookupHubAddress(t *testing.T) {
	for _, q := range []string{"https://huggingface.co/Qwen/Qwen3-8B", "huggingface.co/qwen/qwen3-8b/", "hf.co/Qwen/Qwen3-8B",
		"https://huggingface.co/Qwen/Qwen3-8B/tree/main", "https://huggingface.co/Qwen/Qwen3-8B?library=vllm", " https://hf.co/Qwen/Qwen3-8B#model-card "} {
		if m, err := Lookup(q); err != nil || m.Name != "Qwen/Qwen3-8B" {
			t.Errorf("%q: %v, %v", q, m, err)
		}
	}
	// Not in the catalog: the suggestions are for the address's model.
	_, err := Lookup("https://huggingface.co/Qwen/Qwen3-8B-Instruct")
	var nf *NotFoundError
	if !errors.As(err, &nf) || len(nf.Suggestions) == 0 || !strings.HasPrefix(nf.Suggestions[0], "Qwen/") {
		t.Errorf("not in the catalog: %v", err)
	}
	for _, q := range []string{"https://huggingface.co/", "https://huggingface.co/Qwen", "hf.co//x"} {
		if _, err := Lookup(q); err == nil {
			t.Errorf("%q: found", q)
		}
	}
}

// Every device has a label of at most ShortNameMax characters for the page's device select
// (a short name where its name is longer: the closed select at 390 px cut the three RTX PRO 6000
// Blackwell editions and the GH200 with the 120 GB module), and no two devices share one.
func TestShortNames(t *testing.T) {
	seen := map[string]string{}
	short := 0
	for _, a := range Accelerators() {
		if a.ShortName != "" {
			short++
			if a.ShortName == a.Name || strings.TrimSpace(a.ShortName) != a.ShortName {
				t.Errorf("%s: short name %q: give one only where the name %q is too long, without spaces around it", a.ID, a.ShortName, a.Name)
			}
		}
		l := a.Label()
		if n := utf8.RuneCountInString(l); n > ShortNameMax {
			t.Errorf("%s: label %q has %d characters, over %d: give it a short_name in data/accelerators.csv", a.ID, l, n, ShortNameMax)
		}
		if other, ok := seen[l]; ok {
			t.Errorf("%s and %s share the label %q", other, a.ID, l)
		}
		seen[l] = a.ID
	}
	if short != 4 {
		t.Errorf("%d short names, want the 4 rows whose names are over %d characters", short, ShortNameMax)
	}
}

// Memory as the drivers publish it, where the fifteenth and sixteenth sessions read it (docs/AUDIT.md,
// "Fixed in the fifteenth session: accelerators" and "… sixteenth session …"): NVML's total for
// NVIDIA, KFD's VRAM size for AMD (rocm-smi, HIP's totalGlobalMem, rocminfo's GPU pool), the i915
// probed size, xe usable VRAM or xpu-smi's total for Intel, or the driver's own ResourceSlice. Each
// was a spec figure (GB × 1024) before; a card's own figure sits below it, so a claim at the spec
// size must not list it.
func TestMemoryAsTheDriversPublish(t *testing.T) {
	want := map[string]struct {
		mib   int64
		exact bool
	}{
		"nvidia-rtx-a5500": {24564, true}, "nvidia-rtx-a4500": {20470, true}, "nvidia-rtx-4500-ada": {24570, true},
		"nvidia-rtx-2000-ada": {16380, true}, "nvidia-l2": {23034, true},
		"nvidia-a800-active-40": {40960, true}, "nvidia-a800-sxm-40": {40960, true},
		"nvidia-rtx-4080-super": {16376, true}, "nvidia-rtx-5880-ada": {49140, true}, "nvidia-gb10": {122572, true},
		"amd-mi210": {65520, true}, "amd-mi100": {32752, true}, "amd-mi350x": {294896, true}, "amd-mi355x": {294896, true},
		"amd-mi325x": {262128, true}, "amd-mi300a": {96335, true}, "amd-rx-7900xt": {20464, true}, "amd-rx-7900gre": {16368, true},
		"amd-rx-9070xt": {16304, true}, "amd-rx-9070": {16304, true},
		"intel-max-1550": {131040, true}, "intel-max-1100": {49136, true}, "intel-flex-170": {14248, true},
		"intel-arc-a770": {16288, true}, "intel-arc-a750": {8128, true}, "intel-arc-a580": {8128, true},
		"intel-arc-b580": {12216, true}, "intel-arc-b570": {10172, true}, "intel-arc-pro-b60": {24480, true},
	}
	seen := 0
	for _, a := range Accelerators() {
		w, ok := want[a.ID]
		if !ok {
			continue
		}
		seen++
		if a.MemoryMiB != w.mib || a.MemoryExact != w.exact {
			t.Errorf("%s: %d MiB (exact %v), the driver's reading is %d MiB (exact %v)", a.ID, a.MemoryMiB, a.MemoryExact, w.mib, w.exact)
		}
	}
	if seen != len(want) {
		t.Errorf("%d of the %d rows found", seen, len(want))
	}
}

// AMD's DRA driver publishes productName from sysfs product_name (the board FRU's), spaces as
// "_" and parentheses dropped (ROCm/k8s-gpu-dra-driver pkg/amdgpu/amdgpu.go), so no AMD
// productName holds a space or a parenthesis. The FRU differs by board vendor: these are the
// boards whose reading was found (docs/AUDIT.md); the other AMD rows have none.
func TestAMDProductNamesAsTheDriverPublishes(t *testing.T) {
	want := map[string]string{
		"amd-mi300x": "AMD_Instinct_MI300X_OAM", "amd-mi350x": "AMD_Instinct_MI350_OAM", "amd-mi210": "Instinct_MI210",
	}
	for _, a := range Accelerators() {
		if a.Vendor != "amd" {
			continue
		}
		if strings.ContainsAny(a.ProductName, " ()") {
			t.Errorf("%s: productName %q: the driver writes spaces as _ and drops parentheses", a.ID, a.ProductName)
		}
		if a.ProductName != want[a.ID] {
			t.Errorf("%s: productName %q, a reading gives %q", a.ID, a.ProductName, want[a.ID])
		}
	}
}
