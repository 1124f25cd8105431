package target

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Kind is the type of a field's value; the bridge refuses a JS value of another type.
type Kind int

const (
	KindString Kind = iota
	KindNumber
	KindInteger
	KindBool
)

// Field is one row of the table: every spelling of one Target field and its rules.
type Field struct {
	Name    string // camelCase: the JSON, the bridge's object, FieldError.Field
	Key     string // the permalink and API query key
	Flag    string // the command line's --flag; "" = the positional argument
	Arg     string // the flag's value in the help ("N"); "" for a switch
	Label   string // what a person reads: the page's form and every error message
	Unit    string // said after a range ("tokens/s")
	Default string // the value, spelled as in a link, when absent; "" = the zero value
	Derived string // what the zero value means where it is derived ("the model's own")
	Help    string // one line for the command line and the page
	Device  bool   // one of the device the estimate runs on: only fitclaim estimate reads it
	Deploy  bool   // what the Deployment's pod is given (its image, requests): only fitclaim deploy reads it
	KVOnly  bool   // read by sizing kv (and the engine's budget) only: llmfit's sizing ignores a value given (claim.IgnoredBySizing)

	// The allowed values. Integers: Min ≤ n ≤ Max. Numbers: Min < x ≤ Max. ZeroOK: 0 (the
	// default; for a string, "") passes and means Derived. Strings: at most MaxLen characters and, when Choices is set
	// and Open is not, one of Choices (in any case when no two differ only by case: FoldsCase).
	Min, Max float64
	ZeroOK   bool
	// ZeroAbsent: with ZeroOK, 0 means only "not given"; a 0 given in a link, a flag or the
	// bridge's object is refused (llmfit refuses --efficiency 0), so a given value is never
	// confused with an absent one.
	ZeroAbsent bool
	MaxLen     int
	Choices    func() []string
	Open       bool // Choices are the usual values; package fit accepts others it knows
	// Aliases are other spellings of a choice, each read as the choice it names (ignoring case):
	// the value is then that choice everywhere, links and JSON included.
	Aliases [][2]string
	// Form: a text's shape besides its length (a Kubernetes name, an image), which the package
	// that uses the value checks, not Validate (form.go).
	Form Form

	// Exactly one accessor is set; it gives the field's Kind.
	str     func(*Target) *string
	number  func(*Target) *float64
	integer func(*Target) *int
	boolean func(*Target) *bool
}

// Kind says which type the field holds.
func (f *Field) Kind() Kind {
	switch {
	case f.number != nil:
		return KindNumber
	case f.integer != nil:
		return KindInteger
	case f.boolean != nil:
		return KindBool
	}
	return KindString
}

// Ref names the field inside another field's message as every surface reads it: its label, JSON
// name and link key ("Parameters (paramsB, p)", "Device (on)" where they are one), which the
// command line rewrites to its flag ("Parameters (--params)"). Some messages named the JSON name
// alone ("give KV heads (kvHeads) too", "describes a custom model (paramsB)"): no key for a
// link or the API, and on the command line, where no label came before it, the JSON name.
func (f *Field) Ref() string {
	if f.Key == f.Name {
		return f.Label + " (" + f.Name + ")"
	}
	return f.Label + " (" + f.Name + ", " + f.Key + ")"
}

// ByName finds a field by its camelCase name.
func ByName(name string) (*Field, bool) {
	f, ok := fieldsByName()[name]
	return f, ok
}

// ByKey finds a field by its permalink key.
func ByKey(key string) (*Field, bool) {
	f, ok := fieldsByKey()[key]
	return f, ok
}

// fieldsByName and fieldsByKey index the table, made once (on first use, after the package's
// variables are set): Validate looks fields up by name and the query reader each pair's key
// on every request, and a walk of the table with a function call per field was ~2 % of the
// edge worker's Go time in wasm. Each keeps the first field of a name or key, as find does.
var (
	fieldsByName = sync.OnceValue(func() map[string]*Field { return indexFields(func(f *Field) string { return f.Name }) })
	fieldsByKey  = sync.OnceValue(func() map[string]*Field { return indexFields(func(f *Field) string { return f.Key }) })
)

func indexFields(key func(*Field) string) map[string]*Field {
	m := make(map[string]*Field, len(Fields))
	for i := range Fields {
		if k := key(&Fields[i]); m[k] == nil {
			m[k] = &Fields[i]
		}
	}
	return m
}

// ByFlag finds a field by its command-line flag (without "--").
func ByFlag(flag string) (*Field, bool) {
	return find(func(f *Field) bool { return flag != "" && f.Flag == flag })
}

func find(match func(*Field) bool) (*Field, bool) {
	for i := range Fields {
		if match(&Fields[i]) {
			return &Fields[i], true
		}
	}
	return nil, false
}

