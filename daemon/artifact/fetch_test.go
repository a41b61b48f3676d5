package artifact

import (
	"bytes"
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func fetchErr(t *testing.T, err error, reason string) *FetchError {
	t.Helper()
	var fe *FetchError
	if !errors.As(err, &fe) || fe.Reason != reason {
		t.Fatalf("err = %v, want a *FetchError %s", err, reason)
	}
	return fe
}

// published serves b published from a fresh store.
func published(t *testing.T, b []byte) (*httptest.Server, []byte) {
	t.Helper()
	s, err := OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	h, _ := s.Put(b)
	if err := s.Publish(h); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	return srv, h
}

func TestFetchOK(t *testing.T) {
	b := []byte("artifact bytes")
	srv, h := published(t, b)
	for _, addr := range []string{srv.URL, srv.URL + "/"} {
		got, err := Fetch(context.Background(), srv.Client(), addr, h, Limits{})
		if err != nil || !bytes.Equal(got, b) {
			t.Fatalf("Fetch(%s): %q, %v", addr, got, err)
		}
	}
}

func TestFetchAddress(t *testing.T) {
	h := Hash(nil)
	fetchErr(t, func() error { _, err := Fetch(context.Background(), nil, "", h, Limits{}); return err }(), ReasonNoAddress)
	for _, a := range []string{"host:1234", "ftp://host/", "http://", "http://h/?q=1", "http://u:p@h/", "::"} {
		_, err := Fetch(context.Background(), nil, a, h, Limits{})
		fetchErr(t, err, ReasonBadAddress)
	}
	var he *HashError
	if _, err := Fetch(context.Background(), nil, "http://h", h[:5], Limits{}); !errors.As(err, &he) {
		t.Fatalf("short hash: %v", err)
	}
}

func TestFetchUnreachable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := "http://" + ln.Addr().String()
	ln.Close() // nothing listens there now
	_, err = Fetch(context.Background(), nil, addr, Hash(nil), Limits{})
	fetchErr(t, err, ReasonUnreachable)
}

func TestFetchStatus(t *testing.T) {
	s, err := OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	b := []byte("not yet revealed")
	h, _ := s.Put(b)
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	_, err = Fetch(context.Background(), nil, srv.URL, h, Limits{})
	if fe := fetchErr(t, err, ReasonStatus); fe.StatusCode != 404 || !strings.Contains(fe.Error(), "404") {
		t.Fatalf("%v", fe)
	}
	if err := s.Publish(h); err != nil {
		t.Fatal(err)
	}
	if got, err := Fetch(context.Background(), nil, srv.URL, h, Limits{}); err != nil || !bytes.Equal(got, b) {
		t.Fatalf("after Publish: %q, %v", got, err)
	}
}

func TestFetchNoRedirect(t *testing.T) {
	b := []byte("elsewhere")
	target, h := published(t, b)
	var followed atomic.Bool
	redir := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL+r.URL.Path, http.StatusFound)
	}))
	defer redir.Close()
	// Even a client that would follow redirects does not.
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { followed.Store(true); return nil }}
	_, err := Fetch(context.Background(), hc, redir.URL, h, Limits{})
	if fe := fetchErr(t, err, ReasonStatus); fe.StatusCode != http.StatusFound || followed.Load() {
		t.Fatalf("%v (followed %v)", fe, followed.Load())
	}
}

func TestFetchMismatch(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("some other bytes"))
	}))
	defer srv.Close()
	_, err := Fetch(context.Background(), nil, srv.URL, Hash([]byte("the committed bytes")), Limits{})
	fetchErr(t, err, ReasonMismatch)
}

func TestFetchTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	start := time.Now()
	_, err := Fetch(context.Background(), nil, srv.URL, Hash(nil), Limits{Timeout: 200 * time.Millisecond})
	fetchErr(t, err, ReasonTimeout)
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("took %v", d)
	}
}

// A body that trickles in slower than the timeout times out too.
func TestFetchSlowBody(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for {
			if _, err := w.Write([]byte("x")); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-time.After(50 * time.Millisecond):
			case <-r.Context().Done():
				return
			}
		}
	}))
	defer srv.Close()
	_, err := Fetch(context.Background(), nil, srv.URL, Hash(nil), Limits{Timeout: 300 * time.Millisecond})
	fetchErr(t, err, ReasonTimeout)
}

// An endless body is cut at MaxBytes+1 without being read to its end.
func TestFetchTooLarge(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		chunk := bytes.Repeat([]byte("y"), 32<<10)
		for {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	const max = 64 << 10
	start := time.Now()
	_, err := Fetch(context.Background(), nil, srv.URL, Hash(nil), Limits{MaxBytes: max, Timeout: 10 * time.Second})
	fetchErr(t, err, ReasonTooLarge)
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("took %v: the endless body was read on", d)
	}
	// A declared length beyond the limit is refused before reading.
	big := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "100000000")
		w.Write([]byte("short"))
	}))
	defer big.Close()
	_, err = Fetch(context.Background(), nil, big.URL, Hash(nil), Limits{MaxBytes: max})
	fetchErr(t, err, ReasonTooLarge)
	// Exactly MaxBytes is accepted.
	b := bytes.Repeat([]byte("z"), max)
	srv2, h := published(t, b)
	if got, err := Fetch(context.Background(), nil, srv2.URL, h, Limits{MaxBytes: max}); err != nil || len(got) != max {
		t.Fatalf("at the limit: %d bytes, %v", len(got), err)
	}
}

func TestFetchCanceled(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	}))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	_, err := Fetch(ctx, nil, srv.URL, Hash(nil), Limits{Timeout: 10 * time.Second})
	fetchErr(t, err, ReasonCanceled)
}
