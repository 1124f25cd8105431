package api

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"

	"github.com/fitclaim/fitclaim/cluster"
	"github.com/fitclaim/fitclaim/target"
)

// CheckPath is the one route that takes a body:
//
//	POST /api/v1/check?<permalink keys>   body: kubectl get resourceslices -o yaml (or -o json)
//
// or, to say which devices are already allocated, which nodes there are or which of them the
// workload's pod can be scheduled to, a multipart/form-data body (curl -F slices=@slices.yaml
// -F claims=@claims.yaml -F nodes=@nodes.yaml -F pod=@app.yaml) with the part `slices`
// (required), `claims` (optional: kubectl get resourceclaims -A -o yaml, whose allocated
// devices are not free), `nodes` (optional: kubectl get nodes -o yaml, whose labels resolve the
// slices' node selectors) and `pod` (optional: the workload, fitclaim deploy's output or a
// Deployment, whose nodeSelector, required node affinity and tolerations keep the claim to the
// nodes its pod can be scheduled to).
// It answers 200 with cluster.Report.JSON ({"allocatable", "devices": […]}) — whether or not
// the claim can be allocated —, 400 for a bad target, bad slices, claims, nodes or pod (the message
// names the input, object and field) or a part given twice, 413 for a body (or a part) over
// cluster.MaxInput. Answers are not cached: the body is the user's cluster. The report's notes
// (cluster.Report.Notes, `fitclaim check --json`'s "fitclaim: note: …" lines) are Warning headers.
const CheckPath = Prefix + "check"

func serveCheck(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	switch r.Method {
	case http.MethodPost:
	case http.MethodOptions: // CORS preflight: the body is YAML, not a "simple" content type
		h.Set("Access-Control-Allow-Methods", "POST")
		h.Set("Access-Control-Allow-Headers", "Content-Type")
		h.Set("Access-Control-Max-Age", preflightMaxAge)
		w.WriteHeader(http.StatusNoContent)
		return
	default:
		h.Set("Allow", "POST, OPTIONS")
		fail(w, http.StatusMethodNotAllowed, "method "+r.Method+" not allowed; POST the slices (kubectl get resourceslices -o yaml) as the body")
		return
	}
	if len(r.URL.RawQuery) > MaxQuery {
		fail(w, http.StatusRequestURITooLong, "query: too long ("+strconv.Itoa(len(r.URL.RawQuery))+" bytes; at most "+strconv.Itoa(MaxQuery)+")")
		return
	}
	var in cluster.Inputs
	status, msg := 0, ""
	if mediaType(r.Header.Get("Content-Type")) == "multipart/form-data" {
		in, status, msg = readCheckParts(r)
	} else {
		in.Slices, status, msg = readCheckBody(r)
	}
	if status != 0 {
		fail(w, status, msg)
		return
	}
	t, err := target.ParsePermalink(r.URL.RawQuery)
	var rep cluster.Report
	if err == nil {
		rep, err = cluster.CheckTargetInputs(t, in)
	}
	if err != nil {
		fail(w, http.StatusBadRequest, err.Error())
		return
	}
	body := rep.JSON()
	h.Set("Content-Type", TypeJSON)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("Cache-Control", "no-store")
	// The report's notes (what the verdict assumes, inputs ignored, nodes left out), which
	// `fitclaim check --json` prints on stderr as "fitclaim: note: …" and the JSON leaves out,
	// as Warning headers, as the other routes send their warnings (warning.go).
	h[hExposeHeaders] = []string{exposeHeaders}
	if len(rep.Notes) > 0 {
		h[hWarning] = warningValues(rep.Notes)
	}
	w.WriteHeader(http.StatusOK)
	writeBody(w, []byte(body))
}

// readCheckBody reads a plain body: the slices. On failure it answers the status and message.
func readCheckBody(r *http.Request) ([]byte, int, string) {
	tooBig := "slices: the body is over " + strconv.Itoa(cluster.MaxInput) + " bytes (5 MiB); " + cluster.LargeHint
	if r.ContentLength > cluster.MaxInput {
		return nil, http.StatusRequestEntityTooLarge, tooBig
	}
	data, err := io.ReadAll(io.LimitReader(r.Body, cluster.MaxInput+1))
	if err != nil {
		return nil, http.StatusBadRequest, "slices: reading the body: " + err.Error()
	}
	if len(data) > cluster.MaxInput {
		return nil, http.StatusRequestEntityTooLarge, tooBig
	}
	return data, 0, ""
}

// maxMultipart bounds a multipart body: the four parts at their limit, and room for the parts'
// headers and boundaries.
const maxMultipart = 4*cluster.MaxInput + 64<<10

// readCheckParts reads a multipart/form-data body: the part slices (required), claims, nodes
// and pod (optional; nil when absent), each at most cluster.MaxInput. On failure it answers the status
// and a message naming the part.
func readCheckParts(r *http.Request) (in cluster.Inputs, status int, msg string) {
	if r.ContentLength > maxMultipart {
		return in, http.StatusRequestEntityTooLarge, "body: over " + strconv.Itoa(maxMultipart) + " bytes (four parts of 5 MiB); " + cluster.LargeHint
	}
	r.Body = http.MaxBytesReader(nil, r.Body, maxMultipart)
	mr, err := r.MultipartReader()
	if err != nil {
		return in, http.StatusBadRequest, "body: not multipart/form-data: " + err.Error()
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return in, partStatus(err), "body: reading the parts: " + err.Error()
		}
		name := part.FormName()
		var into *[]byte
		switch name {
		case "slices":
			into = &in.Slices
		case "claims":
			into = &in.Claims
		case "nodes":
			into = &in.Nodes
		case "pod":
			into = &in.Pod
		default:
			return in, http.StatusBadRequest, "body: part " + strconv.Quote(clipName(name)) + ": want slices, claims, nodes or pod"
		}
		if *into != nil { // a second part of a name would silently replace the first
			return in, http.StatusBadRequest, "body: part " + name + " given twice; give each of slices, claims, nodes and pod once"
		}
		data, err := io.ReadAll(io.LimitReader(part, cluster.MaxInput+1))
		if err != nil {
			return in, partStatus(err), name + ": reading the part: " + err.Error()
		}
		if len(data) > cluster.MaxInput {
			return in, http.StatusRequestEntityTooLarge, name + ": the part is over " + strconv.Itoa(cluster.MaxInput) + " bytes (5 MiB); " + cluster.LargeHint
		}
		*into = data // io.ReadAll gives an empty part as [], not nil: given, and empty
	}
	if in.Slices == nil {
		return in, http.StatusBadRequest, "slices: missing: the multipart body needs a part named slices (kubectl get resourceslices -o yaml)"
	}
	return in, 0, ""
}

// partStatus is 413 when the body ran over maxMultipart, else 400.
func partStatus(err error) int {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return http.StatusRequestEntityTooLarge
	}
	return http.StatusBadRequest
}

// mediaType is a Content-Type without its parameters, lower case ("" if unreadable).
func mediaType(contentType string) string {
	t, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return ""
	}
	return t
}

// clipName shortens a part name quoted in a message.
func clipName(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
