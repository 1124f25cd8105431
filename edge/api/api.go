// Package api is fitclaim's HTTP API: routing, status codes and headers around the engine
// (packages claim, fit and catalog), which holds every rule. It is pure Go (no syscall/js): the
// edge worker (wasm/edge) mounts Handler in Cloudflare's runtime, and tests and benchmarks
// mount the same Handler in net/http.
//
// Routes (GET and HEAD only):
//
//	/api/v1/claim.yaml?<permalink keys>  the ResourceClaim(Template) YAML
//	/api/v1/claim.json?<permalink keys>  the same fit as JSON
//	/api/v1/deploy.yaml?<permalink keys>  the claim template, a Deployment and a Service (keys engine, image, trc, cpu, mem)
//	/api/v1/models?q=…&limit=…           catalog search: [{name, paramsB, quant, contextLength, moe}]
//	/api/v1/estimate.json?<keys>&on=…     on this hardware: {fits, needGiB, usableGiB, tokensPerSecond,
//	                                      maxContextTokens, maxSequences, reason} (estimate.go)
//	/api/v1/fitting.json?on=…&n=…&limit=… the most downloaded catalog models that fit the hardware
//	/api/v1/version                      {"version", "catalogDate", …}
//	POST /api/v1/check?<permalink keys>   the claim checked against the body's ResourceSlices, or the
//	                                      multipart parts slices and claims (check.go)
//
// An answer whose target has warnings (claim.Result.Warnings, and a Deployment's problems: the
// words `fitclaim claim` and `fitclaim deploy` print on stderr) carries each in a Warning header,
// `299 - "text"`, as the Kubernetes API server sends its warnings (warning.go); 304 and HEAD
// carry them as GET's 200 does.
//
// Bad input is 400 with the engine's message (which names the field) as text/plain; an unknown
// path is 404; another method is 405 with Allow, but a CORS preflight (OPTIONS with Origin and
// Access-Control-Request-Method) is 204 with the methods and headers the route takes. Successful answers are deterministic for a
// version, so they carry a strong ETag (a hash of the body, honoured in If-None-Match with 304)
// and Cache-Control: public, max-age=3600; every answer allows any origin (CORS).
package api

import (
	"encoding/binary"
	"encoding/hex"
	"hash/crc64"
	"net/http"
	"strconv"
	"strings"
	"unsafe"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/deploy"
	"github.com/fitclaim/fitclaim/target"
)

// Prefix is the path every route lives under.
const Prefix = "/api/v1/"

// MaxQuery is the longest raw query string accepted (Cloudflare's own URL limit is 16 KiB);
// longer ones get 414 before any parsing.
const MaxQuery = 16 << 10

// Content types of the answers.
const (
	TypeYAML = "application/yaml; charset=utf-8"
	TypeJSON = "application/json"
	TypeText = "text/plain; charset=utf-8"
)

// CacheControl is sent with every successful answer: the output is a pure function of the
// query and fitclaim's version.
const CacheControl = "public, max-age=3600"

const allow = "GET, HEAD"

// A route answers a raw query string (as sent, still percent-encoded) with a body and the
// target's warnings (nil: none), or an error whose message names the field.
type route func(rawQuery string) (body string, contentType string, warnings []string, err error)

var routes = map[string]route{
	Prefix + "claim.yaml":    claimYAML,
	Prefix + "claim.json":    claimJSON,
	Prefix + "deploy.yaml":   deployYAML,
	Prefix + "models":        plain(models),
	Prefix + "estimate.json": plain(estimateJSON),
	Prefix + "fitting.json":  plain(fittingJSON),
	Prefix + "version":       plain(version),
}

// plain is a route whose answers have no warnings: the catalog search, the version, and the
// estimate's (`fitclaim estimate` prints none: what does not fit is its answer's reason).
func plain(f func(rawQuery string) (string, string, error)) route {
	return func(raw string) (string, string, []string, error) {
		body, ctype, err := f(raw)
		return body, ctype, nil, err
	}
}

// Handler returns the API's http.Handler. It keeps no state between requests (the catalog it
// reads is parsed once per process). A panic in a route answers 500 (Recover).
func Handler() http.Handler { return Recover(http.HandlerFunc(serve)) }

