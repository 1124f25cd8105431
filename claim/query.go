package claim

import (
	"math"
	"strconv"
	"strings"

	"github.com/fitclaim/fitclaim/fit"
)

// Kind is the type of a target field's value, so a caller holding typed values (the JS bridge)
// can check them before they are spelled as text.
type Kind int

const (
	KindString Kind = iota
	KindNumber
	KindInteger
	KindBool
)

// Field describes one target field: its camelCase name (JSON, bridge), its short key (permalink,
// query string) and how its text is read and written.
type Field struct {
	Name string
	Key  string
	Kind Kind
	get  func(t *fit.Target) string
	set  func(t *fit.Target, v string) error
}

// FormatVersion is the permalink format this fitclaim writes; it reads every version up to it.
const FormatVersion = 1

// formatKey carries the format version in links that need it.
const formatKey = "v"

// Fields lists the target fields in the order links spell them.
var Fields = []Field{
	str("model", func(t *fit.Target) *string { return &t.Model }),
	num("paramsB", func(t *fit.Target) *float64 { return &t.ParamsB }),
	str("quant", func(t *fit.Target) *string { return &t.Quant }),
	num("minTps", func(t *fit.Target) *float64 { return &t.MinTps }),
	integer("efficiencyPct", func(t *fit.Target) *int { return &t.EfficiencyPct }),
	boolean("template", func(t *fit.Target) *bool { return &t.Template }),
	str("name", func(t *fit.Target) *string { return &t.Name }),
	str("deviceClass", func(t *fit.Target) *string { return &t.DeviceClass }),
	str("sizing", func(t *fit.Target) *string { return &t.Sizing }),
	integer("context", func(t *fit.Target) *int { return &t.Context }),
	integer("sequences", func(t *fit.Target) *int { return &t.Sequences }),
	str("kvCache", func(t *fit.Target) *string { return &t.KVCache }),
	str("driver", func(t *fit.Target) *string { return &t.Driver }),
	integer("count", func(t *fit.Target) *int { return &t.Count }),
	integer("layers", func(t *fit.Target) *int { return &t.Layers }),
	integer("kvHeads", func(t *fit.Target) *int { return &t.KVHeads }),
	integer("headDim", func(t *fit.Target) *int { return &t.HeadDim }),
	num("activeParamsB", func(t *fit.Target) *float64 { return &t.ActiveParamsB }),
}

// FieldByName finds a field by its camelCase name.
func FieldByName(name string) (Field, bool) {
	for _, f := range Fields {
		if f.Name == name {
			return f, true
		}
	}
	return Field{}, false
}

func fieldByKey(key string) (Field, bool) {
	for _, f := range Fields {
		if f.Key == key {
			return f, true
		}
	}
	return Field{}, false
}

// Set parses v into the field of t.
func (f Field) Set(t *fit.Target, v string) error { return f.set(t, v) }

// maxValueLen bounds every value: the longest catalog name is 83 characters and a claim name
// at most 253, so anything past this is a mistake or an attack.
const maxValueLen = 512

func str(name string, p func(*fit.Target) *string) Field {
	return Field{Name: name, Key: fit.Keys[name], Kind: KindString,
		get: func(t *fit.Target) string { return *p(t) },
		set: func(t *fit.Target, v string) error { *p(t) = v; return nil }}
}

func num(name string, p func(*fit.Target) *float64) Field {
	return Field{Name: name, Key: fit.Keys[name], Kind: KindNumber,
		get: func(t *fit.Target) string { return strconv.FormatFloat(*p(t), 'f', -1, 64) },
		set: func(t *fit.Target, v string) error {
			x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil || math.IsNaN(x) || math.IsInf(x, 0) || strings.ContainsAny(v, "xX_") {
				return fit.NewFieldError(name, "must be a finite decimal number (got "+quoteShort(v)+")")
			}
			*p(t) = x
			return nil
		}}
}

func integer(name string, p func(*fit.Target) *int) Field {
	return Field{Name: name, Key: fit.Keys[name], Kind: KindInteger,
		get: func(t *fit.Target) string { return strconv.Itoa(*p(t)) },
		set: func(t *fit.Target, v string) error {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 32)
			if err != nil {
				return fit.NewFieldError(name, "must be a whole number (got "+quoteShort(v)+")")
			}
			*p(t) = int(n)
			return nil
		}}
}

func boolean(name string, p func(*fit.Target) *bool) Field {
	return Field{Name: name, Key: fit.Keys[name], Kind: KindBool,
		get: func(t *fit.Target) string {
			if *p(t) {
				return "1"
			}
			return "0"
		},
		set: func(t *fit.Target, v string) error {
			switch strings.ToLower(strings.TrimSpace(v)) {
			case "1", "true", "yes", "on":
				*p(t) = true
			case "0", "false", "no", "off", "":
				*p(t) = false
			default:
				return fit.NewFieldError(name, "must be 1 or 0 (got "+quoteShort(v)+")")
			}
			return nil
		}}
}

