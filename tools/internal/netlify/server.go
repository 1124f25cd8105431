package netlify

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"log"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"path"
	"strings"
)

// contentTypes are the types the site's files are served with, whatever the
// machine's mime database says. A [[headers]] rule may still override them.
var contentTypes = map[string]string{
	".html":        "text/html; charset=utf-8",
	".js":          "text/javascript; charset=utf-8",
	".mjs":         "text/javascript; charset=utf-8",
	".css":         "text/css; charset=utf-8",
	".wasm":        "application/wasm",
	".webmanifest": "application/manifest+json",
	".json":        "application/json",
	".svg":         "image/svg+xml",
	".png":         "image/png",
	".ico":         "image/x-icon",
	".txt":         "text/plain; charset=utf-8",
	".yaml":        "text/plain; charset=utf-8",
	".xml":         "application/xml",
	".map":         "application/json",
}

// ContentType is the Content-Type the server sends for a file name.
func ContentType(name string) string {
	if ct, ok := contentTypes[strings.ToLower(path.Ext(name))]; ok {
		return ct
	}
	return "application/octet-stream"
}

// Server serves a directory with a Config's headers and redirects.
type Server struct {
	Root   fs.FS
	Config *Config
	// API, when set, is the base URL that proxy rules (status 200 to an
	// absolute http(s) URL) are sent to instead of the URL in the file; the
	// path and query are kept. Without it such requests get a 502.
	API *url.URL
	// Log, when set, gets one line per request.
	Log *log.Logger
}

// NewServer serves dir with cfg (nil means no rules).
func NewServer(dir string, cfg *Config, api *url.URL) *Server {
	if cfg == nil {
		cfg = &Config{}
	}
	return &Server{Root: os.DirFS(dir), Config: cfg, API: api}
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	return s.ResponseWriter.Write(b)
}

func (s *statusRecorder) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.Log != nil {
		rec := &statusRecorder{ResponseWriter: w}
		defer func() { s.Log.Printf("%s %s %d", r.Method, r.URL.RequestURI(), rec.status) }()
		w = rec
	}
	reqPath := r.URL.Path
	if !strings.HasPrefix(reqPath, "/") {
		reqPath = "/" + reqPath
	}
	file, exists := s.lookup(reqPath)

	for _, rule := range s.Config.Redirects {
		if exists && !rule.Force {
			continue // a file shadows every rule that is not forced
		}
		to, ok := rule.Target(reqPath)
		if !ok {
			continue
		}
		s.applyRedirect(w, r, rule.Status, to)
		return
	}
	if !exists {
		s.notFound(w, r)
		return
	}
	s.serveFile(w, r, reqPath, file, http.StatusOK)
}

func (s *Server) applyRedirect(w http.ResponseWriter, r *http.Request, status int, to string) {
	target, err := url.Parse(to)
	if err != nil {
		http.Error(w, "bad redirect target "+to, http.StatusInternalServerError)
		return
	}
	if target.RawQuery == "" {
		target.RawQuery = r.URL.RawQuery
	}
	switch {
	case status >= 300 && status < 400:
		http.Redirect(w, r, target.String(), status)
	case target.IsAbs():
		if target.Scheme != "http" && target.Scheme != "https" {
			http.Error(w, "unsupported proxy target "+to, http.StatusBadGateway)
			return
		}
		s.proxy(w, r, target)
	default:
		file, ok := s.lookup(target.Path)
		if !ok {
			s.notFound(w, r)
			return
		}
		s.serveFile(w, r, r.URL.Path, file, status)
	}
}

