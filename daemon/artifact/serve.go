package artifact

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// PathPrefix is the URL path under which artifacts are served.
const PathPrefix = "/artifact/"

// Handler serves published artifacts: GET or HEAD /artifact/<64 lowercase
// hex> answers 200 with the bytes (application/octet-stream) when published
// and 404 otherwise, so an unpublished artifact looks exactly like an absent
// one; a malformed path is 400 and any other method 405.
func (s *Store) Handler() http.Handler {
	return http.HandlerFunc(s.serveHTTP)
}

func (s *Store) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	rest, ok := strings.CutPrefix(r.URL.Path, PathPrefix)
	if !ok {
		http.Error(w, "bad path: want "+PathPrefix+"<64 lowercase hex>", http.StatusBadRequest)
		return
	}
	hash, ok := parseHex(rest)
	if !ok {
		http.Error(w, "bad path: want "+PathPrefix+"<64 lowercase hex>", http.StatusBadRequest)
		return
	}
	if !s.Published(hash) {
		http.NotFound(w, r)
		return
	}
	b, err := s.Get(hash)
	if errors.Is(err, ErrNotFound) {
		http.NotFound(w, r)
		return
	}
	if err != nil {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	// Content never changes under a hash; caches may keep it.
	w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodGet {
		_, _ = w.Write(b)
	}
}

// Server timeouts: a slow or idle peer cannot hold a connection for long.
const (
	serveReadHeaderTimeout = 5 * time.Second
	serveReadTimeout       = 10 * time.Second
	serveWriteTimeout      = 30 * time.Second
	serveIdleTimeout       = 60 * time.Second
	serveShutdownGrace     = 5 * time.Second
)

// Serve serves Handler on ln until ctx is done, then shuts down gracefully
// (waiting a few seconds for requests in flight) and returns nil. Any other
// failure of the server is returned.
func (s *Store) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: serveReadHeaderTimeout,
		ReadTimeout:       serveReadTimeout,
		WriteTimeout:      serveWriteTimeout,
		IdleTimeout:       serveIdleTimeout,
		MaxHeaderBytes:    8 << 10,
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), serveShutdownGrace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		_ = srv.Close()
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
