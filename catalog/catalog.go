// Package catalog holds llmfit's model catalog and a table of common accelerators, compiled in
// as compact text made by `go generate` (see gen/: string constants in models_tsv.go and
// accelerators_tsv.go, not //go:embed, whose package embed would bring io/fs and time into the
// page's wasm), with lookup and a ranked search.
//
// The model data is derived from llmfit (MIT licence); LICENSE-llmfit.txt travels with it.
package catalog

//go:generate go run ./gen -data ../data -out .

import (
	"iter"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Date is the day llmfit's catalog was taken (YYYY-MM-DD).
var Date = strings.TrimSpace(dateTxt)

// Model is one catalog entry, with the fields sizing needs. Zero means "not in the catalog" for
// the architecture fields (Layers, KVHeads, HeadDim, HiddenSize) and for ActiveParameters.
type Model struct {
	Name           string
	ParameterCount string // llmfit's display form, "7.0B", "494M"
	ParametersRaw  int64
	MinRAMGB       float64
	MinVRAMGB      float64
	HasMinVRAM     bool
	Quantization   string
	ContextLength  int
	Layers         int
	KVHeads        int
	HeadDim        int
	HiddenSize     int
	VocabSize      int // the tokenizer's vocabulary (the logits vLLM's sampler sizes)
	// Embedding: an embedding, reranker or other encoder-only model, which generates no text
	// (catalog/gen: llmfit's use case, the pipeline, the architecture or the name says so).
	Embedding        bool
	MoE              bool
	ActiveParameters int64
	Downloads        int64

	// Arch holds the verified facts of data/architectures.csv (read from the model family's
	// config.json; see data/architectures.md), zero for the entries it does not cover. llmfit's
	// own fields above are never changed by it: llmfit mode reads only those.
	Arch Architecture
}

// Architecture is one row of data/architectures.csv. Zero means "not stated".
type Architecture struct {
	Base                string // the family base model whose config was read
	Layers              int
	AttentionHeads      int
	KVHeads             int // empty (0) for MLA, where the config's value is no cache dimension
	HeadDim             int
	HiddenSize          int
	MaxContext          int    // max_position_embeddings: the real context, RoPE scaling already in it
	NativeDtype         string // bfloat16, float16, float32
	Prequant            string // the repository's quantized release format, in the CSV's words ("fp8", "awq-int4", …)
	Attention           string // gqa, mha, mqa, mla, hybrid, csa
	SlidingWindow       int    // tokens a windowed layer keeps
	SlidingLayers       int    // layers that use the window
	FullAttentionLayers int    // hybrid: layers with a per-token KV cache
	KVLoraRank          int    // MLA latent width
	QKRopeHeadDim       int    // MLA decoupled RoPE key width
	Experts             int    // routed experts
	ExpertsPerToken     int
	SharedExperts       int
	CSALayers           int // csa: layers that compress 4 tokens into one entry, with an indexer key
	HCALayers           int // csa: layers that compress 128 tokens into one entry
	RecurrentState      int // hybrid: elements of one sequence's linear-attention / SSM state (0: unknown)
	// Gemma-4: the full-attention (global) layers' own KV heads and head size where they differ
	// from the sliding layers' (0 = the same), and the last layers that reuse earlier layers' KV
	// cache instead of keeping one (num_kv_shared_layers; 0 = none)
	GlobalKVHeads  int
	GlobalHeadDim  int
	KVSharedLayers int
	// IndexHeadDim is the DeepSeek sparse attention indexer's key width (DeepSeek-V3.2, GLM-5:
	// index_head_dim 128), one key per layer and token beside the MLA latent; 0 = no indexer.
	IndexHeadDim int
	IndexTopK    int // csa: compressed entries the lightning indexer selects per decoded token (0: unknown)
	// hybrid: of RecurrentState, the convolutions' last inputs (0: unknown), and the dtype vLLM
	// keeps the rest, the SSM / delta-rule state, in ("float32"; "": the model's dtype)
	RecurrentConvState int
	SSMStateDtype      string
	// VocabSize is config.json's vocab_size (the embedding's rows), stated only for the entries
	// llmfit's catalog records none for (its gated repositories: google/gemma-3-270m, meta-llama's
	// Llama-2 and Llama-4): 0 = not stated.
	VocabSize int
	// VHeadDim is the value heads' size where it differs from the key heads' (config.json's
	// v_head_dim; MiMo-V2-Flash: keys of 192, values of 128, in every layer): 0 = the same.
	VHeadDim int
}

// Known reports whether the entry has a row in architectures.csv.
func (a *Architecture) Known() bool { return a.Attention != "" }

// HasArchitecture reports whether the KV-cache shape (layers, KV heads, head size) is known.
func (m *Model) HasArchitecture() bool {
	return m.Layers > 0 && m.KVHeads > 0 && m.HeadDim > 0
}

// The catalog is decoded entry by entry, on first use: a lookup by name (a page's first claim,
// an edge request) finds the name among the lines and decodes that one line, not all 1,852 —
// in the page's wasm the whole decode was most of the first render (issue 10 §2). Models()
// decodes the rest. An entry is decoded once, under rowMu, into its place in models, so a
// *Model handed out stays the catalog's own.
var (
	indexOnce   sync.Once
	entriesOnce sync.Once
	modelNames  []string // each entry's name: its line's first field
	rowMu       sync.Mutex
	decoded     []bool // decoded[i]: models[i] holds entry i
	models      []Model
	allOnce     sync.Once

	accelOnce sync.Once
	accels    []Accelerator

	lowerOnce sync.Once
	lowered   []string // models' names in lower case, for lookup and search without re-lowering
)

// modelLine is entry i's line of modelsTSV without its newline, and modelName its name, cut by
// the generated index (tables_index.go: where each line starts, how long its name is) without
// reading the table or making anything: a first claim (one lookup by the exact name, one entry
// decoded) needs neither the slices of every line and name nor the loop that fills them, which
// were a share of the page's first render (issue 10 §2).
func modelLine(i int) string { return modelsTSV[modelStart[i] : modelStart[i+1]-1] }

func modelName(i int) string { return modelsTSV[modelStart[i] : modelStart[i]+uint32(modelNameLen[i])] }

// indexModels makes the slice of every name (Names, the searches).
func indexModels() {
	indexOnce.Do(func() {
		modelNames = make([]string, modelCount)
		for i := range modelCount {
			modelNames[i] = modelName(i)
		}
	})
}

// entries holds the decoded entries in one array, so Entry(i) and &Models()[i] are one *Model.
func entries() {
	entriesOnce.Do(func() { models, decoded = make([]Model, modelCount), make([]bool, modelCount) })
}

// model returns entry i of Models(), decoding only its line if it is not decoded yet.
func model(i int) *Model {
	entries()
	rowMu.Lock()
	defer rowMu.Unlock()
	if !decoded[i] || loaded != loadedFull {
		// entryLine: in shard mode the shard's line, or it panics (source.go), whatever a test
		// decoded before
		line := entryLine(i)
		if !decoded[i] {
			models[i], decoded[i] = parseModel(line), true
		}
	}
	return &models[i]
}

// Entry is entry i of Models() (0 ≤ i < ModelCount()), the same *Model, decoding only its line:
// the tables other packages generate from the catalog (fit/kin_gen.go) name entries by index,
// so a first claim reads the one entry it needs instead of the whole catalog.
func Entry(i int) *Model { return model(i) }

// Named is the entry named exactly name (the first, in catalog order, if several are), or nil:
// a binary search of the names, decoding nothing but that entry.
func Named(name string) *Model {
	if i, ok := exactName(name); ok {
		return model(i)
	}
	return nil
}

// Names returns every entry's name, index for index with Models(), without decoding the
// entries. The slice is shared: do not modify it.
func Names() []string {
	needFull("Names")
	indexModels()
	return modelNames
}

// exactName is the index of the first entry named exactly name: a binary search of the names
// in the generated order (modelByName, tables_index.go). A lookup by the exact name is every
// permalink the page writes, so most edge requests and the page's first claim; the search
// builds nothing (a map of the 1,852 names was one-time work on the page's first claim).
func exactName(name string) (int, bool) {
	if loaded != loadedFull {
		return shardExact(name)
	}
	i, found := slices.BinarySearchFunc(modelByName[:], name, func(e uint16, name string) int { return strings.Compare(modelName(int(e)), name) })
	if !found {
		return 0, false
	}
	return int(modelByName[i]), true
}

// lowerNames returns the lower-case names, index for index with Models(). They are made on
// first use: an exact-name lookup (the edge worker's usual request) never needs them.
func lowerNames() []string {
	needFull("lowerNames")
	lowerOnce.Do(func() {
		names := Names()
		lowered = make([]string, len(names))
		for i, n := range names {
			lowered[i] = strings.ToLower(n)
		}
	})
	return lowered
}

// ModelCount is len(Models()) without decoding the catalog, and AcceleratorCount is
// len(Accelerators()): the page says the catalog's size as soon as its engine has started,
// before the first claim, which decodes only what it needs. Both are counted when the catalog
// is generated (tables_index.go).
func ModelCount() int { return modelCount }

// AcceleratorCount is len(Accelerators()) without decoding the table.
func AcceleratorCount() int { return acceleratorCount }

// rows yields a table's lines that hold data: not empty, not a comment. It cuts them by hand
// (strings.Split allocated the slice of every line): reading the tables is the start-up cost
// of the first request that needs the catalog, in the page and in each edge worker instance.
func rows(text string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for len(text) > 0 {
			line := text
			if i := strings.IndexByte(text, '\n'); i >= 0 {
				line, text = text[:i], text[i+1:]
			} else {
				text = ""
			}
			if line != "" && line[0] != '#' && !yield(line) {
				return
			}
		}
	}
}

