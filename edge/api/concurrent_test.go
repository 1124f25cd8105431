package api_test

import (
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"
)

// atOnce runs round rounds times in each of workers goroutines at once, then reports as test
// errors every error the rounds passed to report (nil ones are ignored).
func atOnce(t *testing.T, workers, rounds int, round func(report func(error))) {
	t.Helper()
	var mu sync.Mutex
	var errs []error
	report := func(err error) {
		if err != nil {
			mu.Lock()
			errs = append(errs, err)
			mu.Unlock()
		}
	}
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for range rounds {
				round(report)
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		t.Error(err)
	}
}

// send sends a request with body and reads the whole answer. It runs on any goroutine.
func send(client *http.Client, method, url string, body io.Reader) (answer, error) {
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		return answer{}, err
	}
	if method == http.MethodPost {
		// Every POST route (check, echo) answers from the body alone, so sending it again is
		// safe; this header tells net/http's client so. Without it the client does not retry a
		// POST whose kept-alive connection the server closed as the request went out ("connection
		// reset by peer"), which workerd does 5 s after a connection's last answer (newClient).
		req.Header.Set("Idempotency-Key", "fitclaim-test")
	}
	res, err := client.Do(req)
	if err != nil {
		return answer{}, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return answer{status: res.StatusCode, header: res.Header, body: b}, err
}

// sameClaim fetches case c and says how its answer differs from c's expected claim (200 and
// c.body); nil when it does not. It runs on any goroutine.
func sameClaim(client *http.Client, base string, c tcase) error {
	a, err := fetch(client, base, c)
	if err == nil && (a.status != 200 || string(a.body) != c.body) {
		err = fmt.Errorf("claim: status %d, body %.200q", a.status, a.body)
	}
	return err
}
