// Command devserve serves a built site (dist/ by default) on 127.0.0.1 with
// the [[headers]] and [[redirects]] of netlify.toml, so the page runs locally
// under the same Content-Security-Policy, content types and caching as on
// Netlify. `./build.sh serve` runs it.
//
//	devserve [-addr 127.0.0.1:8080] [-dir dist] [-config netlify.toml] [-api http://127.0.0.1:8787] [-q]
//
// The port defaults to $PORT, else 8080. Rules that proxy to an absolute URL
// (the /api/* rule) are sent to -api when it is given, else answered with 502.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/fitclaim/fitclaim/tools/internal/netlify"
)

func main() {
	port := os.Getenv("PORT")
	if port == "" {
		port = "8080"
	}
	addr := flag.String("addr", net.JoinHostPort("127.0.0.1", port), "address to listen on (host:port; port 0 picks a free one)")
	dir := flag.String("dir", "dist", "directory to serve")
	config := flag.String("config", "netlify.toml", "netlify.toml whose [[headers]] and [[redirects]] apply (empty: none)")
	api := flag.String("api", "", "base URL (e.g. http://127.0.0.1:8787) that proxy rules such as /api/* are sent to; without it they answer 502")
	quiet := flag.Bool("q", false, "do not log requests")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "devserve: unexpected arguments %q\n", flag.Args())
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*addr, *dir, *config, *api, *quiet); err != nil {
		fmt.Fprintln(os.Stderr, "devserve:", err)
		os.Exit(1)
	}
}

func run(addr, dir, config, api string, quiet bool) error {
	info, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("%v (build the site first: ./build.sh)", err)
	}
	if !info.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	cfg := &netlify.Config{}
	if config != "" {
		if cfg, err = netlify.Load(config); err != nil {
			return err
		}
		for _, k := range cfg.Ignored {
			fmt.Fprintf(os.Stderr, "devserve: %s: %s has no effect on the local server\n", config, k)
		}
	}
	var apiURL *url.URL
	if api != "" {
		apiURL, err = url.Parse(api)
		if err != nil || (apiURL.Scheme != "http" && apiURL.Scheme != "https") || apiURL.Host == "" {
			return fmt.Errorf("-api %q: want a base URL like http://127.0.0.1:8787", api)
		}
	}
	srv := netlify.NewServer(dir, cfg, apiURL)
	if !quiet {
		srv.Log = log.New(os.Stderr, "", log.LstdFlags)
	}

	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	host, p, _ := net.SplitHostPort(ln.Addr().String())
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	fmt.Printf("fitclaim: serving %s on http://%s/ (Ctrl-C to stop)\n", dir, net.JoinHostPort(host, p))

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return err
	case <-ctx.Done():
		shutdown, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		return hs.Shutdown(shutdown)
	}
}