func (s *Server) proxy(w http.ResponseWriter, r *http.Request, target *url.URL) {
	if s.API == nil {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.WriteHeader(http.StatusBadGateway)
		fmt.Fprintf(w, "502: this path is proxied to %s on Netlify; the local server does not reach it.\n"+
			"Start the worker locally and pass its base URL with -api (for example -api http://127.0.0.1:8787).\n",
			target.Scheme+"://"+target.Host)
		return
	}
	dest := *s.API
	dest.Path = strings.TrimSuffix(s.API.Path, "/") + target.Path
	dest.RawPath = ""
	dest.RawQuery = target.RawQuery
	rp := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.Out.URL = &dest
			pr.Out.Host = dest.Host
			pr.SetXForwarded()
		},
		ErrorHandler: func(w http.ResponseWriter, _ *http.Request, err error) {
			http.Error(w, "502: proxy to "+dest.Scheme+"://"+dest.Host+" failed: "+err.Error(), http.StatusBadGateway)
		},
	}
	rp.ServeHTTP(w, r)
}

// lookup maps a URL path to a regular file under Root: "/" and "/dir/" (or
// "/dir") map to their index.html.
func (s *Server) lookup(urlPath string) (string, bool) {
	name := strings.TrimPrefix(path.Clean("/"+urlPath), "/")
	if name == "" {
		name = "."
	}
	if !fs.ValidPath(name) {
		return "", false
	}
	info, err := fs.Stat(s.Root, name)
	if err != nil {
		return "", false
	}
	if info.IsDir() {
		name = path.Join(name, "index.html")
		info, err = fs.Stat(s.Root, name)
		if err != nil || info.IsDir() {
			return "", false
		}
	}
	if !info.Mode().IsRegular() {
		return "", false
	}
	return name, true
}

func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	if file, ok := s.lookup("/404.html"); ok {
		s.serveFile(w, r, r.URL.Path, file, http.StatusNotFound)
		return
	}
	for k, vs := range s.Config.HeadersFor(r.URL.Path) {
		w.Header()[k] = vs
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusNotFound)
	io.WriteString(w, "404 page not found\n")
}

func (s *Server) serveFile(w http.ResponseWriter, r *http.Request, reqPath, name string, status int) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	h := w.Header()
	h.Set("Content-Type", ContentType(name))
	h.Add("Vary", "Accept-Encoding")
	stored := name
	if enc, alt := s.precompressed(r, name); alt != "" {
		h.Set("Content-Encoding", enc)
		stored = alt
	}
	data, err := fs.ReadFile(s.Root, stored)
	if err != nil {
		http.Error(w, "read error", http.StatusInternalServerError)
		return
	}
	info, err := fs.Stat(s.Root, stored)
	if err != nil {
		http.Error(w, "read error", http.StatusInternalServerError)
		return
	}
	for k, vs := range s.Config.HeadersFor(reqPath) {
		h[k] = vs
	}
	if status == http.StatusOK {
		// Handles HEAD, Range and If-Modified-Since.
		http.ServeContent(w, r, name, info.ModTime(), bytes.NewReader(data))
		return
	}
	h.Set("Content-Length", fmt.Sprint(len(data)))
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write(data)
	}
}

// precompressed picks the copy tools/cmd/site wrote beside a file (NAME.br, NAME.gz) that the
// request accepts, as a CDN sends compressed text: brotli first. None: "", "".
func (s *Server) precompressed(r *http.Request, name string) (encoding, file string) {
	accept := r.Header.Get("Accept-Encoding")
	for _, c := range []struct{ enc, ext string }{{"br", ".br"}, {"gzip", ".gz"}} {
		if !acceptsEncoding(accept, c.enc) {
			continue
		}
		if info, err := fs.Stat(s.Root, name+c.ext); err == nil && info.Mode().IsRegular() {
			return c.enc, name + c.ext
		}
	}
	return "", ""
}

// acceptsEncoding reports whether an Accept-Encoding header lists enc without q=0.
func acceptsEncoding(header, enc string) bool {
	for _, part := range strings.Split(header, ",") {
		tok, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(tok), enc) {
			q := strings.ReplaceAll(params, " ", "")
			return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
		}
	}
	return false
}
