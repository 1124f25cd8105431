package api

import (
	"io"
	"net/http"
	"net/http/httptest"
)

// getAPI answers GET u with h: the status and the body.
func getAPI(h http.Handler, u string) (int, string) {
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", u, nil))
	b, _ := io.ReadAll(w.Result().Body)
	return w.Code, string(b)
}