// Models returns every catalog entry in llmfit's order. The slice is shared: do not modify it.
func Models() []Model {
	needFull("Models")
	allOnce.Do(func() {
		entries()
		rowMu.Lock()
		defer rowMu.Unlock()
		for i := range models {
			if !decoded[i] {
				models[i], decoded[i] = parseModel(modelLine(i)), true
			}
		}
	})
	return models
}

// parseModel reads one line of modelsTSV. It cuts fields by hand into an array rather than with
// strings.Split, which allocated a slice per line (see rows).
func parseModel(line string) Model {
	var f [16 + 30]string // llmfit's 15 columns that sizing reads, the embedding flag, then architectures.csv's
	if !splitFields(line, f[:]) {
		panic("catalog: models_tsv.go is malformed; run go generate ./catalog")
	}
	m := Model{
		Name:             f[0],
		ParameterCount:   f[1],
		ParametersRaw:    atoi64(f[2]),
		MinRAMGB:         atof(f[3]),
		MinVRAMGB:        atof(f[4]),
		HasMinVRAM:       f[4] != "",
		Quantization:     f[5],
		ContextLength:    atoi(f[6]),
		Layers:           atoi(f[7]),
		KVHeads:          atoi(f[8]),
		HeadDim:          atoi(f[9]),
		HiddenSize:       atoi(f[10]),
		MoE:              f[11] == "1",
		ActiveParameters: atoi64(f[12]),
		Downloads:        atoi64(f[13]),
		VocabSize:        atoi(f[14]),
		Embedding:        f[15] == "1",
	}
	a := f[16:]
	m.Arch = Architecture{
		Base: a[0], Layers: atoi(a[1]), AttentionHeads: atoi(a[2]), KVHeads: atoi(a[3]), HeadDim: atoi(a[4]),
		HiddenSize: atoi(a[5]), MaxContext: atoi(a[6]), NativeDtype: a[7], Prequant: a[8], Attention: a[9],
		SlidingWindow: atoi(a[10]), SlidingLayers: atoi(a[11]), FullAttentionLayers: atoi(a[12]),
		KVLoraRank: atoi(a[13]), QKRopeHeadDim: atoi(a[14]), Experts: atoi(a[15]), ExpertsPerToken: atoi(a[16]),
		SharedExperts: atoi(a[17]), CSALayers: atoi(a[18]), HCALayers: atoi(a[19]),
		GlobalKVHeads: atoi(a[20]), GlobalHeadDim: atoi(a[21]), KVSharedLayers: atoi(a[22]),
		RecurrentState: atoi(a[23]), IndexHeadDim: atoi(a[24]), IndexTopK: atoi(a[25]),
		RecurrentConvState: atoi(a[26]), SSMStateDtype: a[27], VocabSize: atoi(a[28]), VHeadDim: atoi(a[29]),
	}
	return m
}

// splitFields cuts a tab-separated line into exactly len(f) fields.
func splitFields(line string, f []string) bool {
	for k := range f {
		if k == len(f)-1 {
			f[k] = line
			return strings.IndexByte(line, '\t') < 0
		}
		i := strings.IndexByte(line, '\t')
		if i < 0 {
			return false
		}
		f[k], line = line[:i], line[i+1:]
	}
	return true
}

func atoi64(s string) int64 {
	if s == "" {
		return 0
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		panic("catalog: bad integer " + strconv.Quote(s) + "; run go generate ./catalog")
	}
	return n
}

func atoi(s string) int { return int(atoi64(s)) }

func atof(s string) float64 {
	if s == "" {
		return 0
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		panic("catalog: bad number " + strconv.Quote(s) + "; run go generate ./catalog")
	}
	return x
}