func serve(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	// The header names are written in their canonical form (textproto.CanonicalMIMEHeaderKey's,
	// "Etag") and set directly: Header.Set canonicalises each name again, a byte loop per header
	// that was 3 % of a request in wasm. TestHeaderNamesCanonical checks them. The values
	// share one array (one allocation, not one per header), each a slice of it with no spare
	// capacity, so an append to one header's values copies it.
	v := new([7]string)
	v[0], v[1] = "*", "nosniff"
	h[hAllowOrigin], h[hNoSniff] = v[0:1:1], v[1:2:2]
	if r.URL.Path == CheckPath {
		serveCheck(w, r)
		return
	}
	rt, ok := routes[r.URL.Path]
	if !ok {
		fail(w, http.StatusNotFound, "not found: "+strconv.Quote(clip(r.URL.Path))+" (routes: "+Prefix+"claim.yaml, "+Prefix+"claim.json, "+Prefix+"deploy.yaml, "+Prefix+"models, "+Prefix+"estimate.json, "+Prefix+"fitting.json, "+Prefix+"version, POST "+CheckPath+")")
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		if preflight(r) {
			// A script's GET with a header that is not CORS-safelisted (If-None-Match, to
			// revalidate with the ETag this API exposes) is preceded by this preflight.
			h.Set("Access-Control-Allow-Methods", allow)
			h.Set("Access-Control-Allow-Headers", "If-None-Match")
			h.Set("Access-Control-Max-Age", preflightMaxAge)
			w.WriteHeader(http.StatusNoContent)
			return
		}
		h.Set("Allow", allow)
		fail(w, http.StatusMethodNotAllowed, "method "+r.Method+" not allowed; use GET or HEAD")
		return
	}
	if len(r.URL.RawQuery) > MaxQuery {
		fail(w, http.StatusRequestURITooLong, "query: too long ("+strconv.Itoa(len(r.URL.RawQuery))+" bytes; at most "+strconv.Itoa(MaxQuery)+")")
		return
	}
	text, ctype, warnings, err := rt(r.URL.RawQuery)
	if err != nil {
		fail(w, http.StatusBadRequest, err.Error())
		return
	}
	body := readOnlyBytes(text)
	etag := etagOf(body)
	v[2], v[3], v[4] = etag, CacheControl, exposeHeaders
	h[hETag], h[hCacheControl], h[hExposeHeaders] = v[2:3:3], v[3:4:4], v[4:5:5]
	if len(warnings) > 0 { // on 304 too: the same headers as the 200 it stands for (RFC 9110 15.4.5)
		h[hWarning] = warningValues(warnings)
	}
	// The map read directly: the name is canonical, as net/http and the edge's request reader
	// (edge/wire) store it; Header.Values canonicalises its argument again on every request.
	if noneMatch(r.Header["If-None-Match"], etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	v[5], v[6] = ctype, strconv.Itoa(len(body))
	h[hContentType], h[hContentLength] = v[5:6:6], v[6:7:7]
	w.WriteHeader(http.StatusOK)
	writeBody(w, body)
}

// preflight reports whether r is a CORS preflight request (Fetch standard 4.8: OPTIONS with
// Origin and Access-Control-Request-Method); a plain OPTIONS is not one.
func preflight(r *http.Request) bool {
	return r.Method == http.MethodOptions && r.Header.Get("Origin") != "" && r.Header.Get("Access-Control-Request-Method") != ""
}

// exposeHeaders are the answer's headers a script on another origin may read besides the
// CORS-safelisted ones (Content-Type, Cache-Control, …): the ETag, to revalidate with, and the
// warnings. Warning is listed on every answer, present or not, so the value stays one constant.
const exposeHeaders = "ETag, Warning"

// preflightMaxAge is how long (seconds) a browser may keep a preflight's answer.
const preflightMaxAge = "86400"

// The names of the headers a successful answer sets, canonical (see serve).
const (
	hAllowOrigin   = "Access-Control-Allow-Origin"
	hNoSniff       = "X-Content-Type-Options"
	hETag          = "Etag"
	hCacheControl  = "Cache-Control"
	hExposeHeaders = "Access-Control-Expose-Headers"
	hWarning       = "Warning"
	hContentType   = "Content-Type"
	hContentLength = "Content-Length"
)

// readOnlyBytes is s's bytes without copying them, for reading only: the ETag's CRC and
// ResponseWriter.Write, which io.Writer's contract forbids to modify or keep them. The
// bodies are strings made by the engine; the copy []byte(s) made was 3 % of a request in wasm
// (the new slice's spare capacity is cleared too).
func readOnlyBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// crcTables is the ETag's CRC-64, ECMA's polynomial (CRC-64/XZ), for slicing-by-8: [0] is the
// byte table (crc64.MakeTable's), [k] a byte's CRC followed by k zero bytes (8 × 2 KB).
var crcTables = func() *[8][256]uint64 {
	t := new([8][256]uint64)
	t[0] = *crc64.MakeTable(crc64.ECMA)
	for i := range 256 {
		crc := t[0][i]
		for k := 1; k < 8; k++ {
			crc = t[0][byte(crc)] ^ crc>>8
			t[k][i] = crc
		}
	}
	return t
}()

// etagOf is the body's strong ETag: its CRC-64/XZ in hex, quoted. It only has to tell apart
// the bodies one URL gives (a cache validator, not a signature: 64 bits leave a chance of
// 2^-64 that a changed body keeps its tag). It was SHA-256 cut to 128 bits, whose pure-Go
// block function is slow in wasm (no vector or SHA instructions): a table-driven CRC costs
// about a twentieth of it per byte there.
func etagOf(body []byte) string {
	var sum [8]byte
	binary.BigEndian.PutUint64(sum[:], crc64XZ(body))
	return `"` + hex.EncodeToString(sum[:]) + `"`
}

// crc64XZ is crc64.Checksum(body, the ECMA table), eight bytes a step (slicing-by-8: eight
// independent table reads per step instead of a chain of one read per byte), the rest a byte
// at a time. Go's own crc64.Checksum does the same through a pointer to its tables; this reads
// one fixed array. In wasm under Node, median of 3,000 calls (edge/README.md's eighth
// session): a 5,142-byte body (deploy.yaml) 20.2 µs a byte at a time, 3.8 µs here and 4.9 µs
// through crc64.Checksum, with 4 MB written before each call to leave the tables cold; 1,000
// bytes 4.4 / 1.5 / 1.8 µs; 113 bytes 0.8 / 0.5 / 0.5 µs. (A byte at a time through the one
// 2 KB table was chosen before for a cold cache; it is slower cold too.)
// TestCRC64XZIsChecksum.
func crc64XZ(body []byte) uint64 {
	t := crcTables
	crc := ^uint64(0)
	for len(body) >= 8 {
		crc ^= binary.LittleEndian.Uint64(body)
		crc = t[7][byte(crc)] ^ t[6][byte(crc>>8)] ^ t[5][byte(crc>>16)] ^ t[4][byte(crc>>24)] ^
			t[3][byte(crc>>32)] ^ t[2][byte(crc>>40)] ^ t[1][byte(crc>>48)] ^ t[0][byte(crc>>56)]
		body = body[8:]
	}
	for _, c := range body {
		crc = t[0][byte(crc)^c] ^ crc>>8
	}
	return ^crc
}

// writeBody writes the body for HEAD too: net/http drops it (its Write says
// ErrBodyNotAllowed), and in workerd syumai/workers sends a Content-Length response through a
// FixedLengthStream that throws if it gets fewer bytes; workerd sends no body for HEAD itself.
func writeBody(w http.ResponseWriter, body []byte) {
	w.Write(body)
}

// fail answers with a plain-text message. Errors are not cached.
func fail(w http.ResponseWriter, status int, msg string) {
	body := msg + "\n"
	h := w.Header()
	h.Set("Content-Type", TypeText)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	writeBody(w, []byte(body))
}

// noneMatch reports whether an If-None-Match header (RFC 9110 13.1.2, weak comparison) matches
// etag, so the answer is 304.
func noneMatch(values []string, etag string) bool {
	for _, v := range values {
		for tag := range strings.SplitSeq(v, ",") {
			tag = strings.TrimSpace(tag)
			if tag == "*" || strings.TrimPrefix(tag, "W/") == etag {
				return true
			}
		}
	}
	return false
}

// claimYAML is `fitclaim claim`'s YAML, and its warnings (claim.RenderYAMLResult: the matches
// are judged only when nothing fits, for the device count the warnings then propose).
func claimYAML(raw string) (string, string, []string, error) {
	t, err := target.ParsePermalink(raw)
	if err != nil {
		return "", "", nil, err
	}
	r, err := claim.RenderYAMLResult(t)
	if err != nil {
		return "", "", nil, err
	}
	return r.YAML, TypeYAML, r.Warnings, nil
}

// claimJSON is `fitclaim claim --json`'s bytes, its last newline included, as the models and
// version routes end theirs: the JSON routes' bodies ended three with a newline and two
// (this and estimate.json, fitting.json) without, so `curl URL` left the shell's prompt on
// the closing brace and the bytes were the command line's but for the last one.
// The query is read with the permalink codec (target.ParsePermalink, which does its own
// percent-decoding: r.URL.Query() would silently drop a pair it cannot decode).
func claimJSON(raw string) (string, string, []string, error) {
	t, err := target.ParsePermalink(raw)
	if err != nil {
		return "", "", nil, err
	}
	r, err := claim.RenderJSONResult(t)
	if err != nil {
		return "", "", nil, err
	}
	return r.JSON + "\n", TypeJSON, r.Warnings, nil
}

// deployYAML is the claim template, the Deployment and the Service (package deploy); the
// engine and the image are two of the target's keys. Its warnings are `fitclaim deploy`'s: the
// claim's, then the Deployment's problems (deploy.Result.Warnings).
func deployYAML(raw string) (string, string, []string, error) {
	t, err := target.ParsePermalink(raw)
	if err != nil {
		return "", "", nil, err
	}
	yaml, warnings, err := deploy.RenderYAMLWarnings(t)
	if err != nil {
		return "", "", nil, err
	}
	return yaml, TypeYAML, warnings, nil
}
