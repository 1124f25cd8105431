package target

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Validate checks every field against the table, in the table's order, then the rules that tie
// fields together. A choice given in another case is put in its spelling (FoldsCase). It needs no catalog: package fit checks what does (the model's name, its own
// quantization).
func (t *Target) Validate() error {
	for i := range Fields {
		if err := Fields[i].check(t); err != nil {
			return err
		}
	}
	return t.checkTogether()
}

// check is the table's rule for one field.
func (f *Field) check(t *Target) error {
	switch f.Kind() {
	case KindNumber:
		x := *f.number(t)
		if x == 0 && f.ZeroOK {
			return nil
		}
		return f.CheckNumber(x)
	case KindInteger:
		n := *f.integer(t)
		if n == 0 && f.ZeroOK {
			return nil
		}
		if float64(n) < f.Min || float64(n) > f.Max {
			return f.Errorf(strconv.Itoa(n))
		}
	case KindString:
		s := *f.str(t)
		if s == "" && f.ZeroOK {
			return nil
		}
		// Characters, as the message says and the page's input counts them (maxLength), not bytes:
		// 101 Chinese characters were "at most 300 characters (got 303)". len(s) first: a string
		// of at most MaxLen bytes has at most MaxLen characters, and most are ASCII.
		if len(s) > f.MaxLen && utf8.RuneCountInString(s) > f.MaxLen {
			return f.TooLong(s)
		}
		if s == "" && f.Derived != "" { // the zero value means "derive it"
			return nil
		}
		// A choice in another case is the choice (FoldsCase): the codec (Set: links, the API,
		// flags, the bridge) already wrote it so; a Target built in Go gets it here, so that what
		// reads the target after Validate (package fit, claim, deploy) sees one spelling.
		if f.Choices != nil {
			s = f.Canonical(s)
			*f.str(t) = s
		}
		if f.Choices != nil && !f.Open && !slices.Contains(f.Choices(), s) {
			return f.Errorf(strconv.Quote(s))
		}
	}
	return nil
}

// CheckNumber is a number field's range, Min < x ≤ Max, without the ZeroOK exception: for a
// value that must be given (a device given by its numbers needs its memory and bandwidth).
func (f *Field) CheckNumber(x float64) error {
	if math.IsNaN(x) || math.IsInf(x, 0) || x <= f.Min || x > f.Max {
		return f.Errorf(strconv.FormatFloat(x, 'g', -1, 64))
	}
	return nil
}

// checkTogether holds the rules between fields: a catalog model or a custom size, and a custom
// model's architecture.
func (t *Target) checkTogether() error {
	r := togetherFields()
	params := r.params
	if t.Model != "" && t.ParamsB != 0 {
		return params.Err("give either a catalog model or a custom model's " + params.Label + ", not both")
	}
	if strings.TrimSpace(t.Model) == "" && t.ParamsB == 0 { // a name of spaces names nothing
		return r.model.Err("choose a catalog model, or give " + params.Ref() + ", in billions, for a custom one")
	}
	custom := t.Model == ""
	// A custom model's shape comes whole; a catalog model's fields are single overrides of its
	// facts (the KV-aware mode). MLA has no KV heads to give.
	arch := r.arch
	var none [3]*Field
	missing := none[:0]
	for _, f := range arch {
		if *f.integer(t) == 0 {
			missing = append(missing, f)
		}
	}
	if custom && t.Attention != "mla" && len(missing) != 0 && len(missing) != len(arch) {
		return missing[0].Err(arch[0].Ref() + ", " + arch[1].Ref() + " and " + arch[2].Ref() + " go together: give all three or none")
	}
	for _, pair := range r.parts {
		part, whole := pair[0], pair[1]
		if p, w := *part.integer(t), *whole.integer(t); w != 0 && p > w {
			return part.Err("must be at most " + whole.Label + " (" + strconv.Itoa(w) + ") (got " + strconv.Itoa(p) + ")")
		}
	}
	if active := r.active; t.ActiveParamsB != 0 {
		if !custom {
			return active.Err("describes a custom model, given by " + params.Ref() + "; a catalog model brings its own")
		}
		if t.ActiveParamsB > t.ParamsB {
			return active.Err("must be at most the model's " + params.Label + " (" + Num(t.ParamsB) + " billion) (got " + strconv.FormatFloat(t.ActiveParamsB, 'g', -1, 64) + ")")
		}
	}
	if t.CapacityName == CapacityQualified && !t.CapacityRequest {
		return r.capacityName.Err("names the capacity a capacity request asks for: set " + r.capacityRequest.Label + " (capacityRequest, cap=1) too, or leave it out")
	}
	return t.checkEngine()
}

// checkEngine: vLLM's arguments mean nothing to llama.cpp.
func (t *Target) checkEngine() error {
	if t.Engine != EngineLlamaCpp {
		return nil
	}
	r := togetherFields()
	for _, f := range r.vllmArgs {
		if f.Get(t) != "0" {
			return f.Err("is vLLM's argument: set " + r.engine.Ref() + " to " + EngineVLLM + ", or leave it out")
		}
	}
	return nil
}

// togetherFields are the rows checkTogether and checkEngine name, looked up once: Validate runs
// on every request of the edge worker (and once per candidate model of its fitting route), and
// looking some twenty names up in the table's map on each run was ~2 % of the worker's Go time.
var togetherFields = sync.OnceValue(func() togetherRows {
	var r togetherRows
	r.params, r.model, r.active = field("paramsB"), field("model"), field("activeParamsB")
	r.capacityName, r.capacityRequest, r.engine = field("capacityName"), field("capacityRequest"), field("engine")
	r.arch = [3]*Field{field("layers"), field("kvHeads"), field("headDim")}
	for i, pair := range [...][2]string{{"slidingLayers", "layers"}, {"fullAttentionLayers", "layers"}, {"csaLayers", "layers"}, {"hcaLayers", "layers"}, {"expertsPerToken", "experts"}} {
		r.parts[i] = [2]*Field{field(pair[0]), field(pair[1])}
	}
	for i, name := range [...]string{"gpuMemoryUtilization", "maxNumSeqs", "maxNumBatchedTokens"} {
		r.vllmArgs[i] = field(name)
	}
	return r
})

type togetherRows struct {
	params, model, active, capacityName, capacityRequest, engine *Field
	arch                                                         [3]*Field    // a custom model's shape, given whole or not at all
	parts                                                        [5][2]*Field // a part, and the whole it may not exceed
	vllmArgs                                                     [3]*Field    // vLLM's own arguments
}

// field is a row the rules above name; a typo is a panic at the first test.
func field(name string) *Field {
	f, ok := ByName(name)
	if !ok {
		panic("target: no field " + name)
	}
	return f
}