// Provide sets the choices of a field whose values another package owns (package fit: the
// quantizations, KV-cache types and drivers), so the table can check and show them. The list
// is made once, on first use (those tables do not change), and shared: Validate read it for
// every target, and each call built it anew. Callers only read it.
func Provide(name string, choices func() []string) {
	f, ok := ByName(name)
	if !ok {
		panic("target: no field " + name)
	}
	f.Choices = sync.OnceValue(choices)
}

// ZeroMeansDerived says a given 0 passes and means the same as the field left out: Derived
// (`--context 0` is the model's context, not zero tokens). A ZeroAbsent field refuses a given 0.
func (f *Field) ZeroMeansDerived() bool {
	k := f.Kind()
	return f.ZeroOK && !f.ZeroAbsent && (k == KindNumber || k == KindInteger)
}

// DerivedText is Derived as help and docs say it: for a field whose given 0 means the same,
// "absent or 0: " first, as the range they show beside it starts above 0.
func (f *Field) DerivedText() string {
	if f.Derived != "" && f.ZeroMeansDerived() {
		return "absent or 0: " + f.Derived
	}
	return f.Derived
}

// Get spells the field's value as a link does.
func (f *Field) Get(t *Target) string {
	switch f.Kind() {
	case KindNumber:
		return strconv.FormatFloat(*f.number(t), 'f', -1, 64)
	case KindInteger:
		return strconv.Itoa(*f.integer(t))
	case KindBool:
		return SpellBool(*f.boolean(t))
	}
	return *f.str(t)
}

// Same reports whether the field spells the same in a and b (f.Get(a) == f.Get(b)) without
// spelling either: a number formatted for each of the table's ~36 fields, twice, was much of
// writing a link or checking a query in wasm. Equal numbers of one sign spell alike, 0 and -0
// do not, and every NaN spells "NaN".
func (f *Field) Same(a, b *Target) bool {
	switch f.Kind() {
	case KindNumber:
		x, y := *f.number(a), *f.number(b)
		return x == y && math.Signbit(x) == math.Signbit(y) || x != x && y != y
	case KindInteger:
		return *f.integer(a) == *f.integer(b)
	case KindBool:
		return *f.boolean(a) == *f.boolean(b)
	}
	return *f.str(a) == *f.str(b)
}

// SpellBool is a boolean as a link spells it.
func SpellBool(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// Value is the field's value as a Go value (string, float64, int or bool), for JSON views.
func (f *Field) Value(t *Target) any {
	switch f.Kind() {
	case KindNumber:
		return *f.number(t)
	case KindInteger:
		return *f.integer(t)
	case KindBool:
		return *f.boolean(t)
	}
	return *f.str(t)
}

// Set parses a link's spelling of the value into t. It checks the spelling only; Validate
// checks the range. Numbers, booleans and choices (a field with Choices, the table's own or
// Provide's) are read without their surrounding space.
func (f *Field) Set(t *Target, v string) error {
	switch f.Kind() {
	case KindNumber:
		x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) || strings.ContainsAny(v, "xX_") {
			return f.Errorf(QuoteShort(v))
		}
		return f.SetNumber(t, x)
	case KindInteger:
		n, ok := ParseWhole(v)
		if !ok || (n == 0 && f.ZeroAbsent) {
			return f.Errorf(QuoteShort(v))
		}
		*f.integer(t) = n
	case KindBool:
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "1", "true", "yes", "on":
			*f.boolean(t) = true
		case "0", "false", "no", "off", "":
			*f.boolean(t) = false
		default:
			return f.Errorf(QuoteShort(v))
		}
	default:
		if f.Choices != nil {
			// A choice is a word, trimmed as a number is: "Q4_K_M " (a value pasted with its
			// space, q=Q4_K_M%20) was refused as an unknown quantization. Free text (a name, an
			// image) is kept as it is.
			v = strings.TrimSpace(v)
			for _, a := range f.Aliases {
				if strings.EqualFold(v, a[0]) {
					v = a[1]
					break
				}
			}
			v = f.Canonical(v)
		}
		*f.str(t) = v
	}
	return nil
}

// FoldsCase says the field's choices are read in any case: it has choices and no two of them
// differ only by case. One rule for every choice field, on every surface (links, the API, flags,
// the bridge): `s=KV`, `drv=NVIDIA`, `--engine VLLM` are the choice they spell, as `kv=FP8` and
// `q=q4_k_m` were.
func (f *Field) FoldsCase() bool {
	if f.Choices == nil {
		return false
	}
	c := f.Choices()
	for i := range c {
		for j := i + 1; j < len(c); j++ {
			if strings.EqualFold(c[i], c[j]) {
				return false
			}
		}
	}
	return true
}

