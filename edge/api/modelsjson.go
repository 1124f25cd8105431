package api

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fitclaim/fitclaim/claim"
)

// modelsJSON is json.Marshal(list) for the models route, written by hand: encoding/json's
// reflection was a third of a search in the edge worker's wasm. It covers the values the
// catalog holds (finite numbers, names that need no escape); for anything else ok is false and
// the caller marshals as before. TestModelsJSONIsMarshal compares it over the whole catalog.
func modelsJSON(list []claim.ModelSummary) (text string, ok bool) {
	if list == nil {
		return "", false // json.Marshal writes null
	}
	var b strings.Builder
	b.Grow(4 + 128*len(list)) // a summary is 90-150 bytes
	var num [32]byte          // each number is formatted here, then copied into b
	b.WriteByte('[')
	for i := range list {
		m := &list[i]
		if !jsonPlain(m.Name) || !jsonPlain(m.Quant) || math.IsNaN(m.ParamsB) || math.IsInf(m.ParamsB, 0) {
			return "", false
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"name":"`)
		b.WriteString(m.Name)
		b.WriteString(`","paramsB":`)
		b.Write(appendJSONFloat(num[:0], m.ParamsB))
		b.WriteString(`,"quant":"`)
		b.WriteString(m.Quant)
		b.WriteString(`","contextLength":`)
		b.Write(strconv.AppendInt(num[:0], int64(m.ContextLength), 10))
		b.WriteString(`,"moe":`)
		b.WriteString(strconv.FormatBool(m.MoE))
		b.WriteByte('}')
	}
	b.WriteString("]\n")
	return b.String(), true
}

// jsonPlain reports whether encoding/json writes s as itself between quotes: printable ASCII
// without '"', '\\' and the characters it escapes for HTML ('<', '>', '&').
func jsonPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c >= utf8.RuneSelf, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return false
		}
	}
	return true
}

// appendJSONFloat appends a finite float64 as encoding/json writes it: the shortest decimal, in
// exponent form below 1e-6 and from 1e21, with the exponent's leading zero dropped (e-07 → e-7).
func appendJSONFloat(b []byte, f float64) []byte {
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}
