package bridge

import (
	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/internal/jsontext"
	"github.com/fitclaim/fitclaim/target"
)

// The page's first claim on a permalink load (issue 10 §2), in one call from web/boot.js
// through the page build's exports (wasm/page/export.go): the link read as fitclaim.repairLink
// reads it and its claim rendered as fitclaim.render renders it, but only what the page shows
// first, the YAML and the JSON. The rest of the answer (the table, the words, the pictures:
// render's columns document) is written from the same render when app.js adopts the claim, once
// it is on screen. Before, the first claim took two calls through syscall/js and the whole answer,
// and V8 compiled every function of it (the table, the explanation, the matches: some 60 KB of
// code) on the page's thread before the claim could show.

// First is a permalink's first claim: the link's target as repairLink reads it, and the claim's
// render, the matches added once the page asks for the rest.
type First struct {
	Link    target.Target // the link's good pairs (repairLink's target)
	Asked   target.Target // render's target: Link as the page passes it back (TargetFromObject)
	Result  claim.Result
	matched bool // Result has its matches and warnings
}

// FirstClaim reads a link's fragment and renders its claim's YAML and JSON. ok is false when
// the page's own start must read the link: it needs repair (a pair dropped or a message: the
// page puts them by their fields), names neither a model nor a size (the page asks for one),
// or its claim cannot be rendered (the page shows render's error).
func FirstClaim(fragment string) (f First, ok bool) {
	r := target.RepairLink(fragment)
	if len(r.Dropped) > 0 || r.Message() != "" {
		return First{}, false
	}
	values := targetValues(&r.Target)
	if _, model := values["model"]; !model {
		if _, size := values["paramsB"]; !size {
			return First{}, false
		}
	}
	// render's target is the one the page passes back, read as render reads it, so the claim
	// and the rest are render's bytes for the form's target.
	asked, err := TargetFromObject(values)
	if err != nil {
		return First{}, false
	}
	res, err := claim.RenderClaim(asked)
	if err != nil {
		return First{}, false
	}
	return First{Link: r.Target, Asked: asked, Result: res}, true
}

// FirstClaimOrWait is FirstClaim for an engine that may hold only a shard of the model catalog
// (catalog.LoadShard), or none yet: wait is true when the catalog it holds cannot answer exactly
// as the whole catalog would (catalog.IncompleteError), and the page must load the whole
// catalog (LoadCatalog) and ask again. Else it is FirstClaim's answer, byte for byte
// (TestFirstClaimFromShard).
func FirstClaimOrWait(fragment string) (f First, ok, wait bool) {
	defer func() {
		if p := recover(); p != nil {
			if _, incomplete := p.(*catalog.IncompleteError); !incomplete {
				panic(p)
			}
			f, ok, wait = First{}, false, true
		}
	}()
	f, ok = FirstClaim(fragment)
	return f, ok, false
}

// LoadCatalog gives an engine built without the model catalog (the tag catalogext: the page's)
// the catalog's text, as the site writes it: the whole table (catalog.LoadText), or, when shard
// is true, one shard of it (catalog.LoadShard). The error says what is wrong with the text.
func LoadCatalog(text string, shard bool) error {
	if shard {
		return catalog.LoadShard(text)
	}
	return catalog.LoadText(text)
}

// targetValues is a target's non-default fields as the page's target object holds them (the
// object repairLink answers and the page passes to render).
func targetValues(t *target.Target) map[string]Value {
	values := map[string]Value{}
	eachSetField(t, func(f *target.Field) {
		switch v := f.Value(t).(type) {
		case string:
			values[f.Name] = Value{Type: "string", Str: v}
		case float64:
			values[f.Name] = Value{Type: "number", Num: v}
		case int:
			values[f.Name] = Value{Type: "number", Num: float64(v)}
		case bool:
			values[f.Name] = Value{Type: "boolean", Bool: v}
		}
	})
	return values
}

// AppendFirstJSON appends the first claim as boot.js shows it, in ASCII only:
// {"target": repairLink's target, "yaml": render's yaml, "json": render's json}.
func AppendFirstJSON(dst []byte, f *First) []byte {
	w := jsontext.NewASCIIWriter(dst)
	w.Grow(len(f.Result.YAML) + len(f.Result.JSON) + 1024)
	w.BeginObject()
	w.Key("target")
	writeTargetObject(&w, &f.Link)
	str(&w, "yaml", f.Result.YAML)
	str(&w, "json", f.Result.JSON)
	w.EndObject()
	return w.Bytes()
}

// AppendFirstRest appends the rest of the first claim's answer: render's columns document for
// the target (AppendResultColumnsJSON), the same text render(target, {columns: true}) answers.
func AppendFirstRest(dst []byte, f *First) []byte {
	if !f.matched {
		claim.AddMatches(&f.Result)
		f.matched = true
	}
	return AppendResultColumnsJSON(dst, f.Asked, f.Result)
}