// Canonical is v as the field's choices spell it when v is one of them in another case and the
// field FoldsCase ("KV" is "kv"); else v. A value given so reads back, and is written in links
// and JSON, as the choice.
func (f *Field) Canonical(v string) string {
	if f.Choices == nil {
		return v
	}
	c := f.Choices()
	if slices.Contains(c, v) {
		return v // most values: no folding to do
	}
	for _, choice := range c {
		if strings.EqualFold(choice, v) && f.FoldsCase() {
			return choice
		}
	}
	return v
}

// ParseWhole reads a whole number as a link, a flag or the API spells it: decimal, in any
// spelling of a decimal number whose value is whole ("32768", "32e3", "1.0", "+5"; the page's
// number inputs send 32e3 as 32000, and an integer field refused it as text), within int32,
// without its surrounding space. Hexadecimal, digit separators ("1_000"), NaN and infinities
// are not numbers here, as for a number field.
func ParseWhole(v string) (int, bool) {
	s := strings.TrimSpace(v)
	if n, err := strconv.ParseInt(s, 10, 32); err == nil {
		return int(n), true
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || strings.ContainsAny(s, "xX_") || x != math.Trunc(x) || math.Abs(x) > math.MaxInt32 {
		return 0, false // NaN and the infinities fail the last two tests
	}
	return int(x), true
}

// SetNumber sets a number or integer field from a number as it is (the bridge's numbers cross
// unrounded); an integer field refuses a fraction.
func (f *Field) SetNumber(t *Target, x float64) error {
	switch {
	case math.IsNaN(x) || math.IsInf(x, 0) || (x == 0 && f.ZeroAbsent):
		return f.Errorf(strconv.FormatFloat(x, 'g', -1, 64))
	case f.Kind() == KindNumber:
		*f.number(t) = x
	case f.Kind() == KindInteger && x == math.Trunc(x) && math.Abs(x) <= math.MaxInt32:
		*f.integer(t) = int(x)
	default:
		return f.Errorf(strconv.FormatFloat(x, 'g', -1, 64))
	}
	return nil
}

// Reset puts the field back to its default (absent, for a field whose zero means absent).
func (f *Field) Reset(t *Target) {
	d := Default()
	switch f.Kind() {
	case KindNumber:
		*f.number(t) = *f.number(&d)
	case KindInteger:
		*f.integer(t) = *f.integer(&d)
	case KindBool:
		*f.boolean(t) = *f.boolean(&d)
	default:
		*f.str(t) = *f.str(&d)
	}
}

// SetBool sets a boolean field.
func (f *Field) SetBool(t *Target, b bool) { *f.boolean(t) = b }

// Allowed is the field's allowed values in words ("a whole number from 1 to 100 percent"), the
// text of every range error.
func (f *Field) Allowed() string { return f.describe(false) }

// Range is Allowed in short, for help and tables: "1–100 percent", "> 0, ≤ 100000 tokens/s".
func (f *Field) Range() string { return f.describe(true) }

func (f *Field) describe(short bool) string {
	pick := func(long, brief string) string {
		if short {
			return brief
		}
		return long
	}
	unit := ""
	if f.Unit != "" {
		unit = " " + f.Unit
	}
	lo, hi := Num(f.Min), Num(f.Max)
	switch f.Kind() {
	case KindNumber:
		return pick("a decimal number greater than "+lo+" and at most "+hi, "> "+lo+", ≤ "+hi) + unit
	case KindInteger:
		return pick("a whole number from "+lo+" to "+hi, lo+"–"+hi) + unit
	case KindBool:
		return "1 or 0"
	}
	if f.Choices != nil && (short || !f.Open) {
		return pick("one of ", "") + strings.Join(f.Choices(), ", ")
	}
	return pick("text of at most ", "≤ ") + strconv.Itoa(f.MaxLen) + " characters"
}

// TooLong is the error about a value longer than the field takes: for a text, its length in
// characters against the field's own limit ("must be at most 300 characters (got 10000)"), as
// Validate says it; for a number or a switch, the range, as Set says it. Every surface that
// cuts a long value short (a link, the API, a flag, the page's bridge) says this, so the same
// value is refused with the same words.
func (f *Field) TooLong(v string) *FieldError {
	if f.Kind() != KindString {
		return f.Errorf(QuoteShort(v))
	}
	return f.Err("must be at most " + strconv.Itoa(f.MaxLen) + " characters (got " + strconv.Itoa(utf8.RuneCountInString(v)) + ")")
}

// Errorf is the field's range error for a value spelled got.
func (f *Field) Errorf(got string) *FieldError {
	return f.Err("must be " + f.Allowed() + " (got " + got + ")")
}

// Err is an error about this field.
func (f *Field) Err(msg string) *FieldError {
	return &FieldError{Field: f.Name, Key: f.Key, Label: f.Label, Msg: msg}
}

// Num spells a number the way a person typed it (shortest, no exponent).
func Num(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
