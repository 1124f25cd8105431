package api

import (
	"io"
	"net/http"
	"strconv"

	"github.com/fitclaim/fitclaim/cluster"
	"github.com/fitclaim/fitclaim/target"
)

// CheckPath is the one route that takes a body:
//
//	POST /api/v1/check?<permalink keys>   body: kubectl get resourceslices -o yaml (or -o json)
//
// It answers 200 with cluster.Report.JSON ({"allocatable", "devices": […]}) — whether or not
// the claim can be allocated —, 400 for a bad target or bad slices (the message names the
// object and field), 413 for a body over cluster.MaxInput. Answers are not cached: the body
// is the user's cluster.
const CheckPath = Prefix + "check"

func serveCheck(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	switch r.Method {
	case http.MethodPost:
	case http.MethodOptions: // CORS preflight: the body is YAML, not a "simple" content type
		h.Set("Access-Control-Allow-Methods", "POST")
		h.Set("Access-Control-Allow-Headers", "Content-Type")
		h.Set("Access-Control-Max-Age", "86400")
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
	tooBig := "slices: the body is over " + strconv.Itoa(cluster.MaxInput) + " bytes (5 MiB)"
	if r.ContentLength > cluster.MaxInput {
		fail(w, http.StatusRequestEntityTooLarge, tooBig)
		return
	}
	data, err := io.ReadAll(io.LimitReader(r.Body, cluster.MaxInput+1))
	if err != nil {
		fail(w, http.StatusBadRequest, "slices: reading the body: "+err.Error())
		return
	}
	if len(data) > cluster.MaxInput {
		fail(w, http.StatusRequestEntityTooLarge, tooBig)
		return
	}
	t, err := target.ParsePermalink(r.URL.RawQuery)
	var rep cluster.Report
	if err == nil {
		rep, err = cluster.CheckTarget(t, data)
	}
	if err != nil {
		fail(w, http.StatusBadRequest, err.Error())
		return
	}
	body := rep.JSON()
	h.Set("Content-Type", TypeJSON)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	writeBody(w, []byte(body))
}
