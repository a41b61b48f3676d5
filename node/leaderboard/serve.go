package leaderboard

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/scoringsubnet/validatord/internal/appquery"
)

// Server is the page served on one address.
type Server struct {
	srv  *http.Server
	ln   net.Listener
	done chan error
}

// Listen binds addr (so a taken port is an error here, not later) and serves
// the pages of q on it until Close; o (at most one) adds what the Query
// does not know.
func Listen(addr string, q appquery.Querier, o ...Options) (*Server, error) {
	var opts Options
	if len(o) > 0 {
		opts = o[0]
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	s := &Server{ln: ln, done: make(chan error, 1),
		srv: &http.Server{Handler: HandlerWith(q, opts), ReadHeaderTimeout: 5 * time.Second, WriteTimeout: pageTimeout + 5*time.Second}}
	go func() { s.done <- s.srv.Serve(ln) }()
	return s, nil
}

// Addr is the address it listens on (host:port).
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Close stops serving: requests in flight get until ctx ends.
func (s *Server) Close(ctx context.Context) error {
	err := s.srv.Shutdown(ctx)
	if serveErr := <-s.done; !errors.Is(serveErr, http.ErrServerClosed) {
		err = errors.Join(err, serveErr)
	}
	return err
}