// ParseQuery reads a target from query-string or permalink pairs; absent keys keep llmfit's
// defaults. It stops at the first error; ParseQueryPartial collects them all.
func ParseQuery(v Values) (fit.Target, error) {
	t, errs := ParseQueryPartial(v)
	if len(errs) > 0 {
		return t, errs[0]
	}
	return t, nil
}

// ParseQueryPartial reads every valid pair and returns the errors of the others, so a broken
// link still fills what it can.
func ParseQueryPartial(v Values) (fit.Target, []error) {
	t := fit.DefaultTarget()
	var errs []error
	if vals, ok := v[formatKey]; ok {
		if err := checkFormat(vals); err != nil {
			errs = append(errs, err)
		}
	}
	for _, f := range Fields {
		vals, ok := v[f.Key]
		switch {
		case !ok:
		case len(vals) != 1:
			errs = append(errs, fit.NewFieldError(f.Name, "given "+strconv.Itoa(len(vals))+" times; give it once"))
		case len(vals[0]) > maxValueLen:
			errs = append(errs, fit.NewFieldError(f.Name, "must be at most "+strconv.Itoa(maxValueLen)+" characters (got "+strconv.Itoa(len(vals[0]))+")"))
		default:
			if err := f.set(&t, vals[0]); err != nil {
				errs = append(errs, err)
			}
		}
	}
	var unknown []string
	for k := range v {
		if _, ok := fieldByKey(k); !ok && k != formatKey {
			unknown = append(unknown, k)
		}
	}
	sortStrings(unknown)
	for _, k := range unknown {
		errs = append(errs, &fit.FieldError{Field: "query", Msg: "unknown key " + quoteShort(k) + "; known keys: " + knownKeys()})
	}
	return t, errs
}

func checkFormat(vals []string) error {
	if len(vals) != 1 {
		return &fit.FieldError{Field: "v", Key: formatKey, Msg: "given " + strconv.Itoa(len(vals)) + " times; give it once"}
	}
	n, err := strconv.Atoi(vals[0])
	if err != nil || n < 1 {
		return &fit.FieldError{Field: "v", Key: formatKey, Msg: "the link format version must be a whole number from 1 (got " + quoteShort(vals[0]) + ")"}
	}
	if n > FormatVersion {
		return &fit.FieldError{Field: "v", Key: formatKey, Msg: "this link was made by a newer fitclaim (format " + strconv.Itoa(n) + "); this one reads formats up to " + strconv.Itoa(FormatVersion)}
	}
	return nil
}

func knownKeys() string {
	keys := []string{formatKey}
	for _, f := range Fields {
		keys = append(keys, f.Key)
	}
	return strings.Join(keys, ", ")
}

// Query spells a target as pairs, leaving out every value that equals the default.
func Query(t fit.Target) Values {
	v := Values{}
	def := fit.DefaultTarget()
	for _, f := range Fields {
		if s := f.get(&t); s != f.get(&def) {
			v[f.Key] = []string{s}
		}
	}
	return v
}

// Permalink is the URL fragment (without '#') for a target: only non-default pairs, in the order
// of Fields, so equal targets give equal links.
func Permalink(t fit.Target) string {
	def := fit.DefaultTarget()
	var parts []string
	for _, f := range Fields {
		if s := f.get(&t); s != f.get(&def) {
			parts = append(parts, f.Key+"="+queryEscape(s))
		}
	}
	return strings.Join(parts, "&")
}

// ParseRawQuery reads a raw query string (the API's); it is the permalink's format, so a page
// link becomes an API link by swapping '#' for '/api/v1/claim.yaml?'.
func ParseRawQuery(raw string) (fit.Target, error) { return ParsePermalink(raw) }

// ParsePermalink reads a fragment (with or without its '#').
func ParsePermalink(fragment string) (fit.Target, error) {
	t, errs := ParsePermalinkPartial(fragment)
	if len(errs) > 0 {
		return t, errs[0]
	}
	return t, nil
}

// ParsePermalinkPartial reads what it can of a fragment: the target from the valid pairs, and an
// error for each pair it could not read.
func ParsePermalinkPartial(fragment string) (fit.Target, []error) {
	fragment = strings.TrimPrefix(fragment, "#")
	v := Values{}
	var errs []error
	for _, pair := range strings.Split(fragment, "&") {
		if pair == "" {
			continue
		}
		k, val, _ := strings.Cut(pair, "=")
		key, err1 := queryUnescape(k)
		value, err2 := queryUnescape(val)
		if err1 != nil || err2 != nil {
			errs = append(errs, &fit.FieldError{Field: "query", Msg: "invalid percent-encoding in " + quoteShort(pair)})
			continue
		}
		v[key] = append(v[key], value)
	}
	t, more := ParseQueryPartial(v)
	return t, append(errs, more...)
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
